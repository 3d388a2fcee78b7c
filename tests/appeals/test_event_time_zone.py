"""The event's own time zone (issue 16 item 8: «All times shown to people are in the event's time zone»).

Rules §1 (general provisions) count the appeal and correction deadlines from the end of the session; a player
reads them on the event's clock, which is not always the server's: a federation's site runs events from
Kaliningrad (UTC+2) to Kamchatka (UTC+12). The organisers choose the event's zone in its settings; an empty
choice is the site's ``TIME_ZONE``. Services write deadline texts in it, pages about the event render in it
(``config.middleware.EventTimeZoneMiddleware``) and exported files print in it.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
from django.test import RequestFactory, override_settings
from django.urls import reverse
from django.utils import timezone, translation

from appeals import services as svc
from appeals.models import Appeal
from config.middleware import EventTimeZoneMiddleware
from events.settings import tournament_update
from tournaments.errors import UserError
from tournaments.models import Participant, Table, Tournament

from .conftest import ENDED

pytestmark = pytest.mark.django_db
ZONE = "Asia/Vladivostok"  # UTC+10, far from the site's Moscow (UTC+3) and from UTC
LATE = ENDED + dt.timedelta(minutes=30, seconds=1)  # 18:30:01 UTC = 04:30 next morning in Vladivostok


@override_settings(TIME_ZONE="Europe/Moscow")
def test_rule_1_the_events_zone_wins_over_the_sites(demo, director_user):
    """«не позднее чем через 30 минут по окончании … сессии»: the refusal reads the event's clock, not the site's."""
    t, session = demo
    assert t.time_zone == zoneinfo.ZoneInfo("Europe/Moscow")  # empty: the site's zone
    tournament_update(tournament=t, user=director_user, changes={"zone": ZONE}, now=ENDED)
    t.refresh_from_db()
    session.refresh_from_db()
    appellant = Participant.objects.get(tournament=t, number=1)
    with translation.override("en"):
        late = svc.appeal_file(session=session, appellant=appellant, round=1, board=1, claim="x", now=LATE)
    assert late.status == Appeal.Status.REFUSED
    assert late.refusal.startswith("Filed at 04:30:") and "at 04:30 (§1)" in late.refusal
    assert "21:30" not in late.refusal and "18:30" not in late.refusal  # Moscow's and UTC's clocks


@pytest.mark.parametrize("zone", ["Mars/Olympus", "europe/moscow", "x" * 300, "../../etc/passwd"])
def test_an_unknown_zone_is_refused_and_nothing_changes(demo, director_user, zone):
    t, _session = demo
    with pytest.raises(UserError):
        tournament_update(tournament=t, user=director_user, changes={"zone": zone}, now=ENDED)
    t.refresh_from_db()
    assert t.zone == ""


def test_the_settings_page_sets_the_zone_and_refuses_an_unknown_one(client, demo, director_user):
    t, _session = demo
    client.force_login(director_user)
    url = reverse("director:settings", kwargs={"slug": t.slug})
    page = client.get(url, headers={"accept-language": "ru"})
    html = page.content.decode()
    assert "Часовой пояс" in html and "Екатеринбург (UTC+5)" in html and "Как у сайта: Москва (UTC+3)" in html
    from director.forms import TournamentForm

    data = {k: ("" if v is None else v) for k, v in TournamentForm.initial_of(t).items()}
    bad = client.post(url, {**data, "zone": "Mars/Olympus"})
    assert bad.status_code == 200
    t.refresh_from_db()
    assert t.zone == ""
    good = client.post(url, {**data, "zone": "Asia/Yekaterinburg"})
    assert good.status_code == 302
    t.refresh_from_db()
    assert t.zone == "Asia/Yekaterinburg"
    assert t.time_zone == zoneinfo.ZoneInfo("Asia/Yekaterinburg")


def test_pages_about_the_event_render_in_its_zone(client, demo):
    """The players' appeal page prints «appeals close at HH:MM» on the event's clock."""
    t, _session = demo
    Tournament.objects.filter(pk=t.pk).update(zone=ZONE)
    url = reverse("appeals:player", kwargs={"slug": t.slug})
    client.post(url, {"number": 6, "pin": "1006"})
    html = client.get(url, headers={"accept-language": "en"}).content.decode()
    local = (ENDED + dt.timedelta(minutes=30)).astimezone(zoneinfo.ZoneInfo(ZONE)).strftime("%H:%M")
    assert f"appeals close at {local}" in html  # 04:30
    assert "appeals close at 21:30" not in html  # not Moscow's clock


def test_the_middleware_activates_the_zone_named_by_slug_or_table_code(demo):
    t, _session = demo
    Tournament.objects.filter(pk=t.pk).update(zone=ZONE)
    seen: list[str] = []

    def view(request):
        seen.append(timezone.get_current_timezone_name())
        from django.http import HttpResponse

        return HttpResponse("ok")

    table = Table.objects.filter(session__tournament=t).first()
    assert table is not None
    for kwargs in ({"slug": t.slug}, {"code": table.code}, {}, {"slug": "no-such-event"}, {"code": "nope"}):
        holder: list[EventTimeZoneMiddleware] = []

        def handler(request, kw=kwargs, holder=holder):
            holder[0].process_view(request, view, (), kw)  # as Django's handler does before the view
            return view(request)

        holder.append(EventTimeZoneMiddleware(handler))
        holder[0](RequestFactory().get("/"))
        assert timezone.get_current_timezone_name() == timezone.get_default_timezone_name()  # reset after
    assert seen == [
        ZONE,
        ZONE,
        timezone.get_default_timezone_name(),
        timezone.get_default_timezone_name(),
        timezone.get_default_timezone_name(),
    ]
