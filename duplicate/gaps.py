"""What is still open in a duplicate session's results (``tournaments.gaps`` says what a gap is and how the
director acknowledges it): a board a table should have played and has no row for (missing), a row the opponents
have not confirmed yet (unconfirmed), or a row an opponent disputes (disputed). A table that only duplicates its
boards in a round (§2, ``duplicate.duplication``) has no gap there."""

from __future__ import annotations

from collections import defaultdict

from boards.models import Board
from scoring.models import Result
from tournaments.gaps import DISPUTED, MISSING, UNCONFIRMED, Gap, Gaps
from tournaments.models import Round, Seating, Session, Tournament


def _session_gaps(session: Session, round_numbers: list[int]) -> list[Gap]:
    boards_of: dict[int, list[int]] = defaultdict(list)
    for number, set_number in Board.objects.filter(session=session).values_list("number", "set_number"):
        boards_of[set_number].append(number)
    rows: dict[tuple[int, int, int], dict[int, str]] = defaultdict(dict)
    for rnd, room, table, board, status in Result.objects.filter(
        session=session, round_number__in=round_numbers
    ).values_list("round_number", "room", "table_number", "board_number", "status"):
        rows[(rnd, room, table)][board] = status
    out: list[Gap] = []
    # §2 «сами ее же не играют»: a table that only duplicates its boards in a round owes no row there.
    seatings = Seating.objects.filter(
        session=session, round_number__in=round_numbers, duplicates_only=False
    ).order_by("round_number", "room", "table_number")
    for s in seatings.values_list("round_number", "room", "table_number", "set_number"):
        rnd, room, table, set_number = s
        entered = rows.get((rnd, room, table), {})
        found = {
            MISSING: tuple(b for b in sorted(boards_of.get(set_number, [])) if b not in entered),
            UNCONFIRMED: tuple(sorted(b for b, st in entered.items() if st == Result.Status.ENTERED)),
            DISPUTED: tuple(sorted(b for b, st in entered.items() if st == Result.Status.DISPUTED)),
        }
        out.extend(
            Gap(session.number, rnd, room, table, k, found[k])
            for k in (MISSING, UNCONFIRMED, DISPUTED)
            if found[k]
        )
    return out


def _rooms(sessions: list[Session]) -> bool:
    return Seating.objects.filter(session__in=sessions, room__gt=1).exists()


def round_gaps(rnd: Round) -> Gaps:
    """The gaps of one round (before it ends)."""
    session = rnd.session
    return Gaps(tuple(_session_gaps(session, [rnd.number])), rooms=_rooms([session]))


def publication_gaps(tournament: Tournament) -> Gaps:
    """The gaps in every round that has ended (before publishing): the running round is still being played."""
    sessions = list(tournament.sessions.order_by("number"))
    items: list[Gap] = []
    for session in sessions:
        ended = list(session.rounds.filter(status=Round.Status.ENDED).values_list("number", flat=True))
        if ended:
            items.extend(_session_gaps(session, ended))
    return Gaps(tuple(items), rooms=_rooms(sessions), sessions=len({g.session for g in items}) > 1)
