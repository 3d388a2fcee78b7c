"""The tournament bundle, format v1 (docs/formats.md §2): :mod:`.document` (parse, write), :mod:`.rows`
(boards, results, penalties of a session) and :mod:`.shape` (problems, field checks, the movement's shape)."""
