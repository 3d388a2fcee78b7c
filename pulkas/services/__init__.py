"""The workflows of pulka events: one service per workflow, called by every channel (pages, table, API).

* :mod:`.sheet` — a table's sheet: entering, confirming and correcting deals, stopping the table, the cache;
* :mod:`.rounds` — drawing, starting, stopping and ending rounds; advancement and re-seating;
* :mod:`.event` — creating and configuring an event;
* :mod:`.standings` — the bracket, the rating table by round and the final standings.
"""
