"""The rules a protocol row is checked against before the write path (:func:`scoring.rows.result_save`) stores
it, each reading the event's facts:

* the seats are the table's: given, or the seating's of that round (rules §5);
* the board is one of the session's, and one of the set the table plays in that round (rules §4) — unless the
  director rules on a wrong board (§11.6), which may let a result on another board stand;
* nobody plays a board twice (§11.6) — unless a ruling annuls the player's second result;
* a played row is legal and its vists are the core's (:mod:`preferans.game`); an adjustment is A-/A/A+ per seat
  or vists per seat (§11.2).

Each raises :class:`~tournaments.refusals.ResultRejected` (the player's words, by code) or
:class:`~tournaments.errors.UserError`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from boards.models import Board
from preferans.game import RowInvalid, score_row
from preferans.game.seats import table_seats
from preferans.numbers import NumberFormatError, format_fraction, parse_fraction
from scoring.models import BIDDING_MAX, Result
from scoring.seat_adjustments import annulled_either
from tournaments.errors import Detail, UserError
from tournaments.models import Participant, Seating, Session, Tournament
from tournaments.refusals import Refusal, ResultRejected

ARTIFICIAL_GRADES = ("A-", "A", "A+")
SEATING_RELATIONS = ("seat_n", "seat_e", "seat_s", "seat_w")


def compute_vists(
    *, tournament: Tournament, row: Mapping[str, Any], dealer: str | None
) -> dict[str, Fraction]:
    """The core's vists for a played row (raises ResultRejected with the core's reasons)."""
    try:
        return score_row(row, rules=tournament.rules, players=tournament.players_per_table, dealer=dealer)
    except RowInvalid as exc:
        raise ResultRejected(Refusal(e.code, e.field, e.message, dict(e.params)) for e in exc.errors) from exc


def seating_at(session: Session, *, round: int, table: int, room: int = 1) -> Seating | None:
    """Who sits at the table in that round, and the set it plays (``None``: nobody is seated there)."""
    return (
        Seating.objects.filter(session=session, room=room, round_number=round, table_number=table)
        .select_related(*SEATING_RELATIONS)
        .first()
    )


def check_seats(
    tournament: Tournament, seats: Mapping[str, int], known: Mapping[str, Participant] | None = None
) -> dict[str, Participant]:
    """The participant in each seat of the table, every seat filled once by a participant of the tournament
    (``known``: participants already loaded, which saves the lookup)."""
    wanted = table_seats(tournament.players_per_table)
    refusals: list[Refusal] = []
    extra = sorted(set(seats) - set(wanted))
    if extra:
        refusals.append(
            Refusal("seat_unknown", "seats", f"no seat {', '.join(extra)} at this table", {"seats": extra})
        )
    missing = [s for s in wanted if s not in seats]
    if missing:
        refusals.append(
            Refusal(
                "seat_missing", "seats", f"seat {', '.join(missing)} has no participant", {"seats": missing}
            )
        )
    numbers = [seats[s] for s in wanted if s in seats]
    twice = sorted({n for n in numbers if numbers.count(n) > 1})
    if twice:
        refusals.append(
            Refusal(
                "seat_twice",
                "seats",
                f"participant {', '.join(map(str, twice))} sits in two seats",
                {"numbers": twice},
            )
        )
    given = {p.number: p for p in (known or {}).values() if p.tournament_id == tournament.pk}
    if set(numbers) <= set(given):
        found = given
    else:
        found = {p.number: p for p in Participant.objects.filter(tournament=tournament, number__in=numbers)}
    unknown = sorted(set(numbers) - set(found))
    if unknown:
        refusals.append(
            Refusal(
                "participant_unknown",
                "seats",
                f"no participant number {', '.join(map(str, unknown))}",
                {"numbers": unknown},
            )
        )
    if refusals:
        raise ResultRejected(refusals)
    return {s: found[seats[s]] for s in wanted}


def check_adjustment(
    tournament: Tournament, adjusted: Mapping[str, Any] | None, assigned: Mapping[str, Any] | None
) -> tuple[dict[str, str] | None, dict[str, str] | None]:
    """An artificial result's grades and an assigned result's vists per seat, as stored (§11.2)."""
    seats = table_seats(tournament.players_per_table)
    refusals: list[Refusal] = []
    adj_out = asg_out = None
    if adjusted is not None:
        adj_out = {}
        for seat in seats:
            grade = adjusted.get(seat)
            if grade not in ARTIFICIAL_GRADES:
                refusals.append(
                    Refusal(
                        "adjusted_grade",
                        f"adjusted.{seat}",
                        f"seat {seat} needs an artificial result A-, A or A+",
                        {"seat": seat},
                    )
                )
            else:
                adj_out[seat] = grade
    if assigned is not None:
        asg_out = {}
        for seat in seats:
            try:
                asg_out[seat] = format_fraction(parse_fraction(assigned.get(seat)))
            except NumberFormatError:
                refusals.append(
                    Refusal(
                        "assigned_value",
                        f"assigned.{seat}",
                        f"seat {seat} needs an assigned score in vists",
                        {"seat": seat},
                    )
                )
    if refusals:
        raise ResultRejected(refusals)
    return adj_out, asg_out


def check_not_played_before(
    session: Session,
    *,
    board: int,
    room: int,
    table: int,
    round: int,
    seats: Mapping[str, int],
    participants: Mapping[str, Participant],
    annulled: Sequence[str] = (),
) -> None:
    """Nobody plays a board twice (rules §11.6): the director rules on it instead of a second row, annulling the
    player's second result (``annulled`` here, or on the other row)."""
    numbers = set(seats.values())
    ids = [p.pk for p in participants.values()]
    others = (
        Result.objects.filter(session=session, board_number=board)
        .exclude(room=room, table_number=table, round_number=round)
        .filter(Q(seat_n_id__in=ids) | Q(seat_e_id__in=ids) | Q(seat_s_id__in=ids) | Q(seat_w_id__in=ids))
    )
    earlier = others.order_by()[:1]
    clash = next(iter(earlier), None)  # its seats are read only when there is one
    if clash is not None:
        again = sorted(numbers & set(clash.seats().values()))
        # A director's ruling (§11.6 B) annuls the player's second result on one of the two rows: then both stand.
        if annulled_either(others, seats, annulled):
            return
        raise ResultRejected(
            [
                Refusal(
                    "board_played_twice",
                    "seats",
                    f"participant {', '.join(map(str, again))} already played board {board} "
                    f"({f'room {clash.room}, ' if clash.room != 1 else ''}table {clash.table_number}, "
                    f"round {clash.round_number}): the director rules on it (§11.6)",
                    {
                        "numbers": again,
                        "board": board,
                        "table": clash.table_number,
                        "round": clash.round_number,
                        "room": clash.room,
                    },
                )
            ]
        )


def board_of(
    session: Session, board: int, *, seating: Seating | None, given: Board | None, outside_set: bool
) -> Board | None:
    """The board, checked: one of the session's (when it has boards), and in the set the table plays (§4)."""
    if given is not None and given.number == board and given.session_id == session.pk:
        found: Board | None = given
    else:
        found = Board.objects.filter(session=session, number=board).first()
        if found is None and session.boards.exists():
            message = _("This session has no board %(board)s.") % {"board": board}
            raise UserError(
                message, code="board_unknown", details=[Detail("board", "board_unknown", message)]
            )
    if found is not None and seating is not None and not outside_set and not seating.plays(found):
        message = _(
            "Board %(board)s is not in set %(set)s, which table %(table)s plays in round %(round)s."
        ) % {
            "board": board,
            "set": seating.set_number,
            "table": seating.table_number,
            "round": seating.round_number,
        }
        raise UserError(message, code="board_not_here", details=[Detail("board", "board_not_here", message)])
    return found


def check_plays_boards(seating: Seating | None) -> None:
    """§2 «сами ее же не играют»: a table that only duplicates its boards in a round writes no row there."""
    if seating is not None and seating.duplicates_only:
        raise UserError(
            _(
                "Table %(t)s only duplicates the boards for the other tables in round %(r)s and does not play "
                "them (§2): it has no result to write."
            )
            % {"t": seating.table_number, "r": seating.round_number},
            code="table_duplicates_only",
        )


def check_bidding(tournament: Tournament, bidding: str) -> str:
    """§13.1 «запись торговли»: the bidding of a row, only where the organisers set written bidding; one line of
    at most ``BIDDING_MAX`` printable characters (trimmed)."""
    text = " ".join(str(bidding).split())
    if not text:
        return ""
    if not tournament.bidding_record:
        raise UserError(
            _("The bidding is not recorded at this event: the organisers have not set written bidding."),
            code="bidding_not_recorded",
            details=[Detail("bidding", "bidding_not_recorded", _("Leave the bidding empty."))],
        )
    if len(text) > BIDDING_MAX or not text.isprintable():
        raise UserError(
            ngettext(
                "The bidding is at most %(n)s character of text.",
                "The bidding is at most %(n)s characters of text.",
                BIDDING_MAX,
            )
            % {"n": BIDDING_MAX},
            code="bidding_too_long",
            details=[
                Detail(
                    "bidding",
                    "bidding_too_long",
                    ngettext("At most %(n)s character.", "At most %(n)s characters.", BIDDING_MAX)
                    % {"n": BIDDING_MAX},
                )
            ],
        )
    return text
