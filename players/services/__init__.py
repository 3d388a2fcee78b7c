"""The workflows of players across events: the register and its links, series, master points, ratings, the
federation file (one module per workflow)."""
