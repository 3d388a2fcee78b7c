"""The pulka file (formats §7.1) in, the scored pulka (formats §7.2) out.

:func:`read_pulka` checks the top level and returns a :class:`PulkaDocument`; :func:`score_document` plays it;
:func:`result_document` writes the ``preferans-pulka-result`` JSON object. Problems are
:class:`~preferans.pulka.engine.PulkaProblem` values, one per broken rule. Pure Python: no Django import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from preferans.game.seats import SEATS
from preferans.numbers import format_fraction

from .engine import PulkaInvalid, PulkaProblem, PulkaScore, play_pulka
from .setup import Compensation, PulkaSetup, SetupError

__all__ = ["PulkaDocument", "read_pulka", "result_document", "score_document"]

FORMAT = "preferans-pulka"
RESULT_FORMAT = "preferans-pulka-result"
_TOP = (
    "format",
    "version",
    "variant",
    "rules",
    "players",
    "pool",
    "max_deals",
    "stopped",
    "first_dealer",
    "compensation",
    "tiebreaks",
    "olympic",
    "deals",
)
_REQUIRED = ("format", "version", "variant", "players", "pool", "first_dealer", "deals")


@dataclass(frozen=True)
class PulkaDocument:
    setup: PulkaSetup
    names: Mapping[str, str]  # seat → name ("" when not given)
    rows: tuple[Mapping[str, object], ...]
    stopped: bool


def _problem(field: str, message: str, code: str = "field") -> PulkaProblem:
    return PulkaProblem(None, field, code, message)


def _whole(raw: object) -> bool:
    return isinstance(raw, int) and not isinstance(raw, bool)


def _players(raw: object, problems: list[PulkaProblem]) -> dict[str, str] | None:
    if not isinstance(raw, list) or not all(isinstance(p, Mapping) for p in raw):
        problems.append(_problem("players", "a list of {seat, name} objects"))
        return None
    if len(raw) not in (3, 4):
        problems.append(
            _problem(
                "players", f"a pulka has 3 or 4 players, not {len(raw)} (Code 1.2; pulka P-16)", "players"
            )
        )
        return None
    names: dict[str, str] = {}
    for i, player in enumerate(raw):
        extra = set(player) - {"seat", "name"}
        if extra:
            problems.append(_problem(f"players.{i}", f"unknown field {sorted(extra)[0]!r}"))
        name = player.get("name", "")
        if not isinstance(name, str) or len(name) > 200:
            problems.append(_problem(f"players.{i}.name", "a name is text of at most 200 characters"))
            name = ""
        names[str(player.get("seat"))] = name
    expected = set(SEATS[: len(raw)])
    if set(names) != expected:
        problems.append(
            _problem(
                "players", f"{len(raw)} players sit exactly on {', '.join(SEATS[: len(raw)])}", "players"
            )
        )
        return None
    return {s: names[s] for s in SEATS if s in names}


def read_pulka(doc: object) -> PulkaDocument:
    """Check the top level of a pulka document (pulka §11.1); the rows are checked when it is played."""
    problems: list[PulkaProblem] = []
    if not isinstance(doc, Mapping):
        raise PulkaInvalid([_problem("pulka", "the file must hold one JSON object")])
    for key in doc:
        if key not in _TOP:
            problems.append(_problem(str(key), f"unknown field {key!r}"))
    for key in _REQUIRED:
        if key not in doc:
            problems.append(_problem(key, "is required"))
    if doc.get("format", FORMAT) != FORMAT:
        problems.append(_problem("format", f"must be {FORMAT!r}"))
    if "version" in doc and (doc["version"] != 1 or isinstance(doc["version"], bool)):
        problems.append(_problem("version", "must be 1"))
    names = _players(doc.get("players"), problems) if "players" in doc else None
    stopped = doc.get("stopped", False)
    if not isinstance(stopped, bool):
        problems.append(_problem("stopped", "must be true or false"))
    rows = doc.get("deals", [])
    if not isinstance(rows, list):
        problems.append(_problem("deals", "must be a list of deals"))
        rows = []
    compensation = _compensation(doc.get("compensation"), problems)
    tiebreaks = doc.get("tiebreaks", [])
    if not isinstance(tiebreaks, list) or not all(isinstance(t, str) for t in tiebreaks):
        problems.append(_problem("tiebreaks", "a list of names"))
        tiebreaks = []
    advance = _advance(doc.get("olympic"), problems)
    rules = doc.get("rules", {})
    if not isinstance(rules, Mapping):
        problems.append(_problem("rules", "must be an object of rules keys"))
        rules = {}
    if problems or names is None:
        raise PulkaInvalid(problems)
    try:
        setup = PulkaSetup.create(
            variant=doc["variant"],
            players=len(names),
            pool=doc["pool"],
            first_dealer=doc["first_dealer"],
            rules=rules,
            max_deals=doc.get("max_deals"),
            compensation=compensation,
            tiebreaks=tiebreaks,
            advance=advance,
        )
    except SetupError as exc:
        raise PulkaInvalid([PulkaProblem(None, exc.field, exc.code, str(exc).split(": ", 1)[1])]) from exc
    return PulkaDocument(setup, names, tuple(rows), bool(stopped))


def _compensation(raw: object, problems: list[PulkaProblem]) -> Compensation | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or set(raw) != {"x", "y"} or not all(_whole(raw[k]) for k in ("x", "y")):
        problems.append(
            _problem("compensation", '{"x": X, "y": Y}, whole numbers of vists (004-III; pulka P-25)')
        )
        return None
    x, y = raw["x"], raw["y"]
    assert isinstance(x, int) and isinstance(y, int)
    return Compensation(x, y)


def _advance(raw: object, problems: list[PulkaProblem]) -> int | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or set(raw) != {"advance"} or raw["advance"] not in (1, 2):
        problems.append(_problem("olympic", '{"advance": 1} or {"advance": 2} (004-II)'))
        return None
    value = raw["advance"]
    assert isinstance(value, int)
    return value


def score_document(doc: object) -> tuple[PulkaDocument, PulkaScore]:
    document = read_pulka(doc)
    return document, play_pulka(document.setup, document.rows, stopped=document.stopped)


# -- output -------------------------------------------------------------------------------------------------
def _fmt(values: Mapping[str, Fraction], seats: Sequence[str]) -> dict[str, str]:
    return {s: format_fraction(values[s]) for s in seats}


def result_document(document: PulkaDocument, score: PulkaScore) -> dict[str, object]:
    """The ``preferans-pulka-result`` object of formats §7.2, keys in the documented order."""
    setup = score.setup
    seats = setup.seats
    with_column = setup.compensation is not None
    deals: list[dict[str, object]] = []
    for scored in score.deals:
        entry: dict[str, object] = {"deal": scored.number, "dealer": scored.dealer}
        if scored.raspasy_step is not None:
            entry["raspasy_step"] = scored.raspasy_step
        entry["result"] = _fmt(scored.result, seats)
        sheet: dict[str, object] = {}
        for seat in seats:
            columns = scored.sheet[seat]
            player: dict[str, object] = {
                "pool": format_fraction(columns.pool),
                "mountain": format_fraction(columns.mountain),
                "whists": {o: format_fraction(columns.whists[o]) for o in seats if o != seat},
            }
            if with_column:
                player["column"] = format_fraction(columns.column)
            sheet[seat] = player
        entry["sheet"] = sheet
        deals.append(entry)
    rounding = score.rounding
    vists, whole, rating, final = score.vists, score.integer_vists, score.rating, score.sheet
    players: list[dict[str, object]] = []
    for seat in seats:
        player = {
            "seat": seat,
            "name": document.names.get(seat, ""),
            "pool": format_fraction(final.pool[seat]),
            "mountain": format_fraction(score.final_mountain(seat)),
            "vists": format_fraction(vists[seat]),
            "integer_vists": format_fraction(whole[seat]),
            "rating": format_fraction(rating[seat]),
            "rank": score.ranking.rank_text(seat),
        }
        if with_column:
            player["column"] = format_fraction(score.column[seat])
        if setup.tiebreaks:
            player["stats"] = score.ranking.stats[seat].as_dict()
        players.append(player)
    out: dict[str, object] = {
        "format": RESULT_FORMAT,
        "version": 1,
        "deals": deals,
        "ended": score.ended,
        "reason": score.reason,
        "closing": _fmt(score.closing, seats),
        "rounding": None
        if rounding is None
        else {
            "seat": rounding.seat,
            "mountain": str(rounding.mountain),
            "vists_each": str(rounding.vists_each),
        },
        "players": players,
    }
    if score.ranking.advance is not None:
        out["advance"] = {
            "seats": list(score.ranking.advance.seats),
            "tied": list(score.ranking.advance.tied),
        }
    return out
