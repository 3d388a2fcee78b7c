"""How a tournament totals its sessions and carries over its qualification — the rescore's last step.

The core (:func:`preferans.duplicate.session_scoring.score_bundle`) ranks by matchpoints summed over the
sessions, as the rules' one field does. Here the stored settings are honoured (docs/players/series.md):
``Tournament.session_totals == "percent"`` averages the sessions' percentages
(:func:`preferans.duplicate.standings.average_totals`), and a final with a qualification and a share carried
over (``Tournament.qualification``, ``Tournament.carry_over``) weighs in each finalist's qualification percentage
(:func:`preferans.series.carry_over`). A finalist is matched to his qualification line by the person of the
register when both are linked, else by federation number, else by name (only when exactly one line has it).
"""

from __future__ import annotations

from fractions import Fraction

from preferans.duplicate.session_scoring import ScoredBundle
from preferans.duplicate.standings import StandingRow, Total, add_totals, average_totals, rank_totals
from preferans.series import carry_over, carry_share
from scoring.models import Standing
from tournaments.models import Tournament


def tournament_standings(tournament: Tournament, scored: ScoredBundle) -> tuple[StandingRow, ...]:
    """The standings as the tournament's settings want them (the core's own when nothing is set)."""
    share = _share(tournament)
    averaged = tournament.session_totals == "percent"
    if not averaged and not share:
        return scored.standings
    names = {row.participant: row.name for row in scored.standings}
    sessions = [{number: Total() for number in names}, *(s.totals for s in scored.sessions)]
    totals = average_totals(sessions) if averaged else add_totals(sessions)
    if share:
        totals = carry_over(totals, qualification_percents(tournament), share)
    return rank_totals(totals, names)


def _share(tournament: Tournament) -> Fraction:
    if not tournament.qualification_id or tournament.qualification_id == tournament.pk:
        return Fraction(0)
    try:
        return carry_share(tournament.carry_over or "0")
    except (ValueError, ZeroDivisionError):  # the settings form checks it; a stored oddity carries nothing
        return Fraction(0)


def qualification_percents(final: Tournament) -> dict[int, Fraction]:
    """Each finalist's percentage in the qualification's stored standings (as published, exact decimal), by the
    finalist's number; finalists not found there are left out."""
    if final.qualification_id is None:
        return {}
    lines = list(
        Standing.objects.filter(tournament_id=final.qualification_id).values_list(
            "percent", "participant__person_id", "participant__federation_id", "participant__name"
        )
    )
    by_person = {person: Fraction(p) for p, person, _, _ in lines if person is not None}
    by_federation = {fed.strip(): Fraction(p) for p, _, fed, _ in lines if fed.strip()}
    names: dict[str, list[Fraction]] = {}
    for p, _, _, name in lines:
        if name.strip():
            names.setdefault(name.strip().casefold(), []).append(Fraction(p))
    out: dict[int, Fraction] = {}
    for number, person, federation, name in final.participants.values_list(
        "number", "person_id", "federation_id", "name"
    ):
        if person is not None and person in by_person:
            out[number] = by_person[person]
        elif federation.strip() and federation.strip() in by_federation:
            out[number] = by_federation[federation.strip()]
        elif len(names.get(name.strip().casefold(), [])) == 1:
            out[number] = names[name.strip().casefold()][0]
    return out


def carried(final: Tournament) -> dict[int, Fraction]:
    """The carried column of a final: ``c · Q`` per finalist number (empty when nothing is carried)."""
    share = _share(final)
    if not share:
        return {}
    return {number: share * q for number, q in qualification_percents(final).items()}
