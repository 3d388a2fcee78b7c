"""The duplicate tournament (rulebook Part I): matchpoints, standings, scoring sessions, rulings, deadlines."""
