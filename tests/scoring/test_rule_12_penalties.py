"""Rules §12 (procedural penalties) and §13.2.4: a penalty only ever takes matchpoints away, on every channel.

§12.1 «судья может также штрафовать любого нарушителя, который слишком сильно задерживает игру или мешает ей»
— the director may *fine* an offender who unduly delays or disrupts play; §13.2.4 «налагать дисциплинарные
наказания в очках» — impose disciplinary penalties *in points*. A fine deducts: a "penalty" of +3 would be a
bonus. The one rule is :func:`preferans.duplicate.penalties.check_penalty`; each channel below must refuse a
penalty that is not below zero and store nothing, and must accept a deduction (so the test can fail both ways).
"""

from __future__ import annotations

import copy
import datetime as dt
from fractions import Fraction
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from appeals import services as svc
from appeals.models import CommitteeMember
from events.bundles import BundleInvalid, import_bundle, tournament_to_bundle
from preferans.bundle.document import parse_bundle_collect
from preferans.duplicate.penalties import DEFAULT_DEDUCTION, PenaltyRefusal, check_penalty, parse_penalty
from scoring.models import Penalty
from tournaments.models import Participant, Session, Tournament

pytestmark = pytest.mark.django_db
ENDED = dt.datetime(2026, 3, 14, 18, 0, tzinfo=dt.UTC)
IN_TIME = ENDED + dt.timedelta(minutes=5)


@pytest.fixture
def demo(db):
    call_command("seed_demo", stdout=StringIO())
    t = Tournament.objects.get(slug="demo")
    Session.objects.filter(tournament=t).update(status=Session.Status.FINISHED, ended_at=ENDED)
    return t, t.sessions.get()


# -- the pure rule --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("-2", Fraction(-2)),
        ("-1/2", Fraction(-1, 2)),
        ("\u22123", Fraction(-3)),  # a typographic minus
        (-1, Fraction(-1)),
        ("3", "penalty_sign"),
        ("0", "penalty_sign"),
        ("1/2", "penalty_sign"),
        ("three", "penalty_value"),
        ("", "penalty_value"),
    ],
)
def test_rule_12_a_penalty_is_a_number_below_zero(written, expected):
    """§12.1 «штрафовать» / §13.2.4 «наказания в очках»: a penalty is an exact deduction of matchpoints."""
    if isinstance(expected, Fraction):
        assert parse_penalty(written) == expected
        assert check_penalty(expected) is None
    else:
        with pytest.raises(PenaltyRefusal) as info:
            parse_penalty(written)
        assert info.value.code == expected


def test_rule_12_the_suggested_deduction_is_not_the_books():
    """§12.2 lists the offences without values: the form's suggestion is a positive amount to deduct."""
    assert DEFAULT_DEDUCTION > 0 and check_penalty(-DEFAULT_DEDUCTION) is None


# -- every channel --------------------------------------------------------------------------------------------
def _director_page(t, session, director, value):
    client = _logged_in(director)
    # The page asks how much to deduct: deducting -3 would add 3.
    deduct = str(-Fraction(value))
    url = reverse("director:penalties", kwargs={"slug": t.slug, "session": session.number})
    page = client.post(
        url, {"participant": 3, "deduct": deduct, "kind": "12.2.2"}, headers={"Accept-Language": "ru"}
    )
    if page.status_code == 200:
        text = page.content.decode()
        assert "has-error" in text
        assert "Write how many" not in text  # the refusal is in Russian on a Russian page


def _logged_in(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def _api(t, session, director, value):
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=director)[0].key}")
    body = {"session": session.pk, "participant": 3, "matchpoints": value, "reason": "12.2.2 slow play"}
    response = client.post("/api/penalties/", body, format="json")
    if response.status_code != 201:
        assert response.status_code == 400 and response.json()["error"]["code"] == "penalty_sign"


def _ruling(t, session, director, value):
    try:
        irr = svc.irregularity_record(
            session=session,
            kind="procedural",
            round=1,
            table=1,
            user=director,
            now=IN_TIME,
            facts={"offence": "12.2.3", "penalty_participant": 3, "penalty_matchpoints": value},
        )
    except svc.AppealsError as exc:
        assert exc.code == "penalty_sign"
        return
    svc.irregularity_apply(irregularity=irr, user=director, now=IN_TIME)


def _committee(t, session, director, value):
    members = [
        CommitteeMember.objects.create(
            tournament=t, name=f"Member {n}", participant=Participant.objects.get(tournament=t, number=n)
        )
        for n in (2, 3, 4)
    ]
    appeal = svc.appeal_file(
        session=session,
        appellant=Participant.objects.get(tournament=t, number=1),
        round=1,
        board=1,
        claim="slow play by the opponents",
        now=IN_TIME,
    )
    appeal = svc.appeal_comment(appeal=appeal, comment="no ruling", user=director, now=IN_TIME)
    appeal = svc.appeal_hear(appeal=appeal, members=members, notes="heard", user=director, now=IN_TIME)
    try:
        appeal = svc.appeal_decide(
            appeal=appeal,
            outcome="adjusted",
            decision="A penalty for slow play.",
            user=director,
            now=IN_TIME,
            adjustment={"penalty": {"participant": 3, "matchpoints": value}},
        )
    except svc.AppealsError as exc:
        assert exc.code == "penalty_sign"
        return
    for m in members:
        svc.appeal_sign(appeal=appeal, member=m, user=director, now=IN_TIME)
    svc.appeal_apply(appeal=appeal, user=director, now=IN_TIME)


def _bundle(t, session, director, value):
    data = copy.deepcopy(tournament_to_bundle(t))
    data["sessions"][0]["penalties"] = [{"participant": 3, "matchpoints": value, "reason": "12.2.2"}]
    parsed = parse_bundle_collect(copy.deepcopy(data))
    try:
        import_bundle(now=IN_TIME, data=data, slug="imported")
    except BundleInvalid:
        assert any("penalty" in str(p.loc) and "§12" in p.message for p in parsed.problems)
        return
    assert not parsed.problems


CHANNELS = {
    "director's penalty page": _director_page,
    "API": _api,
    "director's ruling": _ruling,
    "committee decision": _committee,
    "bundle import": _bundle,
}


@pytest.mark.parametrize("channel", CHANNELS)
@pytest.mark.parametrize(("value", "stored"), [("3", False), ("0", False), ("1/2", False), ("-3", True)])
def test_rule_12_penalties_never_add_matchpoints_on_any_channel(demo, channel, value, stored):
    """§12.1 «штрафовать любого нарушителя» (fine an offender): +3 or 0 is refused with nothing stored on
    every channel; −3 is stored (rescored like any penalty)."""
    t, session = demo
    director = t.directors.get()
    Penalty.objects.all().delete()
    CHANNELS[channel](t, session, director, value)
    penalties = list(Penalty.objects.values_list("participant__number", "matchpoints"))
    assert penalties == ([(3, "-3")] if stored else [])


def test_rule_12_the_admin_form_keeps_the_sign_rule(demo):
    """Even the site administrator's form refuses a penalty that adds matchpoints (§12)."""
    t, session = demo
    penalty = Penalty(
        session=session,
        participant=Participant.objects.get(tournament=t, number=3),
        matchpoints="3",
        reason="12.2.2",
    )
    with pytest.raises(ValidationError):
        penalty.full_clean()
    penalty.matchpoints = "-3"
    penalty.full_clean()
