"""Pages of players across events: the register (director), series, a person's page (public)."""
