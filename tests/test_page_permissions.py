"""The permission matrix of every page: each URL pattern of the project, for each kind of visitor.

``PAGES`` holds one permission decision per URL pattern (keyed by the URL name, or by the route where the
pattern has no name). ``test_every_url_pattern_has_a_permission_decision`` walks the resolver and fails for a
pattern that is not in the table, so a new page cannot ship without someone deciding who may open it.

Each page is then requested by every role, GET and (where the view accepts it) POST: an allowed role gets a page
(200, a 302 that is not to a login page, or 400 for a refused form), a refused role gets 403, 404 or a redirect
to a login page — never the page, never a server error — and a refused POST changes nothing in the database.

The data is the demo tournament (``seed_demo``: 20 participants, three rounds played, round 4 running, published
provisionally) with two appeals (one filed, one decided), a ruling, a correction, a committee member, a generated
file and a second tournament with its own director, built once for the module (and removed after it). Every test
runs in a transaction that is rolled back, and each allowed role in a savepoint of its own, so what one POST
changes is not seen by the next. The REST API has its own matrix (tests/api/test_permissions.py).
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Iterator
from io import StringIO
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session as WebSession
from django.core.cache import cache
from django.core.files.base import ContentFile
from django.core.management import call_command
from django.db import transaction
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, clear_url_caches, get_resolver, reverse
from django.utils import timezone

from appeals import services as appeals_services
from appeals.models import AppealMember, CommitteeMember
from appeals.views import PLAYER_KEY
from boards.models import Board
from results.models import ExportJob
from scoring.models import Penalty, Result
from tournaments.models import Participant, Publication, Seating, Session, Table, Tournament
from tournaments.services.event import tournament_create

# -- roles ------------------------------------------------------------------------------------------------
ANONYMOUS, USER, STAFF, OTHER_DIRECTOR = "anonymous", "user", "staff", "other_director"
COMMITTEE, PLAYER, DIRECTOR, SUPERUSER = "committee", "player", "director", "superuser"
ROLES = (ANONYMOUS, USER, STAFF, OTHER_DIRECTOR, COMMITTEE, PLAYER, DIRECTOR, SUPERUSER)
"""anonymous; a logged-in user with no rights; ``is_staff`` without permissions; the director of another
tournament; an appeals committee member of this tournament (a login linked to a ``CommitteeMember``); a player
identified on the appeals page with number and PIN (no login); this tournament's director; a superuser."""
LOGGED_IN = {USER, STAFF, OTHER_DIRECTOR, COMMITTEE, DIRECTOR, SUPERUSER}

# -- access classes: who is allowed ---------------------------------------------------------------------
PUBLIC = "public"  # anyone
RESULTS = "results"  # anyone once the results are published (tournaments.permissions.can_see_results)
HIDDEN_BOARD = "hidden_board"  # a board not yet played everywhere: directors only (the public gets 404)
TABLE = "table"  # anyone with the table code; writes need a PIN (test_table_writes_need_the_pin)
PLAYER_LOGIN = "player_login"  # the appeals page's number + PIN form: anyone (it logs players in)
PLAYER_ONLY = "player_only"  # a player identified with number + PIN, for his own appeals
LOGIN = "login"  # any logged-in user
DIRECTOR_ONLY = "director"  # this tournament's directors (tournaments.permissions.can_direct), superusers
COMMITTEE_OR_DIRECTOR = "committee"  # the directors and the appeals committee members of this tournament
ADMIN_SITE = "admin_site"  # Django admin pages every staff user may open
ADMIN = "admin"  # Django admin model pages: superusers (staff need model permissions, which nobody has here)
NOBODY = "nobody"  # catch-all "not found" views and admin pages the project switched off
# The REST API (api/…) is left to its own matrix, tests/api/test_permissions.py.

ALLOWED: dict[str, set[str]] = {
    PUBLIC: set(ROLES),
    RESULTS: set(ROLES),
    HIDDEN_BOARD: {DIRECTOR, SUPERUSER},
    TABLE: set(ROLES),
    PLAYER_LOGIN: set(ROLES),
    PLAYER_ONLY: {PLAYER},
    LOGIN: LOGGED_IN,
    DIRECTOR_ONLY: {DIRECTOR, SUPERUSER},
    COMMITTEE_OR_DIRECTOR: {COMMITTEE, DIRECTOR, SUPERUSER},
    ADMIN_SITE: {STAFF, SUPERUSER},
    ADMIN: {SUPERUSER},
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
    member: int  # CommitteeMember pk (linked to the committee role's login)
    export: int  # ExportJob pk, done, with a file
    code: str  # table 1's code
    round_board: int  # a board played at table 1 in round 1
    table_board: int  # a board table 1 plays in the running round 4
    admin_objects: dict[str, str]  # "app.model" → the pk of one of its objects
    content_type: int  # the Tournament content type (for admin:view_on_site)


Kwargs = Callable[[World], dict[str, Any]]


@dataclasses.dataclass(frozen=True)
class Page:
    """One permission decision: who may open the page, which methods it takes, how to fill its URL."""

    access: str
    methods: str = "G"  # "G" GET only, "P" POST only, "GP" both
    kwargs: Kwargs | None = None
    query: str = ""
    post: Callable[[World], dict[str, Any]] | None = None  # a body that would change something if let through
    post_access: str | None = None  # who may POST, when it differs from who may GET
    path: Callable[[World], str] | None = None  # for patterns without a name
    # This allowed role's POST must change the database, so that the refused roles' same POST is a real attempt.
    writes_as: str = ""


def slug(w: World) -> dict[str, Any]:
    return {"slug": w.slug}


def s1(w: World, **extra: Any) -> dict[str, Any]:
    return {"slug": w.slug, "session": 1, **extra}


def garbage(w: World) -> dict[str, Any]:
    return {"garbage": "1"}


TOURNAMENT_FORM = {
    "name": "Intruder cup",
    "variant": "sochi",
    "players_per_table": 4,
    "deals_per_set": 4,
    "minutes_per_deal": 5,
    "correction_minutes": 30,
    "unequal_results": "neuberg",
    "artificial_minus": 40,
    "artificial_average": 50,
    "artificial_plus": 60,
}


def board(w: World) -> dict[str, Any]:
    return s1(w, board=w.round_board)


PAGES: dict[str, Page] = {
    # -- the public site -------------------------------------------------------------------------------------
    "home": Page(PUBLIC),
    "healthz": Page(PUBLIC),
    "tournament-detail": Page(PUBLIC, kwargs=slug),
    # -- published results (scoring/reports) ----------------------------------------------------------------
    "results:standings": Page(RESULTS, kwargs=slug),
    "results:boards": Page(RESULTS, kwargs=slug),
    "results:board": Page(RESULTS, kwargs=lambda w: {"slug": w.slug, "number": w.round_board}),
    "results:board-chart": Page(HIDDEN_BOARD, kwargs=lambda w: {"slug": w.slug, "number": w.round_board}),
    "results:player": Page(RESULTS, kwargs=lambda w: {"slug": w.slug, "number": 1}),
    "results:player-chart": Page(RESULTS, kwargs=lambda w: {"slug": w.slug, "number": 1}),
    "results:frequencies": Page(RESULTS, kwargs=slug),
    "results:exports": Page(
        DIRECTOR_ONLY,
        "GP",
        kwargs=slug,
        post=lambda w: {"kind": "standings", "format": "csv"},
        writes_as=DIRECTOR,
    ),
    "results:export-status": Page(DIRECTOR_ONLY, kwargs=lambda w: {"slug": w.slug, "pk": w.export}),
    "results:export-download": Page(DIRECTOR_ONLY, kwargs=lambda w: {"slug": w.slug, "pk": w.export}),
    # -- the director's application --------------------------------------------------------------------------
    "director:index": Page(LOGIN),
    # Any account may create an event (and so direct it): accounts are made by the administrators.
    "director:create": Page(LOGIN, "GP", post=lambda w: TOURNAMENT_FORM, writes_as=USER),
    "director:dashboard": Page(DIRECTOR_ONLY, kwargs=slug),
    "director:settings": Page(
        DIRECTOR_ONLY, "GP", kwargs=slug, post=lambda w: TOURNAMENT_FORM, writes_as=DIRECTOR
    ),
    "director:directors": Page(
        DIRECTOR_ONLY, "P", kwargs=slug, post=lambda w: {"username": "nobody"}, writes_as=DIRECTOR
    ),
    "director:add_session": Page(DIRECTOR_ONLY, "P", kwargs=slug, writes_as=DIRECTOR),
    "director:participants": Page(
        DIRECTOR_ONLY, "GP", kwargs=slug, post=lambda w: {"number": 99, "name": "X"}, writes_as=DIRECTOR
    ),
    "director:participants_import": Page(DIRECTOR_ONLY, "GP", kwargs=slug, post=garbage),
    "director:pins": Page(
        DIRECTOR_ONLY, "GP", kwargs=slug, post=lambda w: {"everyone": "1"}, writes_as=DIRECTOR
    ),
    "director:participant": Page(
        DIRECTOR_ONLY,
        "GP",
        kwargs=lambda w: {"slug": w.slug, "number": 1},
        post=lambda w: {"number": 1, "name": "Renamed"},
        writes_as=DIRECTOR,
    ),
    "director:standings": Page(DIRECTOR_ONLY, kwargs=slug),
    "director:rescore": Page(DIRECTOR_ONLY, "P", kwargs=slug, writes_as=DIRECTOR),
    "director:publication": Page(
        DIRECTOR_ONLY,
        "GP",
        kwargs=slug,
        post=lambda w: {"action": "withdraw", "reason": "x"},
        writes_as=DIRECTOR,
    ),
    "director:audit": Page(DIRECTOR_ONLY, kwargs=slug),
    "director:session_dashboard": Page(DIRECTOR_ONLY, kwargs=s1),
    "director:movement": Page(
        DIRECTOR_ONLY, "GP", kwargs=s1, post=lambda w: {"scheme": "basic", "tables": 5}
    ),
    "director:seating": Page(DIRECTOR_ONLY, kwargs=s1),
    "director:start_round": Page(DIRECTOR_ONLY, "P", kwargs=lambda w: s1(w, number=5)),
    "director:end_round": Page(DIRECTOR_ONLY, "P", kwargs=lambda w: s1(w, number=4), writes_as=DIRECTOR),
    "director:handover": Page(DIRECTOR_ONLY, kwargs=lambda w: s1(w, number=1)),
    "director:table_round": Page(DIRECTOR_ONLY, kwargs=lambda w: s1(w, round=1, table=1)),
    "director:board_entry": Page(
        DIRECTOR_ONLY,
        "GP",
        kwargs=lambda w: s1(w, round=1, table=1, board=w.round_board),
        post=lambda w: {"kind": "delete", "reason": "x"},
        writes_as=DIRECTOR,
    ),
    "director:boards": Page(DIRECTOR_ONLY, kwargs=s1),
    "director:board_detail": Page(
        DIRECTOR_ONLY, "GP", kwargs=board, post=lambda w: {"foul": "1", "note": "x"}, writes_as=DIRECTOR
    ),
    "director:board_layout": Page(DIRECTOR_ONLY, "GP", kwargs=board, post=garbage),
    "director:board_fouled": Page(DIRECTOR_ONLY, "GP", kwargs=board, post=garbage),
    "director:penalties": Page(
        DIRECTOR_ONLY,
        "GP",
        kwargs=s1,
        post=lambda w: {"participant": 1, "deduct": "2", "kind": "12.2.1"},
        writes_as=DIRECTOR,
    ),
    "director:penalty_delete": Page(
        DIRECTOR_ONLY,
        "P",
        kwargs=lambda w: s1(w, pk=w.penalty),
        post=lambda w: {"reason": "x"},
        writes_as=DIRECTOR,
    ),
    # -- rulings, appeals, corrections ------------------------------------------------------------------------
    "appeals:list": Page(COMMITTEE_OR_DIRECTOR, kwargs=slug),
    "appeals:appeal-new": Page(
        DIRECTOR_ONLY,
        "GP",
        kwargs=slug,
        writes_as=DIRECTOR,
        post=lambda w: {"session": 1, "participant": 1, "round": 1, "board": w.round_board, "claim": "x"},
    ),
    "appeals:appeal": Page(COMMITTEE_OR_DIRECTOR, kwargs=lambda w: {"slug": w.slug, "number": w.appeal}),
    "appeals:appeal-form": Page(COMMITTEE_OR_DIRECTOR, kwargs=lambda w: {"slug": w.slug, "number": w.appeal}),
    # Committee members may only sign (test_committee_members_may_only_sign); directors do every step.
    "appeals:appeal-action": Page(
        COMMITTEE_OR_DIRECTOR,
        "P",
        writes_as=COMMITTEE,
        kwargs=lambda w: {"slug": w.slug, "number": w.decided, "action": "sign"},
        post=lambda w: {"member": w.member},
    ),
    "appeals:ruling-new": Page(
        DIRECTOR_ONLY,
        "GP",
        kwargs=slug,
        writes_as=DIRECTOR,
        post=lambda w: {"session": 1, "kind": "wrong_hand", "round": 1, "table": 1, "board": w.round_board},
    ),
    "appeals:ruling": Page(
        DIRECTOR_ONLY,
        "GP",
        kwargs=lambda w: {"slug": w.slug, "pk": w.ruling},
        post=lambda w: {"action": "dismiss", "ruling": "x"},
        writes_as=DIRECTOR,
    ),
    "appeals:correction-new": Page(
        DIRECTOR_ONLY,
        "GP",
        kwargs=slug,
        writes_as=DIRECTOR,
        post=lambda w: {
            "session": 1,
            "kind": "entry",
            "round": 1,
            "table": 1,
            "board": w.round_board,
            "description": "x",
        },
    ),
    "appeals:correction": Page(
        DIRECTOR_ONLY,
        "GP",
        kwargs=lambda w: {"slug": w.slug, "pk": w.correction},
        post=lambda w: {"action": "refuse", "note": "x"},
        writes_as=DIRECTOR,
    ),
    "appeals:audit": Page(DIRECTOR_ONLY, kwargs=slug),
    "appeals:settings": Page(
        DIRECTOR_ONLY,
        "GP",
        kwargs=slug,
        writes_as=DIRECTOR,
        post=lambda w: {"action": "member", "name": "Intruder", "username": "nobody"},
    ),
    "appeals:player": Page(PLAYER_LOGIN, "GP", kwargs=slug, post=garbage),
    "appeals:player-appeal": Page(
        PLAYER_ONLY,
        "GP",
        kwargs=lambda w: {"slug": w.slug, "number": w.appeal},
        post=lambda w: {"action": "withdraw"},
        writes_as=PLAYER,
    ),
    "appeals:player-logout": Page(PUBLIC, "P", kwargs=slug),
    # -- players at the table (writes need the player's PIN: test_table_writes_need_the_pin) --------------------
    "table:lookup": Page(PUBLIC),
    "table:entry": Page(TABLE, "GP", kwargs=lambda w: {"code": w.code}, post=garbage),
    "table:preview": Page(TABLE, kwargs=lambda w: {"code": w.code}, query="?board={table_board}"),
    "table:qr": Page(TABLE, kwargs=lambda w: {"code": w.code}),
    # -- accounts and language -------------------------------------------------------------------------------
    "login": Page(PUBLIC, "GP", post=garbage),
    "logout": Page(PUBLIC, "P"),
    "password_change": Page(LOGIN, "GP", post=garbage),
    "password_change_done": Page(LOGIN),
    "password_reset": Page(PUBLIC, "GP", post=garbage),
    "password_reset_done": Page(PUBLIC),
    "password_reset_confirm": Page(
        PUBLIC, "GP", kwargs=lambda w: {"uidb64": "MQ", "token": "bad-token"}, post=garbage
    ),
    "password_reset_complete": Page(PUBLIC),
    "set_language": Page(PUBLIC, "GP", post=lambda w: {"language": "en", "next": "/"}),
    # -- Django admin: the site's own pages ------------------------------------------------------------------
    "admin:index": Page(ADMIN_SITE),
    "admin:login": Page(PUBLIC, "GP", post=garbage),
    "admin:logout": Page(PUBLIC, "P"),  # logging out reveals and changes nothing
    "admin:password_change": Page(ADMIN_SITE, "GP", post=garbage),
    "admin:password_change_done": Page(ADMIN_SITE),
    "admin:jsi18n": Page(ADMIN_SITE),
    # Without a model that declares autocomplete_fields the view refuses every request (403), staff or not.
    "admin:autocomplete": Page(NOBODY),
    "admin:view_on_site": Page(
        ADMIN_SITE, kwargs=lambda w: {"content_type_id": w.content_type, "object_id": w.tournament}
    ),
    "admin:app_list": Page(ADMIN, kwargs=lambda w: {"app_label": "tournaments"}),
    "admin/(?P<url>.*)$": Page(NOBODY, path=lambda w: "/admin/no-such-page/"),
    "admin:auth_user_password_change": Page(
        ADMIN, "GP", kwargs=lambda w: {"id": w.admin_objects["auth.user"]}, post=garbage
    ),
    # MEDIA_ROOT is not served (test_generated_files_are_served_only_to_directors).
}

# Every model registered in the admin: a new registration is a permission decision too.
ADMIN_MODELS = (
    "appeals.appeal",
    "appeals.appealsettings",
    "appeals.committeemember",
    "appeals.correction",
    "appeals.irregularity",
    "appeals.scorechange",
    "auth.group",
    "auth.user",
    "authtoken.tokenproxy",
    "boards.board",
    "boards.boardset",
    "results.exportjob",
    "scoring.penalty",
    "scoring.result",
    "scoring.standing",
    "tournaments.auditentry",
    "tournaments.participant",
    "tournaments.room",
    "tournaments.round",
    "tournaments.seating",
    "tournaments.session",
    "tournaments.table",
    "tournaments.tournament",
)
ADMIN_READ_ONLY = {"tournaments.auditentry", "appeals.scorechange"}  # written by the services only


def _admin_pages() -> dict[str, Page]:
    out: dict[str, Page] = {}
    for label in ADMIN_MODELS:
        app, model = label.split(".")

        def obj(w: World, label: str = label) -> dict[str, Any]:
            return {"object_id": w.admin_objects[label]}

        read_only = label in ADMIN_READ_ONLY
        out[f"admin:{app}_{model}_changelist"] = Page(ADMIN, "GP", post=garbage)
        out[f"admin:{app}_{model}_add"] = Page(NOBODY if read_only else ADMIN, "GP", post=garbage)
        out[f"admin:{app}_{model}_history"] = Page(ADMIN, kwargs=obj)
        out[f"admin:{app}_{model}_delete"] = Page(ADMIN, "GP", kwargs=obj, post=garbage)
        out[f"admin:{app}_{model}_change"] = Page(
            ADMIN, "GP", kwargs=obj, post=garbage, post_access=NOBODY if read_only else None
        )
        # The old-style object URL: a redirect to …/change/, behind the admin login.
        out[f"admin/{app}/{model}/<path:object_id>/"] = Page(
            ADMIN,
            path=lambda w, app=app, model=model, obj=obj: f"/admin/{app}/{model}/{obj(w)['object_id']}/",
        )
    return out


PAGES.update(_admin_pages())


# -- the URL resolver ------------------------------------------------------------------------------------------
def walk(patterns: list[Any], prefix: str = "", namespace: str = "") -> Iterator[tuple[str, str, Any]]:
    """Every URL pattern, included ones too: (full route, "namespace:name" or "", the pattern)."""
    for p in patterns:
        if isinstance(p, URLResolver):
            ns = ":".join(x for x in (namespace, p.namespace or "") if x)
            yield from walk(p.url_patterns, prefix + str(p.pattern), ns)
        else:
            assert isinstance(p, URLPattern)
            name = f"{namespace}:{p.name}" if namespace and p.name else (p.name or "")
            yield prefix + str(p.pattern), name, p


def key_of(route: str, name: str) -> str:
    return name or route


def project_patterns() -> dict[str, str]:
    """key → route of every URL pattern of the project."""
    return {key_of(route, name): route for route, name, _p in walk(get_resolver().url_patterns)}


def is_api(route: str) -> bool:
    return route.startswith("api/")


def test_every_url_pattern_has_a_permission_decision():
    patterns = project_patterns()
    keys = [key_of(route, name) for route, name, _p in walk(get_resolver().url_patterns) if not is_api(route)]
    shared = sorted({k for k in keys if keys.count(k) > 1})
    assert not shared, f"several URL patterns share a name, so one entry would decide for all: {shared}"
    undecided = sorted(k for k, route in patterns.items() if k not in PAGES and not is_api(route))
    assert not undecided, f"URL patterns without an entry in PAGES (decide who may open them): {undecided}"
    stale = sorted(k for k in PAGES if k not in patterns)
    assert not stale, f"PAGES names URL patterns that no longer exist: {stale}"


def test_the_admin_registrations_are_the_ones_decided():
    from django.contrib import admin

    assert sorted(m._meta.label_lower for m in admin.site._registry) == sorted(ADMIN_MODELS)


# -- the data ----------------------------------------------------------------------------------------------
APP_LABELS = {"tournaments", "scoring", "appeals", "boards", "results", "auth", "authtoken", "admin"}


def _models() -> list[Any]:
    return [m for m in apps.get_models(include_auto_created=True) if m._meta.app_label in APP_LABELS]


def snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every model of the project (and of users, tokens, admin log): what a refused POST must keep.

    Users' ``last_login`` is left out: logging the test client in sets it."""
    out = {}
    for m in _models():
        fields = [f.attname for f in m._meta.concrete_fields if f.attname != "last_login"]
        out[m._meta.label] = list(m._default_manager.order_by("pk").values_list(*fields))
    return out


def _build() -> World:
    call_command("seed_demo", stdout=StringIO())
    t = Tournament.objects.get(slug="demo")
    session = t.sessions.get(number=1)
    User = get_user_model()
    superuser = User.objects.get(username="demo")
    director = User.objects.create_user("own-director", password="x")
    t.directors.add(director)
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
    admin_objects = {}
    for label in ADMIN_MODELS:
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
        member=member.pk,
        export=job.pk,
        code=table.code,
        round_board=first.board_number,
        table_board=table_board.number,
        admin_objects=admin_objects,
        content_type=ContentType.objects.get_for_model(Tournament).pk,
    )


def _counts() -> dict[str, int]:
    return {m._meta.label: m._default_manager.count() for m in _models()}


def _tear_down(before: dict[str, int]) -> None:
    Tournament.objects.all().delete()
    get_user_model().objects.all().delete()
    WebSession.objects.all().delete()
    cache.clear()
    assert _counts() == before, "the module's data was not cleaned up"


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[World]:
    media = override_settings(MEDIA_ROOT=tmp_path_factory.mktemp("media"))
    media.enable()
    try:
        with django_db_blocker.unblock():
            before = _counts()
            try:
                built = _build()
            except BaseException:
                _tear_down(before)
                raise
        yield built
    finally:
        with django_db_blocker.unblock():
            _tear_down(before)
        media.disable()


@pytest.fixture(scope="module")
def baseline(world, django_db_blocker) -> dict[str, list[tuple[Any, ...]]]:
    """The database as every test starts with it (each test is rolled back)."""
    with django_db_blocker.unblock():
        return snapshot()


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Rate limits (table codes, PINs) count in the cache: every test starts with none."""
    cache.clear()
    yield
    cache.clear()


def client_for(w: World, role: str, **options: Any) -> Client:
    client = Client(**options)
    if role == PLAYER:
        session = client.session
        session[PLAYER_KEY.format(w.tournament)] = w.appellant
        session.save()
    elif role != ANONYMOUS:
        client.force_login(w.users[role])
    return client


def url_of(w: World, key: str, page: Page) -> str:
    if page.path is not None:
        return page.path(w)
    url = reverse(key, kwargs=page.kwargs(w) if page.kwargs else None)
    return url + page.query.format(**dataclasses.asdict(w))


# -- what an answer may be -----------------------------------------------------------------------------------
def finish(response: Any) -> bytes:
    """Read a streamed answer to its end, which closes it (a FileResponse holds its file open until then).

    Not ``response.close()``: the test client has closed the response already, and a second close sends
    ``request_finished``, whose handler closes the database connection inside the test's transaction."""
    return b"".join(response.streaming_content) if response.streaming else response.content


def login_paths(w: World, access: str) -> tuple[str, ...]:
    paths = (reverse("login"), reverse("admin:login"))
    if access in (PLAYER_ONLY,):
        paths += (reverse("appeals:player", kwargs={"slug": w.slug}),)
    return paths


def redirect_target(response: Any) -> str | None:
    if response.status_code in (301, 302, 303, 307, 308):
        return urlsplit(response["Location"]).path
    return None


def allowed_answer(response: Any, method: str, logins: tuple[str, ...]) -> str | None:
    """None when the answer is the page (or a normal redirect), else what is wrong with it."""
    target = redirect_target(response)
    if target is not None:
        return f"redirected to a login page ({target})" if target in logins else None
    ok = (200,) if method == "get" else (200, 400)
    return None if response.status_code in ok else f"status {response.status_code}"


def refused_answer(response: Any, logins: tuple[str, ...], access: str) -> str | None:
    """None when the answer refuses (403, 404 or a redirect to a login page), else what is wrong with it.

    Inside the admin, staff may be redirected to another admin page (a missing object → the index, the old
    object URL → its change page): each of those checks the model permissions itself."""
    target = redirect_target(response)
    if target is not None:
        if target in logins or (access == ADMIN and target.startswith(reverse("admin:index"))):
            return None
        return f"redirected to {target}, not to a login page"
    return None if response.status_code in (403, 404) else f"status {response.status_code}"


def _access(page: Page, method: str) -> str:
    return (page.post_access or page.access) if method == "post" else page.access


def _request(w: World, key: str, page: Page, role: str, client: Client, method: str) -> str | None:
    """One request; None when the answer is the one the role should get, else what is wrong."""
    url = url_of(w, key, page)
    access = _access(page, method)
    logins = login_paths(w, access)
    response = client.post(url, page.post(w) if page.post else {}) if method == "post" else client.get(url)
    finish(response)
    if method == "get405":  # a POST-only page answers GET with 405 (or, to the refused, with the login page)
        inside = ADMIN if url.startswith(reverse("admin:index")) else access
        if response.status_code == 405 or refused_answer(response, logins, inside) is None:
            return None
        return f"GET {url} as {role}: status {response.status_code}, expected 405 (POST only)"
    if role in ALLOWED[access]:
        problem = allowed_answer(response, method, logins)
    else:
        problem = refused_answer(response, logins, access)
    return f"{method.upper()} {url} as {role} ({access}): {problem}" if problem else None


@pytest.mark.django_db
@pytest.mark.parametrize("key", list(PAGES))
def test_page_permissions(world, baseline, key):
    """Every role, GET and POST as the page takes them: refused roles first (then the database must be as it
    was), then the allowed ones."""
    page = PAGES[key]
    methods = [m for m, letter in (("get", "G"), ("post", "P")) if letter in page.methods]
    if page.methods == "P":
        methods.append("get405")
    refused = [r for r in ROLES if any(r not in ALLOWED[_access(page, m)] for m in methods)]
    allowed = [r for r in ROLES if r not in refused]
    problems = []
    for role in refused:
        client = client_for(world, role)
        problems += [p for m in methods if (p := _request(world, key, page, role, client, m))]
    if "post" in methods and refused and snapshot() != baseline:
        problems.append(f"a POST by one of {refused} changed the database")
    for role in allowed:  # each in a savepoint rolled back: the next one finds what the first found
        with transaction.atomic():
            client = client_for(world, role)
            problems += [p for m in methods if (p := _request(world, key, page, role, client, m))]
            if role == page.writes_as and snapshot() == baseline:
                problems.append(f"POST as {role} changed nothing: the body does not test the refusals")
            transaction.set_rollback(True)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("key", sorted(k for k in project_patterns() if k.startswith("api:")))
def test_api_patterns_are_covered_by_the_api_matrix(key):
    pytest.skip("the REST API has its own permission matrix: tests/api/test_permissions.py")


# -- generated files -----------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_generated_files_are_served_only_to_directors(world):
    """Exports (unpublished standings, protocols of boards still in play, table cards with the codes) are downloaded
    through the director-only view; no URL serves MEDIA_ROOT directly, in DEBUG either (it used to: /media/<file>
    to anyone, at a guessable name such as exports/<year>/<month>/<slug>-pack.zip)."""
    job = ExportJob.objects.get(pk=world.export)
    raw = f"/media/{job.file.name}"
    for role in ROLES:
        if role not in (DIRECTOR, SUPERUSER):
            assert client_for(world, role).get(raw).status_code == 404, role
    download = reverse("results:export-download", kwargs={"slug": world.slug, "pk": job.pk})
    response = client_for(world, DIRECTOR).get(download)
    assert response.status_code == 200 and b"secret" in finish(response)
    assert client_for(world, OTHER_DIRECTOR).get(download).status_code == 404
    import config.urls

    with override_settings(DEBUG=True):
        importlib.reload(config.urls)
        served = [
            route for route, _name, p in walk(config.urls.urlpatterns) if "static.serve" in p.lookup_str
        ]
    importlib.reload(config.urls)
    clear_url_caches()
    assert not served, f"MEDIA_ROOT is served to anyone at {served}"


# -- beyond the matrix ---------------------------------------------------------------------------------------
def _get(w: World, role: str, url: str) -> Any:
    response = client_for(w, role).get(url)
    finish(response)
    return response


RESULT_PAGES = [k for k, p in PAGES.items() if p.access in (RESULTS, HIDDEN_BOARD)]


@pytest.mark.django_db
def test_unpublished_results_are_for_directors_only(world):
    """Nothing is public before the first publication, or after it is withdrawn (tournaments.services.publication):
    the results pages answer 403 to everybody but the directors, the event's page shows no standings."""
    Tournament.objects.filter(pk=world.tournament).update(publication=Publication.DRAFT, published_at=None)
    for key in RESULT_PAGES:
        url = url_of(world, key, PAGES[key])
        for role in ROLES:
            status = _get(world, role, url).status_code
            assert status == (200 if role in (DIRECTOR, SUPERUSER) else 403), (url, role, status)
    detail = reverse("tournament-detail", kwargs={"slug": world.slug})
    for role in ROLES:
        context = client_for(world, role).get(detail).context
        shown = role in (DIRECTOR, SUPERUSER)
        assert context["show_results"] is shown and bool(context["standings"]) is shown, role


@pytest.mark.django_db
def test_a_board_still_in_play_is_hidden_from_the_public(world):
    """While the session runs, a board's rows and layout stay hidden until every table has played it."""
    page = reverse("results:board", kwargs={"slug": world.slug, "number": world.round_board})
    chart = reverse("results:board-chart", kwargs={"slug": world.slug, "number": world.round_board})
    for role in ROLES:
        context = client_for(world, role).get(page).context
        director = role in (DIRECTOR, SUPERUSER)
        assert context["visible"] is director and bool(context["rows"]) is director, role
        assert (context["layout"] is not None) is director, role
        assert _get(world, role, chart).status_code == (200 if director else 404), role
    Session.objects.filter(tournament_id=world.tournament).update(status=Session.Status.FINISHED)
    for role in ROLES:
        assert client_for(world, role).get(page).context["visible"] is True, role
        assert _get(world, role, chart).status_code == 200, role


@pytest.mark.django_db
def test_committee_members_may_only_sign(world, baseline):
    def action(name):
        return reverse(
            "appeals:appeal-action", kwargs={"slug": world.slug, "number": world.decided, "action": name}
        )

    committee = client_for(world, COMMITTEE)
    for name in ("comment", "hear", "decide", "apply", "close", "withdraw", "admit"):
        assert committee.post(action(name), {"comment": "x", "decision": "x"}).status_code == 403, name
    assert snapshot() == baseline
    assert committee.post(action("sign"), {"member": world.member}).status_code == 302
    assert AppealMember.objects.get(
        appeal__number=world.decided, appeal__tournament_id=world.tournament
    ).signed_at


@pytest.mark.django_db
def test_a_player_sees_only_his_own_appeals(world, baseline):
    client = Client()
    session = client.session
    other = Participant.objects.filter(tournament_id=world.tournament).exclude(pk=world.appellant).first()
    session[PLAYER_KEY.format(world.tournament)] = other.pk
    session.save()
    url = reverse("appeals:player-appeal", kwargs={"slug": world.slug, "number": world.appeal})
    assert client.get(url).status_code == 404
    assert client.post(url, {"action": "withdraw"}).status_code == 404
    assert snapshot() == baseline
    # The identification is per tournament: in another one the player is asked for his number and PIN again.
    response = client.get(reverse("appeals:player", kwargs={"slug": "other"}))
    assert [t.name for t in response.templates][0] == "appeals/player_login.html"


@pytest.mark.django_db
def test_objects_of_one_tournament_are_not_reached_through_another(world, baseline):
    """The director of "other" uses his own tournament's URLs with this tournament's ids: not found."""
    client = client_for(world, OTHER_DIRECTOR)
    o = "other"
    requests = [
        ("post", reverse("director:penalty_delete", kwargs={"slug": o, "session": 1, "pk": world.penalty}),
         {"reason": "x"}),
        ("get", reverse("appeals:ruling", kwargs={"slug": o, "pk": world.ruling}), None),
        ("post", reverse("appeals:ruling", kwargs={"slug": o, "pk": world.ruling}), {"action": "dismiss"}),
        ("get", reverse("appeals:correction", kwargs={"slug": o, "pk": world.correction}), None),
        ("post", reverse("appeals:correction", kwargs={"slug": o, "pk": world.correction}), {"action": "refuse"}),
        ("get", reverse("appeals:appeal", kwargs={"slug": o, "number": world.appeal}), None),
        ("post", reverse("appeals:appeal-action", kwargs={"slug": o, "number": world.decided, "action": "sign"}),
         {"member": world.member}),
        ("post", reverse("appeals:settings", kwargs={"slug": o}), {"action": "remove", "member": world.member}),
        ("get", reverse("results:export-status", kwargs={"slug": o, "pk": world.export}), None),
        ("get", reverse("results:export-download", kwargs={"slug": o, "pk": world.export}), None),
    ]  # fmt: skip
    for method, url, data in requests:
        response = client.post(url, data) if method == "post" else client.get(url)
        finish(response)
        assert response.status_code == 404, (method, url, response.status_code)
    assert snapshot() == baseline


def _row(w: World, **extra: Any) -> dict[str, Any]:
    """A legal row for the running round's first board at table 1 (6♠ by the first hand, both whist)."""
    dealer = Board.objects.get(session__tournament_id=w.tournament, number=w.table_board).dealer
    declarer = next(s for s in "NESW" if s != dealer)
    return {"action": "save", "board": w.table_board, "key": "perm-key", "contract": "6S", "declarer": declarer,
            "t1": "6", "t2": "2", "call1": "whist", "call2": "whist", "play": "closed", **extra}  # fmt: skip


@pytest.mark.django_db
def test_table_writes_need_the_pin(world, baseline):
    """The table code opens the page to anyone; a row is stored only with the PIN of the player at N."""
    url = reverse("table:entry", kwargs={"code": world.code})
    here = Seating.objects.get(session__tournament_id=world.tournament, round_number=4, table_number=1)
    elsewhere = Seating.objects.get(session__tournament_id=world.tournament, round_number=4, table_number=2)
    n, stranger = here.seat_n, elsewhere.seat_n
    attempts = [
        (ANONYMOUS, {}),  # no PIN
        (ANONYMOUS, {"number": n.number, "pin": "0000"}),  # a wrong PIN
        (ANONYMOUS, {"number": stranger.number, "pin": stranger.pin}),  # a player of another table
        (ANONYMOUS, {"number": here.seat_e.number, "pin": here.seat_e.pin}),  # not the player at N
        (DIRECTOR, {}),  # a director's login is no PIN
        (PLAYER, {}),  # nor is the appeals page's identification
    ]
    for role, who in attempts:
        response = client_for(world, role).post(url, _row(world, **who))
        assert 400 <= response.status_code < 500, (role, who, response.status_code)
        assert snapshot() == baseline, (role, who)
    response = client_for(world, ANONYMOUS).post(url, _row(world, number=n.number, pin=n.pin))
    assert response.status_code == 302
    result = Result.objects.get(session__tournament_id=world.tournament, round_number=4, table_number=1)
    confirm = {"action": "confirm", "board": world.table_board, "number": here.seat_e.number, "pin": "0000"}
    assert client_for(world, ANONYMOUS).post(url, confirm).status_code >= 400
    result.refresh_from_db()
    assert not result.confirmed_by


def _n_pin(w: World) -> dict[str, Any]:
    n = Seating.objects.get(session__tournament_id=w.tournament, round_number=4, table_number=1).seat_n
    return {"number": n.number, "pin": n.pin}


@pytest.mark.django_db
def test_the_rows_of_a_table_are_not_shown_to_a_device_without_a_pin(world):
    url = reverse("table:entry", kwargs={"code": world.code})
    if client_for(world, ANONYMOUS).post(url, _row(world, **_n_pin(world))).status_code != 302:
        pytest.fail("the player at N could not save the row")
    page = client_for(world, ANONYMOUS).get(url).content.decode()  # another phone: a player of another table
    assert "6♠:" not in page  # the row as described («6♠: E 6, …»); «6♠» alone is a button of the picker


# -- CSRF ----------------------------------------------------------------------------------------------------
def _csrf_cases() -> list[Any]:
    return [
        pytest.param(DIRECTOR, "director:participants", lambda w: slug(w), lambda w: {"number": 99, "name": "X"},
                     id="director"),
        pytest.param(DIRECTOR, "appeals:settings", lambda w: slug(w),
                     lambda w: {"action": "member", "name": "Intruder", "username": "nobody"}, id="appeals"),
        pytest.param(ANONYMOUS, "table:entry", lambda w: {"code": w.code},
                     lambda w: _row(w, **_n_pin(w)), id="table"),
    ]  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize(("role", "name", "kwargs", "body"), _csrf_cases())
def test_forms_refuse_a_post_without_the_csrf_token(world, baseline, role, name, kwargs, body):
    url = reverse(name, kwargs=kwargs(world))
    client = client_for(world, role, enforce_csrf_checks=True)
    assert client.post(url, body(world)).status_code == 403
    assert snapshot() == baseline
    client.get(url)  # the form sets the token cookie; with the token the same POST goes through
    token = client.cookies["csrftoken"].value
    assert client.post(url, {**body(world), "csrfmiddlewaretoken": token}).status_code == 302
    assert snapshot() != baseline
