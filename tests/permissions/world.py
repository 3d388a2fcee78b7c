"""The visitors of the permission matrix, who may do what, and the data they visit.

``build`` makes the data: the demo tournament (``seed_demo``: 20 participants, three rounds played, round 4
running, published provisionally) with two appeals (one filed, one decided), a ruling, a correction, a
committee member, a generated file and a second tournament with its own director. ``tear_down`` removes it
again; the fixtures of ``conftest.py`` do both once a test module.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable
from io import StringIO
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session as WebSession
from django.core.cache import cache
from django.core.files.base import ContentFile
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from appeals import services as appeals_services
from appeals.models import CommitteeMember
from appeals.views import PLAYER_KEY
from boards.models import Board
from players.models import Person, Series, SeriesEvent
from pulkas.models import PulkaTable
from results.models import ExportJob
from scoring.models import Penalty, Result
from tournaments.models import Participant, Sanction, Seating, Strike, Table, Tournament
from tournaments.services.event import tournament_create

# -- roles ------------------------------------------------------------------------------------------------
ANONYMOUS, USER, STAFF, OTHER_DIRECTOR = "anonymous", "user", "staff", "other_director"
COMMITTEE, PLAYER, DIRECTOR, SUPERUSER = "committee", "player", "director", "superuser"
ROLES = (ANONYMOUS, USER, STAFF, OTHER_DIRECTOR, COMMITTEE, PLAYER, DIRECTOR, SUPERUSER)
"""anonymous; a logged-in user with no rights; ``is_staff`` without permissions; the director of another
tournament; an appeals committee member of this tournament (a login linked to a ``CommitteeMember``); a player
identified on the appeals page with number and PIN (no login); this tournament's director; a superuser."""
LOGGED_IN = {USER, STAFF, OTHER_DIRECTOR, COMMITTEE, DIRECTOR, SUPERUSER}
DIRECTORS = (DIRECTOR, SUPERUSER)  # who may do everything in this tournament

# -- access classes: who is allowed ---------------------------------------------------------------------
PUBLIC = "public"  # anyone
RESULTS = "results"  # anyone once the results are published (visibility.can_see_results)
HIDDEN_BOARD = "hidden_board"  # a board of a session still in play: directors only (the public gets 404)
IN_PLAY = "in_play"  # what a round in play would show (a running round's sheet, a total while it runs):
# directors only until it ends (visibility; the table's own players on their device, not a role here)
TABLE = "table"  # anyone with the table code; writes need a PIN (test_table_writes_need_the_pin)
PLAYER_LOGIN = "player_login"  # the appeals page's number + PIN form: anyone (it logs players in)
PLAYER_ONLY = "player_only"  # a player identified with number + PIN, for his own appeals
LOGIN = "login"  # any logged-in user
DIRECTOR_ONLY = "director"  # this tournament's directors (tournaments.permissions.can_direct), superusers
COMMITTEE_OR_DIRECTOR = "committee"  # the directors and the appeals committee members of this tournament
ADMIN_SITE = "admin_site"  # Django admin pages every staff user may open
ADMIN = "admin"  # Django admin model pages: superusers (staff need model permissions, which nobody has here)
NOBODY = "nobody"  # catch-all "not found" views and admin pages the project switched off
REGISTER = "register"  # the register of persons: staff and directors of any event may look (players.services.register)
REGISTER_EDIT = "register_edit"  # changing the register: staff (or the players.change_person permission)
SERIES_NEW = "series_new"  # making a series: directors of any event (players.services.series), superusers
# The REST API (api/…) is left to its own matrix, tests/api/test_permissions.py.

ALLOWED: dict[str, set[str]] = {
    PUBLIC: set(ROLES),
    RESULTS: set(ROLES),
    HIDDEN_BOARD: set(DIRECTORS),
    IN_PLAY: set(DIRECTORS),
    TABLE: set(ROLES),
    PLAYER_LOGIN: set(ROLES),
    PLAYER_ONLY: {PLAYER},
    LOGIN: LOGGED_IN,
    DIRECTOR_ONLY: set(DIRECTORS),
    COMMITTEE_OR_DIRECTOR: {COMMITTEE, *DIRECTORS},
    ADMIN_SITE: {STAFF, SUPERUSER},
    ADMIN: {SUPERUSER},
    REGISTER: {STAFF, OTHER_DIRECTOR, DIRECTOR, SUPERUSER},
    REGISTER_EDIT: {STAFF, SUPERUSER},
    SERIES_NEW: {DIRECTOR, OTHER_DIRECTOR, SUPERUSER},
    NOBODY: set(),
}


@dataclasses.dataclass(frozen=True)
class World:
    slug: str
    tournament: int
    users: dict[str, Any]
    appellant: int  # Participant pk of the appeal's appellant (the "player" role)
    appeal: int  # Appeal.number, filed by the appellant
    decided: int  # Appeal.number of another appeal, heard by the committee member and decided: to be signed
    ruling: int  # Irregularity pk
    correction: int  # Correction pk
    penalty: int  # Penalty pk
    sanction: int  # Sanction pk (a suspension, §13.2.4)
    member: int  # CommitteeMember pk (linked to the committee role's login)
    export: int  # ExportJob pk, done, with a file
    code: str  # table 1's code
    round_board: int  # a board played at table 1 in round 1
    table_board: int  # a board table 1 plays in the running round 4
    admin_objects: dict[str, str]  # "app.model" → the pk of one of its objects
    pulka_slug: str  # the demo compensation event (seed_pulka_demo): round 1 played, round 2 running
    pulka_code: str  # table 1 of its running round 2
    olympic_slug: str  # the demo Olympic event (its bracket)
    person: int  # a person of the register, linked to the appellant
    series_slug: str  # a series holding the demo event
    content_type: int  # the Tournament content type (for admin:view_on_site)


# -- the data ----------------------------------------------------------------------------------------------
APP_LABELS = {
    "tournaments",
    "scoring",
    "appeals",
    "boards",
    "results",
    "pulkas",
    "players",
    "auth",
    "authtoken",
    "admin",
}


def _models() -> list[Any]:
    return [m for m in apps.get_models(include_auto_created=True) if m._meta.app_label in APP_LABELS]


def snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every model of the project (and of users, tokens, admin log): what a refused POST must keep.

    Users' ``last_login`` is left out: logging the test client in sets it; so are the counts of failed tries
    (``tournaments.Strike``): a refused PIN or login is meant to be counted."""
    out = {}
    for m in _models():
        if m._meta.label == "tournaments.Strike":
            continue
        fields = [f.attname for f in m._meta.concrete_fields if f.attname != "last_login"]
        out[m._meta.label] = list(m._default_manager.order_by("pk").values_list(*fields))
    return out


def build(admin_models: Iterable[str]) -> World:
    """The data of the module docstring; ``admin_models`` ("app.model") get one object each in the World."""
    call_command("seed_demo", stdout=StringIO())
    call_command("seed_pulka_demo", stdout=StringIO())
    t = Tournament.objects.get(slug="demo")
    session = t.sessions.get(number=1)
    User = get_user_model()
    superuser = User.objects.get(username="demo")
    director = User.objects.create_user("own-director", password="x")
    t.directors.add(director)
    pulka = Tournament.objects.get(slug="demo-compensation")
    pulka.directors.add(director)
    Tournament.objects.get(slug="demo-olympic").directors.add(director)
    pulka_table = PulkaTable.objects.get(round__tournament=pulka, round__number=2, number=1)
    users = {
        SUPERUSER: superuser,
        DIRECTOR: director,
        USER: User.objects.create_user("nobody", password="x"),
        STAFF: User.objects.create_user("staff", password="x", is_staff=True),
        OTHER_DIRECTOR: User.objects.create_user("other-director", password="x"),
        COMMITTEE: User.objects.create_user("committee", password="x"),
    }
    other = tournament_create(name="Other cup", user=users[OTHER_DIRECTOR], slug="other", now=timezone.now())
    appeals_services.settings_for(other)  # made on the first visit to its appeals pages
    member = CommitteeMember.objects.create(tournament=t, name="Member", user=users[COMMITTEE])
    now = timezone.now()
    first = Result.objects.filter(session=session, round_number=1, table_number=1).order_by("board_number")[0]
    appellant = first.seat_n
    # Both appellants warned the director before the next deal (rules §1: the notice is required).
    started = appeals_services.next_deal_started_at(
        session=session, board=first.board_number, round=1, table=1
    )
    for player in (first.seat_n, first.seat_e):
        appeals_services.appeal_notice(
            session=session,
            appellant=player,
            round=1,
            board=first.board_number,
            user=director,
            now=(started or now) - dt.timedelta(seconds=1),
        )
    appeal = appeals_services.appeal_file(
        session=session, appellant=appellant, round=1, board=first.board_number, claim="c", now=now
    )
    ruling = appeals_services.irregularity_record(
        session=session, kind="wrong_hand", round=1, table=1, board=first.board_number, user=director, now=now
    )
    correction = appeals_services.correction_request(
        session=session, description="d", board=first.board_number, round=1, table=1, now=now
    )
    decided = appeals_services.appeal_file(
        session=session, appellant=first.seat_e, round=1, board=first.board_number, claim="c", now=now
    )
    appeals_services.appeal_comment(appeal=decided, comment="ruled at the table", user=director, now=now)
    appeals_services.appeal_hear(appeal=decided, members=[member], user=director, now=now)
    appeals_services.appeal_decide(
        appeal=decided, outcome="upheld", decision="upheld", user=director, now=now
    )
    job = ExportJob.objects.create(
        tournament=t,
        kind="standings",
        format="csv",
        status=ExportJob.Status.DONE,
        options={"filename": "s.csv"},
    )
    job.file.save("demo-standings.csv", ContentFile(b"place,name\n1,secret\n"))
    table = Table.objects.get(session=session, number=1, room=1)
    seating = Seating.objects.get(session=session, round_number=4, table_number=1)
    table_board = Board.objects.filter(session=session, set_number=seating.set_number).order_by("number")[0]
    sanction = Sanction.objects.create(
        tournament=t,
        participant=appellant,
        kind=Sanction.Kind.SUSPENSION,
        session=session,
        first_round=2,
        last_round=2,
        reason="noise",
        at=now,
    )
    Strike.objects.get_or_create(key="pin:0:0", defaults={"count": 1, "started": now})  # one counted try
    person = Person.objects.create(name=appellant.name or "Player", federation_id="PERM-1")
    Participant.objects.filter(pk=appellant.pk).update(person=person)
    series = Series.objects.create(name="Club season", slug="club-season")
    SeriesEvent.objects.create(series=series, tournament=t)
    admin_objects = {}
    for label in admin_models:
        model = apps.get_model(label)
        pk = model._default_manager.order_by("pk").values_list("pk", flat=True).first()
        admin_objects[label] = str(pk if pk is not None else 999999)
    return World(
        slug=t.slug,
        tournament=t.pk,
        users=users,
        appellant=appellant.pk,
        appeal=appeal.number,
        decided=decided.number,
        ruling=ruling.pk,
        correction=correction.pk,
        penalty=Penalty.objects.get(session=session).pk,
        sanction=sanction.pk,
        member=member.pk,
        export=job.pk,
        code=table.code,
        round_board=first.board_number,
        table_board=table_board.number,
        admin_objects=admin_objects,
        content_type=ContentType.objects.get_for_model(Tournament).pk,
        pulka_slug=pulka.slug,
        pulka_code=pulka_table.code,
        olympic_slug="demo-olympic",
        person=person.pk,
        series_slug=series.slug,
    )


def counts() -> dict[str, int]:
    return {m._meta.label: m._default_manager.count() for m in _models()}


def tear_down(before: dict[str, int]) -> None:
    """Remove what ``build`` made: the database is as ``before`` (``counts()``) was."""
    Tournament.objects.all().delete()
    Series.objects.all().delete()
    Person.objects.update(merged_into=None)
    Person.objects.all().delete()  # after the events: their awards and ratings protect the persons
    get_user_model().objects.all().delete()
    WebSession.objects.all().delete()
    Strike.objects.all().delete()  # the counted tries the visits made (and the one for the admin's pages)
    cache.clear()
    assert counts() == before, "the module's data was not cleaned up"


# -- the visitors --------------------------------------------------------------------------------------------
def client_for(w: World, role: str, **options: Any) -> Client:
    client = Client(**options)
    if role == PLAYER:
        session = client.session
        session[PLAYER_KEY.format(w.tournament)] = w.appellant
        session.save()
    elif role != ANONYMOUS:
        client.force_login(w.users[role])
    return client


def finish(response: Any) -> bytes:
    """Read a streamed answer to its end, which closes it (a FileResponse holds its file open until then).

    Not ``response.close()``: the test client has closed the response already, and a second close sends
    ``request_finished``, whose handler closes the database connection inside the test's transaction."""
    return b"".join(response.streaming_content) if response.streaming else response.content


def get(w: World, role: str, url: str) -> Any:
    """A GET by ``role``, read to its end."""
    response = client_for(w, role).get(url)
    finish(response)
    return response
