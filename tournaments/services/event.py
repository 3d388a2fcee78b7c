"""Creating and setting up an event: the tournament, its first session, its settings and its directors."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from preferans.duplicate.artificial import artificial_bounds
from preferans.game import RulesError, make_rules
from preferans.pulka import SetupError, make_pulka_rules
from tournaments import zones
from tournaments.audit import log_action
from tournaments.errors import UserError
from tournaments.models import Confirmation, Session, Tournament, default_artificial
from tournaments.refusals import adjustment_message
from tournaments.setup_refusals import setup_refusal


def check_rules(variant: str, rules: Mapping[str, Any] | None, form: str = "duplicate") -> None:
    """The overrides must give valid rules; an event played in pulkas has the pulka's limits too (no pool weight,
    whole numbers, no amnesty in Rostov: pulka-spec §2.2; progression is the organisers' option everywhere)."""
    try:
        if form == "duplicate":
            make_rules(variant, dict(rules or {}))
        else:
            make_pulka_rules(variant, dict(rules or {}))
    except SetupError as exc:
        raise setup_refusal(exc) from exc
    except (RulesError, ValueError) as exc:
        raise UserError(_("The rule overrides are not valid: %(problem)s") % {"problem": exc}) from exc


def check_zone(name: str) -> str:
    """The event's time zone: empty (the site's) or one of the zones the settings offer."""
    name = (name or "").strip()
    if not zones.is_known(name):
        raise UserError(
            _("Unknown time zone “%(zone)s”: choose one from the list.") % {"zone": name[:64]}, code="zone"
        )
    return name


def check_confirmation(value: str) -> str:
    """«every opponent» or «one opponent» confirms a row (``scoring.confirmation``)."""
    if value not in Confirmation.values:
        raise UserError(_("Choose who confirms a result: every opponent or one."), code="confirmation")
    return value


def check_artificial(artificial: Mapping[str, Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for grade in ("A-", "A", "A+"):
        value = artificial.get(grade)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100:
            raise UserError(
                _("The artificial result %(grade)s must be a whole percentage 0–100.") % {"grade": grade}
            )
        out[grade] = value
    problems = artificial_bounds(
        out
    )  # the book's bounds (§11.2 B1): one rule for the form, the API, the bundle
    if problems:
        raise UserError(" ".join(adjustment_message(p) for p in problems), code="artificial")
    return out


@transaction.atomic
def tournament_create(
    *,
    name: str,
    user: Any,
    slug: str | None = None,
    variant: str = "sochi",
    rule_overrides: Mapping[str, Any] | None = None,
    players_per_table: int = 4,
    deals_per_set: int | None = None,
    minutes_per_deal: int = 5,
    correction_minutes: int = 30,
    unequal_results: str = "neuberg",
    artificial: Mapping[str, Any] | None = None,
    starts_on: dt.date | None = None,
    venue: str = "",
    language: str = "ru",
    zone: str = "",
    form: str = "duplicate",
    confirmation: str = Confirmation.ALL,
    bidding_record: bool = False,
    now: dt.datetime,
) -> Tournament:
    """A new event (a duplicate one with its first session); the user who creates it directs it. Events of the
    other forms are created by ``pulkas.services.event``, which calls this first."""
    name = name.strip()
    if not name:
        raise UserError(_("Give the tournament a name."))
    if players_per_table not in (3, 4):
        raise UserError(_("A table seats 3 or 4 players (rules §1)."))
    check_rules(variant, rule_overrides, form)
    if slug and Tournament.objects.filter(slug=slug).exists():
        raise UserError(_("The short name “%(slug)s” is taken; choose another.") % {"slug": slug})
    tournament = Tournament.objects.create(
        name=name,
        slug=slug or unique_slug(name),
        variant=variant,
        rule_overrides=dict(rule_overrides or {}),
        players_per_table=players_per_table,
        deals_per_set=deals_per_set or players_per_table,
        minutes_per_deal=minutes_per_deal,
        correction_minutes=correction_minutes,
        unequal_results=unequal_results,
        artificial=check_artificial(artificial) if artificial is not None else default_artificial(),
        starts_on=starts_on,
        venue=venue,
        language=language,
        zone=check_zone(zone),
        form=form,
        confirmation=check_confirmation(confirmation),
        bidding_record=bool(bidding_record),
    )
    if getattr(user, "is_authenticated", False):
        tournament.directors.add(user)
    if form == "duplicate":
        Session.objects.create(tournament=tournament, number=1)
    log_action(
        tournament=tournament,
        action="tournament.create",
        user=user,
        obj=tournament,
        at=now,
        data={
            "slug": tournament.slug,
            "variant": variant,
            "players_per_table": players_per_table,
            "form": form,
        },
    )
    return tournament


@transaction.atomic
def director_add(*, now: dt.datetime, tournament: Tournament, username: str, user: Any) -> Any:
    tournament.ensure_not_locked()
    model = get_user_model()
    try:
        added = model.objects.get(**{model.USERNAME_FIELD: username.strip()})
    except model.DoesNotExist:
        raise UserError(
            _("There is no user “%(name)s”. Ask the administrator to create the account first.")
            % {"name": username}
        ) from None
    tournament.directors.add(added)
    log_action(
        tournament=tournament,
        action="tournament.director_add",
        user=user,
        obj=tournament,
        data={"director": added.get_username()},
        at=now,
    )
    return added


@transaction.atomic
def director_remove(*, now: dt.datetime, tournament: Tournament, director: Any, user: Any) -> None:
    tournament.ensure_not_locked()
    if tournament.directors.count() <= 1 and tournament.directors.filter(pk=director.pk).exists():
        raise UserError(_("A tournament keeps at least one director."))
    tournament.directors.remove(director)
    log_action(
        tournament=tournament,
        action="tournament.director_remove",
        user=user,
        obj=tournament,
        data={"director": director.get_username()},
        at=now,
    )


@transaction.atomic
def session_add(*, now: dt.datetime, tournament: Tournament, user: Any) -> Session:
    """Another session of the event (a new movement and boards, results added to the same standings)."""
    tournament.ensure_not_locked()
    last = tournament.sessions.order_by("-number").first()
    session = Session.objects.create(tournament=tournament, number=(last.number if last else 0) + 1)
    log_action(tournament=tournament, action="session.create", user=user, obj=session, at=now)
    return session


def current_session(tournament: Tournament) -> Session | None:
    """The session a director is working on: the first not finished, else the last one."""
    sessions = list(tournament.sessions.order_by("number"))
    for session in sessions:
        if session.status != Session.Status.FINISHED:
            return session
    return sessions[-1] if sessions else None


_TRANSLIT = str.maketrans(
    {
        **dict(zip("абвгдезийклмнопрстуфыэ", "abvgdezijklmnoprstufye", strict=True)),
        "ё": "e",
        "ж": "zh",
        "х": "kh",
        "ц": "ts",
        "ч": "ch",
        "ш": "sh",
        "щ": "shch",
        "ъ": "",
        "ь": "",
        "ю": "yu",
        "я": "ya",
    }
)


def unique_slug(name: str) -> str:
    """A short Latin name for addresses: «Кубок клуба 2026» → ``kubok-kluba-2026``, unique."""
    base = slugify(name.lower().translate(_TRANSLIT))[:60].strip("-") or "tournament"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug
