"""Tournament bundles (formats.md §2) in and out of the database.

The bundle is the one interchange form of a tournament: import, export, backups and rescoring all go
through it, so that what the database holds is always scored by exactly the code that scores a file.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction

from boards.models import Board
from players.services.register import link_event
from preferans.bundle.document import FORMAT_NAME, FORMAT_VERSION, BundleInvalid, bundle_to_dict
from preferans.bundle.rows import DEAL_FIELDS
from preferans.bundle.shape import Loc, Problem
from preferans.duplicate.session_scoring import score_bundle, validate_and_score
from preferans.numbers import format_fraction
from preferans.series import carry_share
from pulkas.models import PulkaEvent
from pulkas.services import bundle as pulka_bundle
from pulkas.services.bundle_check import check_part
from scoring.models import Penalty, Result
from scoring.rescore import store_scores
from scoring.selectors import scoring_bundle
from tournaments.audit import log_action
from tournaments.models import Participant, Seating, Session, Tournament, default_artificial
from tournaments.participant_fields import clean_text, rating_text
from tournaments.services.event import unique_slug


def tournament_to_bundle(tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as a bundle (JSON-able dict), results in order of entry."""
    scoring: dict[str, Any] = {"unequal_results": tournament.unequal_results}
    if tournament.artificial:
        scoring["artificial"] = dict(tournament.artificial)
    participants = []
    for p in tournament.participants.all():
        item: dict[str, Any] = {"number": p.number}
        for key in ("name", "club", "federation_id"):
            if getattr(p, key):
                item[key] = getattr(p, key)
        if p.declared_rating is not None:  # exact: an integer or a decimal string, never a float
            rating = rating_text(p.declared_rating)
            item["rating"] = int(rating) if rating.isdigit() else rating
        participants.append(item)
    sessions = []
    for session in tournament.sessions.all():
        sessions.append(session_to_bundle(session))
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "tournament": {
            "name": tournament.name,
            "variant": tournament.variant,
            "rules": dict(tournament.rule_overrides or {}),
            "players_per_table": tournament.players_per_table,
            "deals_per_set": tournament.deals_per_set,
            "scoring": scoring,
            **_totals_to_bundle(tournament),
        },
        "participants": participants,
        "sessions": sessions,
    }


def _totals_to_bundle(tournament: Tournament) -> dict[str, Any]:
    """The optional totals fields (docs/formats.md, this project's additions), written only when not default."""
    out: dict[str, Any] = {}
    if tournament.session_totals == "percent":
        out["session_totals"] = "percent"
    if tournament.qualification_id is not None and tournament.qualification_id != tournament.pk:
        out["qualification"] = tournament.qualification.slug
        share = carry_share(tournament.carry_over or "0")  # the settings form checked it
        if share:
            out["carry_over"] = format_fraction(share)
    if tournament.bidding_record:
        out["bidding_record"] = True  # rules §13.1, optional (docs/formats.md)
    return out


def session_to_bundle(session: Session) -> dict[str, Any]:
    out: dict[str, Any] = {"number": session.number}
    if session.movement:
        out["movement"] = session.movement
    boards = []
    for board in session.boards.all():
        item: dict[str, Any] = {"number": board.number, "set": board.set_number, "dealer": board.dealer}
        if board.hands:
            item["hands"] = board.hands
            item["prikup"] = board.prikup
        boards.append(item)
    if boards:
        out["boards"] = boards
    out["results"] = _result_rows(session)
    penalties = [
        {"participant": p.participant.number, "matchpoints": p.matchpoints, "reason": p.reason}
        for p in session.penalties.select_related("participant")
    ]
    if penalties:
        out["penalties"] = penalties
    return out


_ROW_COLUMNS = (
    "board_number",
    "round_number",
    "table_number",
    "room",
    "seat_n__number",
    "seat_e__number",
    "seat_s__number",
    "seat_w__number",
    "dealer",
    "row",
    "adjusted",
    "assigned",
    "version",
    "annulled",
    "percent",
    "bidding",
)


def _result_rows(session: Session) -> list[dict[str, Any]]:
    """Every row of a session in bundle form, read as plain values (no model instances: rescoring is hot)."""
    rows = []
    for (
        board,
        rnd,
        table,
        room,
        n,
        e,
        s,
        w,
        dealer,
        facts,
        adjusted,
        assigned,
        version,
        annulled,
        percent,
        bidding,
    ) in session.results.order_by("position", "id").values_list(*_ROW_COLUMNS):
        seats = {"N": n, "E": e, "S": s} if w is None else {"N": n, "E": e, "S": s, "W": w}
        row: dict[str, Any] = {"board": board, "round": rnd, "table": table}
        if room != 1:
            row["room"] = room  # formats.md §2.1: written only when it is not the default room 1
        row["seats"] = seats
        if dealer:
            row["dealer"] = dealer
        if adjusted:
            row["adjusted"] = adjusted
        elif assigned:
            row["assigned"] = assigned
        else:
            row.update({k: v for k, v in (facts or {}).items() if k in DEAL_FIELDS})
        if version and version != "A":
            row["version"] = version
        row.update(_seat_adjustments(annulled, percent))
        if bidding:
            row["bidding"] = bidding  # rules §13.1, optional (docs/formats.md §2.1)
        rows.append(row)
    return rows


def result_to_row(result: Result) -> dict[str, Any]:
    row: dict[str, Any] = {
        "board": result.board_number,
        "round": result.round_number,
        "table": result.table_number,
    }
    if result.room != 1:
        row["room"] = result.room
    row["seats"] = result.seats()
    if result.dealer:
        row["dealer"] = result.dealer
    if result.adjusted:
        row["adjusted"] = result.adjusted
    elif result.assigned:
        row["assigned"] = result.assigned
    else:
        row.update({k: v for k, v in (result.row or {}).items() if k in DEAL_FIELDS})
    if result.version and result.version != "A":
        row["version"] = result.version
    row.update(_seat_adjustments(result.annulled, result.percent))
    if result.bidding:
        row["bidding"] = result.bidding
    return row


def _seat_adjustments(annulled: Any, percent: Any) -> dict[str, Any]:
    """A row's optional per-seat adjustments (formats.md §2.1: ``annulled``, ``percent``), when it has them."""
    out: dict[str, Any] = {}
    if annulled:
        out["annulled"] = list(annulled)
    if percent:
        out["percent"] = dict(percent)
    return out


@transaction.atomic
def _import_tournament(
    *,
    now: dt.datetime,
    data: object,
    user: Any = None,
    slug: str | None = None,
    starts_on: dt.date | None = None,
    trusted_links: bool = False,
) -> Tournament:
    """Create a tournament from a bundle. Raises BundleInvalid (nothing saved) for bad input.

    Every played row is checked by the core before anything is written; the stored vists and matchpoints
    are the core's, computed from what was stored (the rescore's own path: import, rescore == scoring the file).
    """
    # Format problems and illegal rows are reported together, in one run.
    bundle, _scored = validate_and_score(data)
    normal = bundle_to_dict(bundle)
    t = normal["tournament"]
    scoring = t.get("scoring", {})
    qualification = None
    if t.get("qualification"):
        qualification = Tournament.objects.filter(slug=t["qualification"]).first()
        if qualification is None:
            raise BundleInvalid(
                [
                    Problem(
                        f"qualification: there is no event with the short name {t['qualification']!r} here — "
                        "import the qualification first, or remove the field",
                        Loc(where="tournament"),
                    )
                ]
            )
    name = clean_text(t["name"])  # as the web forms clean what is typed (format characters out)
    tournament = Tournament.objects.create(
        name=name,
        slug=slug or unique_slug(name),
        variant=t["variant"],
        rule_overrides=t.get("rules", {}),
        players_per_table=t["players_per_table"],
        deals_per_set=t.get("deals_per_set", t["players_per_table"]),
        unequal_results=scoring.get("unequal_results", "neuberg"),
        artificial=scoring.get("artificial") or default_artificial(),
        starts_on=starts_on,
        session_totals=t.get("session_totals", "matchpoints"),
        qualification=qualification,
        carry_over=t.get("carry_over", "0") if qualification is not None else "0",
        bidding_record=t.get("bidding_record", False) is True,
    )
    if user is not None and getattr(user, "is_authenticated", False):
        tournament.directors.add(user)
    by_number = {}
    for p in normal["participants"]:
        by_number[p["number"]] = Participant.objects.create(
            tournament=tournament,
            number=p["number"],
            name=clean_text(p.get("name") or ""),
            club=clean_text(p.get("club") or ""),
            federation_id=clean_text(str(p.get("federation_id") or "")),
            declared_rating=None if p.get("rating") is None else Decimal(str(p["rating"])),
        )
    for s in normal["sessions"]:
        session = Session.objects.create(
            tournament=tournament, number=s["number"], movement=s.get("movement")
        )
        Board.objects.bulk_create(
            Board(
                session=session,
                number=b["number"],
                set_number=b.get("set", 1),
                dealer=b["dealer"],
                hands=b.get("hands") or {},
                prikup=b.get("prikup") or [],
            )
            for b in _boards_of(s, deals_per_set=tournament.deals_per_set)
        )
        Result.objects.bulk_create(
            _row_to_result(session, position, row, by_number)
            for position, row in enumerate(s.get("results", []))
        )
        Penalty.objects.bulk_create(
            Penalty(
                session=session,
                participant=by_number[p["participant"]],
                matchpoints=str(p["matchpoints"]),
                reason=p.get("reason", ""),
            )
            for p in s.get("penalties", [])
        )
    for session in tournament.sessions.all():
        if session.movement:
            _seat(session, now=now)
            _check_sets(session)
    store_scores(tournament, score_bundle(scoring_bundle(tournament)), now=now)
    # The register: participants linked by federation number (a person it holds only proposed, unless trusted).
    link_event(tournament, now=now, user=user, trusted=trusted_links)
    log_action(
        tournament=tournament,
        action="tournament.import",
        user=user,
        actor="" if user else "import_bundle",
        obj=tournament,
        data={"sessions": len(normal["sessions"]), "participants": len(normal["participants"])},
        at=now,
    )
    return tournament


def _boards_of(session: dict[str, Any], *, deals_per_set: int) -> list[dict[str, Any]]:
    """The listed boards, plus a board (number, set, dealer) for every board a row names but the list lacks."""
    boards = {b["number"]: b for b in session.get("boards", [])}
    for row in session.get("results", []):
        if row["board"] not in boards and row.get("dealer"):
            number = row["board"]
            boards[number] = {
                "number": number,
                "set": (number - 1) // deals_per_set + 1,
                "dealer": row["dealer"],
            }
    return [boards[n] for n in sorted(boards)]


def _seat(session: Session, *, now: dt.datetime) -> None:
    """Rounds, seatings and table codes from the session's movement, so the event can be run from here."""
    from duplicate.seating import SeatingError, apply_movement, movement_for

    spec = session.movement
    try:
        apply_movement(
            session=session, movement=movement_for(session, spec), spec=spec, keep_results=True, now=now
        )
    except SeatingError as exc:
        raise BundleInvalid([Problem(str(exc), Loc(session=session.number, where="movement"))]) from exc


def _check_sets(session: Session) -> None:
    """Every result is of a board of the session at a table the movement seats (rules §4): a row for board 999
    at a table playing boards 1-4 refuses the bundle (nothing saved). A board of another set of the session stays:
    a wrong board played, let stand by a ruling (§11.6, ``board_outside_set``), travels in the bundle too."""
    sets = {
        (s.room, s.round_number, s.table_number): s.set_number
        for s in Seating.objects.filter(session=session)
    }
    boards = dict(session.boards.values_list("number", "set_number"))
    played_sets = set(sets.values())
    problems = []
    for room, rnd, table, board in Result.objects.filter(session=session).values_list(
        "room", "round_number", "table_number", "board_number"
    ):
        played = sets.get((room, rnd, table))
        if played is not None and boards.get(board) not in played_sets:
            where = Loc(
                session=session.number, board=board, table=table, round=rnd, room=room if room != 1 else None
            )
            problems.append(
                Problem(
                    f"board {board} is in no set of this session's movement (this table plays set {played} in this "
                    "round)",
                    where,
                )
            )
    if problems:
        raise BundleInvalid(problems)


def _row_to_result(
    session: Session, position: int, row: dict[str, Any], by_number: dict[int, Participant]
) -> Result:
    seats = row["seats"]
    return Result(
        session=session,
        position=position,
        board_number=row["board"],
        round_number=row["round"],
        table_number=row["table"],
        room=row.get("room", 1),
        seat_n=by_number[seats["N"]],
        seat_e=by_number[seats["E"]],
        seat_s=by_number[seats["S"]],
        seat_w=by_number[seats["W"]] if "W" in seats else None,
        dealer=row.get("dealer", ""),
        row={k: row[k] for k in DEAL_FIELDS if k in row},
        version=row.get("version", "A"),
        adjusted=row.get("adjusted"),
        assigned=row.get("assigned"),
        annulled=list(row.get("annulled") or ()),
        percent=dict(row["percent"]) if row.get("percent") else None,
        bidding=row.get("bidding", ""),
    )


__all__ = ["BundleInvalid", "import_bundle", "tournament_to_bundle", "session_to_bundle", "result_to_row"]


# -- both forms: a pulka event's bundle carries its part ----------------------------------------------------
def export_bundle(tournament: Tournament) -> dict[str, Any]:
    """The tournament's bundle; with its pulka part when it is played in pulkas (else exactly formats.md §2)."""
    data = tournament_to_bundle(tournament)
    event = PulkaEvent.objects.filter(tournament=tournament).first()
    if event is not None:
        data[pulka_bundle.PART] = pulka_bundle.pulka_part(event)
    return data


def import_bundle(
    *,
    now: dt.datetime,
    data: object,
    user: Any = None,
    slug: str | None = None,
    starts_on: dt.date | None = None,
    trusted_links: bool = False,
) -> Tournament:
    """Create a tournament from a bundle, with its pulka event when the bundle has the part. Raises
    :class:`BundleInvalid` listing every problem found; then nothing is saved. ``trusted_links``: the site's
    operator (restoring backups, seeding the demo, ``import_bundle --link-existing``) links participants to the
    persons the register holds at once; otherwise those links are only proposed (docs/players/register.md)."""
    if not isinstance(data, Mapping) or pulka_bundle.PART not in data:
        return _import_tournament(
            now=now, data=data, user=user, slug=slug, starts_on=starts_on, trusted_links=trusted_links
        )
    part = data[pulka_bundle.PART]
    rest = {k: v for k, v in data.items() if k != pulka_bundle.PART}
    participants = rest.get("participants")
    numbers = (
        {p.get("number") for p in participants if isinstance(p, Mapping)}
        if isinstance(participants, list)
        else set()
    )
    problems = check_part(part, {n for n in numbers if isinstance(n, int) and not isinstance(n, bool)})
    if rest.get("sessions"):
        problems.append(Problem("an event played in pulkas has no duplicate sessions", Loc(where="sessions")))
    try:
        with transaction.atomic():
            try:
                tournament = _import_tournament(
                    now=now, data=rest, user=user, slug=slug, starts_on=starts_on, trusted_links=trusted_links
                )
            except BundleInvalid as exc:
                raise BundleInvalid([*exc.problems, *problems]) from exc
            if problems:
                raise BundleInvalid(problems)
            assert isinstance(part, Mapping)
            pulka_bundle.restore_part(tournament, part, now=now, user=user)
    except IntegrityError as exc:  # pragma: no cover - every bound the database has is checked above
        raise BundleInvalid(
            [Problem(f"the database refused the pulka event: {exc}", Loc(where=pulka_bundle.PART))]
        ) from exc
    return tournament
