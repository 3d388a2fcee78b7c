"""The tournament bundle, format v1 (docs/formats.md §2): :mod:`.document` (parse and write a bundle, its
participants and sessions), :mod:`.tournament` (the tournament and its scoring), a session's :mod:`.boards`,
protocol :mod:`.rows` (with :mod:`.seat_adjustments`) and :mod:`.penalties`, :mod:`.checks` (across a session's
rows), :mod:`.shape` (problems, field checks, the movement's shape) and :mod:`.bounds` (the bounds of every
input, a bounded JSON reader)."""
