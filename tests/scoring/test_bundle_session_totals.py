"""Bundles carry how an event totals its sessions (issue 20; docs/formats.md, «Totals over sessions and
carry-over»): the optional ``session_totals``, ``qualification`` and ``carry_over`` of ``tournament`` are written
only when not default, read back by ``import_bundle``, and ``score_bundle`` averages the sessions' percentages
when ``session_totals`` is ``"percent"``. A bundle without them scores and reads exactly as before.
"""

from __future__ import annotations

import copy
import io
import json
from fractions import Fraction
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import timezone

from events.bundles import import_bundle, tournament_to_bundle
from preferans.bundle.document import BundleInvalid, bundle_to_dict, parse_bundle
from preferans.duplicate.session_scoring import score_document, validate_and_score
from preferans.numbers import format_percent
from scoring.models import Standing
from scoring.rescore import rescore_tournament
from tournaments.models import Tournament

SMALL = Path(__file__).resolve().parents[1] / "data" / "small_bundle.json"


def two_sessions() -> dict:
    """small_bundle with a second, shorter session (its first five rows): the sessions weigh differently."""
    data = json.loads(SMALL.read_text(encoding="utf-8"))
    second = copy.deepcopy(data["sessions"][0])
    second["number"] = 2
    second["results"] = second["results"][:5]
    second.pop("movement", None)
    data["sessions"].append(second)
    return data


def averaged(data: dict) -> dict[int, str]:
    """The mean of each participant's session percentages (the sessions he played), as published."""
    _, scored = validate_and_score(
        {**data, "tournament": {**data["tournament"], "session_totals": "matchpoints"}}
    )
    out = {}
    for row in scored.standings:
        played = [
            s.totals[row.participant].percent
            for s in scored.sessions
            if row.participant in s.totals and s.totals[row.participant].max > 0
        ]
        out[row.participant] = format_percent(sum(played, Fraction(0)) / len(played)) if played else "0.00"
    return out


def percents(tournament) -> dict[int, str]:
    return dict(Standing.objects.filter(tournament=tournament).values_list("participant__number", "percent"))


# -- the pure core: score_bundle ---------------------------------------------------------------------------
def test_score_bundle_averages_the_sessions_when_the_bundle_says_percent():
    data = two_sessions()
    summed = {r["participant"]: r["percent"] for r in score_document(data)["standings"]}
    data["tournament"]["session_totals"] = "percent"
    out = score_document(data)["standings"]
    got = {r["participant"]: r["percent"] for r in out}
    assert got == averaged(data)
    assert got != summed  # the sessions weigh differently: the field changes the table
    order = [r["participant"] for r in out]  # the standings are listed in rank order
    assert order == sorted(got, key=lambda n: (-Fraction(got[n]), n))  # ranked on the averages
    assert out[0]["rank"] == "1"


def test_an_old_bundle_without_the_fields_scores_and_writes_as_before():
    data = json.loads(SMALL.read_text(encoding="utf-8"))
    bundle = parse_bundle(data)
    assert bundle.tournament.session_totals == "matchpoints" and bundle.tournament.qualification is None
    assert bundle.tournament.carry_over == 0
    written = bundle_to_dict(bundle)["tournament"]
    assert not {"session_totals", "qualification", "carry_over"} & set(written)
    for row in score_document(data)["standings"]:  # the rules' one field: summed matchpoints / summed maxima
        assert row["percent"] == format_percent(100 * Fraction(row["matchpoints"]) / Fraction(row["max"]))
    assert parse_bundle(bundle_to_dict(bundle)) == bundle


def test_the_optional_fields_round_trip_through_the_document():
    data = json.loads(SMALL.read_text(encoding="utf-8"))
    data["tournament"] |= {"session_totals": "percent", "qualification": "club-qual", "carry_over": "2/4"}
    bundle = parse_bundle(data)
    assert (bundle.tournament.session_totals, bundle.tournament.qualification) == ("percent", "club-qual")
    assert bundle.tournament.carry_over == Fraction(1, 2)
    written = bundle_to_dict(bundle)["tournament"]
    assert (written["session_totals"], written["qualification"], written["carry_over"]) == (
        "percent",
        "club-qual",
        "1/2",
    )
    assert parse_bundle(bundle_to_dict(bundle)) == bundle


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("session_totals", "mean", "session_totals must be 'matchpoints' or 'percent'"),
        ("carry_over", "3/2", "carry_over must be an exact fraction from 0 to 1"),
        ("carry_over", 0.5, "carry_over must be an exact fraction from 0 to 1"),
        ("qualification", 7, "qualification must be the qualification event's short name"),
    ],
)
def test_bad_values_are_refused_in_words(field, value, words):
    data = json.loads(SMALL.read_text(encoding="utf-8"))
    data["tournament"][field] = value
    with pytest.raises(BundleInvalid) as caught:
        parse_bundle(data)
    assert any(words in str(p) for p in caught.value.problems), caught.value.problems


# -- the database: export_bundle → import_bundle → rescore -----------------------------------------------
@pytest.mark.django_db
def test_a_percent_event_keeps_its_standings_through_export_import_and_rescore(director):
    data = two_sessions()
    data["tournament"]["session_totals"] = "percent"
    event = import_bundle(data=data, now=timezone.now(), user=director, slug="avg")
    assert event.session_totals == "percent"
    assert percents(event) == averaged(data)  # the import's own scoring honours it

    out = io.StringIO()
    call_command("export_bundle", "avg", stdout=out)
    exported = json.loads(out.getvalue())
    assert exported["tournament"]["session_totals"] == "percent"
    copy_ = import_bundle(data=exported, now=timezone.now(), slug="avg-copy")
    rescore_tournament(tournament_id=copy_.pk)
    copy_.refresh_from_db()
    assert copy_.session_totals == "percent"
    assert percents(copy_) == percents(event)


@pytest.mark.django_db
def test_a_default_event_exports_no_optional_field(director):
    event = import_bundle(data=two_sessions(), now=timezone.now(), user=director, slug="sum")
    written = tournament_to_bundle(event)["tournament"]
    assert not {"session_totals", "qualification", "carry_over"} & set(written)


@pytest.mark.django_db
def test_a_final_carries_its_qualification_and_share_through_the_bundle(director):
    qualification = import_bundle(
        data=json.loads(SMALL.read_text(encoding="utf-8")), now=timezone.now(), user=director, slug="qual"
    )
    final_data = two_sessions()
    final_data["tournament"] |= {"qualification": "qual", "carry_over": "1/2"}
    final = import_bundle(data=final_data, now=timezone.now(), user=director, slug="final")
    assert final.qualification == qualification and Fraction(final.carry_over) == Fraction(1, 2)
    q = {n: Fraction(p) for n, p in percents(qualification).items()}
    _, scored = validate_and_score(two_sessions())
    own = {s.participant: s.percent for s in scored.standings}
    # (c·Q + F)/(1 + c), docs/players/series.md; the same names match each finalist to his line.
    assert percents(final) == {n: format_percent((q[n] / 2 + own[n]) / Fraction(3, 2)) for n in own}

    written = tournament_to_bundle(final)["tournament"]
    assert (written["qualification"], written["carry_over"]) == ("qual", "1/2")


@pytest.mark.django_db
def test_a_missing_qualification_is_refused_in_words_and_nothing_is_saved(director):
    data = two_sessions()
    data["tournament"] |= {"qualification": "no-such-event", "carry_over": "1/2"}
    with pytest.raises(BundleInvalid) as caught:
        import_bundle(data=data, now=timezone.now(), user=director, slug="orphan")
    assert "there is no event with the short name 'no-such-event'" in str(caught.value)
    assert not Tournament.objects.filter(slug="orphan").exists()
