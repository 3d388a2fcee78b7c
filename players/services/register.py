"""The player register: linking the participants of an event to persons, merging duplicates, the register's
file (import and export rows).

Rules (docs/players/register.md):

- A participant is **linked by federation number** — exact, after trimming — to the one person (not merged)
  holding it; a number the register does not know yet makes a new person. :func:`link_event` does this for
  every participant of an event without a person; the participants import and the bundle import call it.
- A director's number (or choice) naming a person who already exists only **proposes** the link
  (``Participant.proposed_person``) unless :func:`may_link_directly`: the register's staff confirm or refuse it
  (``players.services.links``). Only a confirmed link (``Participant.person``) counts in a person's history,
  master points and rating: a stranger's event never writes into someone's public page.
- Without a number a participant is only **proposed** persons of the same name (case, «ё»/«е» and spaces do not
  count), those of the same club or city first; the director confirms one (:func:`link`) or makes a new person
  (:func:`link_new`). A name alone never links.
- :func:`merge` moves every participation, master-point award and rating entry of a duplicate to the person
  that stays and marks the duplicate ``merged_into`` it; audited in every event concerned and in the site's log.
- A person's **declared rating** (a federation's or a club's, 0 to 4000, with its source) is kept apart from the
  computed rating (``players.services.ratings``); typed on the person's form, imported with the register's file
  or from an event's participants list (:func:`declare_event_ratings`).
- The register's file (columns name, club, city, federation number, rating, its source) is imported all or nothing
  (:func:`plan_import` reads and checks, :func:`apply_import` saves), bounded as the participants import is,
  idempotent, and updates the persons it finds by federation number.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from players.models import MasterPointAward, Person, RatingEntry
from preferans.bundle.bounds import TEXT_MAX, strip_controls
from tournaments.audit import log_action
from tournaments.errors import Detail, UserError
from tournaments.models import Participant, Tournament
from tournaments.participant_fields import rating_problem, rating_text

FEDERATION_ID_MAX = 64  # Person.federation_id


# -- who may ------------------------------------------------------------------------------------------------
def can_edit_register(user: Any) -> bool:
    """The register is site-wide: staff users, or users given the permission ``players.change_person``."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff or user.has_perm("players.change_person"))


def can_see_register(user: Any) -> bool:
    """Those who edit it, and the directors of any event (they link their participants to it)."""
    if can_edit_register(user):
        return True
    return bool(
        getattr(user, "is_authenticated", False) and Tournament.objects.filter(directors=user).exists()
    )


# -- matching -----------------------------------------------------------------------------------------------
def clean(value: str) -> str:
    """Text as typed: control characters out, spaces trimmed and single."""
    return " ".join(strip_controls(value).split())


def name_key(name: str) -> str:
    """A name as compared: case, «ё»/«е» and spaces do not count («Сёмин  иван» is «семин иван»)."""
    return " ".join(clean(name).casefold().replace("ё", "е").split())


def by_federation_id(federation_id: str) -> Person | None:
    """The person (not merged) holding this federation number, exactly after trimming."""
    number = clean(federation_id)
    if not number:
        return None
    return Person.objects.filter(federation_id=number, merged_into__isnull=True).first()


def _index() -> dict[str, list[Person]]:
    index: dict[str, list[Person]] = {}
    for person in Person.objects.filter(merged_into__isnull=True).order_by("name", "pk"):
        index.setdefault(name_key(person.name), []).append(person)
    return index


def _near(participant: Participant, person: Person) -> bool:
    """Same club or city: the participant's one «club» field (often a city) against the person's two."""
    where = name_key(participant.club)
    return bool(where) and where in {name_key(person.club), name_key(person.city)} - {""}


def proposals(participant: Participant, index: dict[str, list[Person]] | None = None) -> list[Person]:
    """Persons of the participant's name, those of the same club or city first; nothing when the name is empty."""
    key = name_key(participant.name)
    if not key:
        return []
    found = (index if index is not None else _index()).get(key, [])
    return sorted(found, key=lambda p: (not _near(participant, p), p.name, p.pk))


@dataclass(frozen=True)
class LinkRow:
    """A participant of the event's link page: his person, the link awaiting the register's staff, or the
    persons proposed for him."""

    participant: Participant
    person: Person | None
    proposed: tuple[Person, ...]
    awaiting: Person | None = None


def link_rows(tournament: Tournament) -> list[LinkRow]:
    index = _index()
    rows = []
    for p in tournament.participants.select_related("person", "proposed_person").order_by("number"):
        hold = p.person_id or p.proposed_person_id
        rows.append(LinkRow(p, p.person, () if hold else tuple(proposals(p, index)), p.proposed_person))
    return rows


def may_link_directly(user: Any, person: Person) -> bool:
    """The register's staff link anyone; a director only a person every confirmed event of whom he directs (a
    person his own events made); anyone else (a command without a user included) only proposes."""
    if can_edit_register(user):
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    played = Participant.objects.filter(person=person)
    return played.exists() and not played.exclude(tournament__directors=user).exists()


@dataclass(frozen=True)
class LinkReport:
    linked: int = 0  # to a person already in the register
    created: int = 0  # persons made for numbers the register did not know
    proposed: int = 0  # links awaiting the register's staff


def link_event(
    tournament: Tournament, *, now: dt.datetime, user: Any = None, trusted: bool = False
) -> LinkReport:
    """Link every participant without a person who has a federation number (a new number: a new person; a person
    the register holds: proposed unless :func:`may_link_directly` or ``trusted`` — the site's operator restoring
    its backups or seeding its demo). Participants without a number are left for the director."""
    linked = created = proposed = 0
    with transaction.atomic():
        todo = (
            tournament.participants.filter(person__isnull=True, proposed_person__isnull=True)
            .exclude(federation_id="")
            .order_by("number")
        )
        for participant in todo:
            number = clean(participant.federation_id)
            if not number or len(number) > FEDERATION_ID_MAX:
                continue
            person = by_federation_id(number)
            if person is None:
                person = Person.objects.create(
                    name=clean(participant.name)[:TEXT_MAX] or number,
                    club=clean(participant.club)[:TEXT_MAX],
                    federation_id=number,
                )
                created += 1
            elif person.pk == participant.refused_person_id:
                continue  # the register's staff said no
            elif not trusted and not may_link_directly(user, person):
                participant.proposed_person = person
                participant.save(update_fields=["proposed_person"])
                proposed += 1
                continue
            else:
                linked += 1
            participant.person = person
            participant.save(update_fields=["person"])
        if linked or created or proposed:
            log_action(
                tournament=tournament,
                action="persons.link",
                user=user,
                actor="" if user else "register",
                obj=tournament,
                data={"linked": linked, "created": created, "proposed": proposed},
                at=now,
            )
    return LinkReport(linked, created, proposed)


def declare_event_ratings(
    tournament: Tournament, *, numbers: Iterable[int | None], now: dt.datetime, user: Any = None
) -> int:
    """The federation or club ratings an event's participants list gave (participants ``numbers``) become the
    declared ratings of the persons they are linked to, the event's name as the source (a newer list replaces an
    older rating; the software's choice). A participant not linked keeps his rating for this event only.
    Audited in the event's log; returns how many persons changed."""
    changed: list[int] = []
    with transaction.atomic():
        todo = (
            tournament.participants.filter(
                number__in=[n for n in numbers if n is not None],
                person__isnull=False,
                declared_rating__isnull=False,
            )
            .select_related("person")
            .order_by("number")
        )
        source = clean(tournament.name)[:TEXT_MAX]
        for participant in todo:
            person = participant.person
            assert person is not None
            if (person.declared_rating, person.declared_rating_source) == (
                participant.declared_rating,
                source,
            ):
                continue
            person.declared_rating, person.declared_rating_source = participant.declared_rating, source
            person.save(update_fields=["declared_rating", "declared_rating_source"])
            changed.append(participant.number)
        if changed:
            log_action(
                tournament=tournament,
                action="persons.rating",
                user=user,
                actor="" if user else "register",
                obj=tournament,
                data={"numbers": changed},
                at=now,
            )
    return len(changed)


@transaction.atomic
def link(*, participant: Participant, person: Person, user: Any, now: dt.datetime, new: bool = False) -> bool:
    """The director says that this participant is this person: linked when he may (:func:`may_link_directly`,
    or a person just made for him, ``new``), else proposed to the register's staff. True when linked."""
    if person.merged_into_id is not None:
        raise UserError(_("This person was merged into another: link the participant to that one."))
    before = participant.person_id
    direct = new or may_link_directly(user, person)
    if direct:
        participant.person, participant.proposed_person = person, None
    else:
        participant.person, participant.proposed_person = None, person
    participant.save(update_fields=["person", "proposed_person"])
    log_action(
        tournament=participant.tournament,
        action="person.link" if direct else "person.propose",
        user=user,
        obj=participant,
        data={"person": person.pk, "before": before},
        at=now,
    )
    return direct


@transaction.atomic
def link_new(*, participant: Participant, user: Any, now: dt.datetime) -> Person:
    """None of the proposals: the participant becomes a new person of the register."""
    number = clean(participant.federation_id)
    if number and by_federation_id(number) is not None:
        raise UserError(_("Federation number %(n)s is already in the register.") % {"n": number})
    person = Person.objects.create(
        name=clean(participant.name)[:TEXT_MAX] or str(participant.number),
        club=clean(participant.club)[:TEXT_MAX],
        federation_id=number[:FEDERATION_ID_MAX],
    )
    link(participant=participant, person=person, user=user, now=now, new=True)
    return person


@transaction.atomic
def unlink(*, participant: Participant, user: Any, now: dt.datetime) -> None:
    before = participant.person_id or participant.proposed_person_id
    participant.person = participant.proposed_person = None
    participant.save(update_fields=["person", "proposed_person"])
    log_action(
        tournament=participant.tournament,
        action="person.unlink",
        user=user,
        obj=participant,
        data={"before": before},
        at=now,
    )


# -- the site-wide log (persons belong to no event) ------------------------------------------------------------
def site_log(user: Any, person: Person | None, action: str, data: dict[str, Any]) -> None:
    """An entry of Django's admin log (who, when, which person — None: the register as a whole —, what), for
    changes no event holds."""
    if not getattr(user, "is_authenticated", False):
        return
    from django.contrib.admin.models import CHANGE, LogEntry
    from django.contrib.contenttypes.models import ContentType

    LogEntry.objects.create(
        user=user,
        content_type=ContentType.objects.get_for_model(Person),
        object_id=str(person.pk) if person else None,
        object_repr=str(person)[:200] if person else "register",
        action_flag=CHANGE,
        change_message=json.dumps({"action": action, **data}, ensure_ascii=False),
    )


# -- editing and merging ------------------------------------------------------------------------------------
def check_texts(name: str, club: str, city: str, federation_id: str) -> dict[str, str]:
    problems = {}
    if not name:
        problems["name"] = _("Give the name.")
    for field, value, bound in (
        ("name", name, TEXT_MAX),
        ("club", club, TEXT_MAX),
        ("city", city, TEXT_MAX),
        ("federation_id", federation_id, FEDERATION_ID_MAX),
    ):
        if len(value) > bound:
            problems[field] = ngettext(
                "Longer than %(n)s character.", "Longer than %(n)s characters.", bound
            ) % {"n": bound}
    return problems


def person_version(person: Person) -> str:
    """What a person's form showed (its fields, hashed): a save from an older page is refused, not laid over."""
    fields = [
        person.name,
        person.club,
        person.city,
        person.federation_id,
        rating_text(person.declared_rating),
        person.declared_rating_source,
    ]
    return hashlib.sha256(json.dumps(fields, ensure_ascii=False).encode()).hexdigest()[:16]


@transaction.atomic
def person_save(
    *,
    person: Person | None,
    name: str,
    club: str = "",
    city: str = "",
    federation_id: str = "",
    declared_rating: Decimal | None = None,
    declared_rating_source: str = "",
    seen: str = "",
    user: Any,
) -> Person:
    """Make or change a person; the federation number stays unique among persons not merged. The declared
    rating (a federation's or a club's, 0 to 4000, with its source) is the person's, apart from the computed one.
    ``seen``: :func:`person_version` of the person as the form showed him; someone else's save since is refused."""
    if person is not None:
        person = Person.objects.select_for_update().get(pk=person.pk)
        if seen and seen != person_version(person):
            raise UserError(
                _(
                    "Someone else changed this person meanwhile: look at the person as he is now, then save again."
                ),
                code="person_changed",
            )
    name, club, city, number = clean(name), clean(club), clean(city), clean(federation_id)
    source = clean(declared_rating_source)
    problems = check_texts(name, club, city, number)
    rating_wrong = None if declared_rating is None else rating_problem(declared_rating)
    if rating_wrong:
        problems["declared_rating"] = rating_wrong
    if len(source) > TEXT_MAX:
        problems["declared_rating_source"] = ngettext(
            "Longer than %(n)s character.", "Longer than %(n)s characters.", TEXT_MAX
        ) % {"n": TEXT_MAX}
    if number:
        holder = by_federation_id(number)
        if holder is not None and (person is None or holder.pk != person.pk):
            problems["federation_id"] = _("Federation number %(n)s belongs to %(p)s.") % {
                "n": number,
                "p": holder,
            }
    if problems:
        raise UserError(
            " ".join(problems.values()),
            code="person",
            details=[Detail(f, "invalid", m) for f, m in problems.items()],
        )
    if person is not None and person.merged_into_id is not None:
        raise UserError(_("This person was merged into another: change that one."))
    rating = rating_text(declared_rating)
    before = (
        None
        if person is None
        else [
            person.name,
            person.club,
            person.city,
            person.federation_id,
            rating_text(person.declared_rating),
            person.declared_rating_source,
        ]
    )
    person = person or Person()
    person.name, person.club, person.city, person.federation_id = name, club, city, number
    person.declared_rating, person.declared_rating_source = declared_rating, source if rating else ""
    person.save()
    after = [name, club, city, number, rating, person.declared_rating_source]
    site_log(user, person, "person.save", {"before": before, "after": after})
    return person


@transaction.atomic
def merge(*, keep: Person, drop: Person, user: Any, reason: str, now: dt.datetime) -> int:
    """Merge the duplicate ``drop`` into ``keep``: every participation, award and rating entry moves to ``keep``,
    ``drop`` points at ``keep``. Returns how many records moved. Refuses a person into himself, a merged person
    either way, two persons who played the same event, and a merge without a reason."""
    keep = Person.objects.select_for_update().get(pk=keep.pk)
    drop = Person.objects.select_for_update().get(pk=drop.pk)
    reason = clean(reason)
    if keep.pk == drop.pk:
        raise UserError(_("A person cannot be merged into himself."), code="merge_self")
    if keep.merged_into_id is not None or drop.merged_into_id is not None:
        raise UserError(_("This person was already merged into another."), code="merge_merged")
    if not reason:
        raise UserError(_("Say why these are one person."), code="merge_reason")
    both = set(keep.participations.values_list("tournament_id", flat=True)) & set(
        drop.participations.values_list("tournament_id", flat=True)
    )
    if both:
        names = ", ".join(
            Tournament.objects.filter(pk__in=both).order_by("name").values_list("name", flat=True)
        )
        raise UserError(
            _("Both played in the same event (%(events)s): they are two persons.") % {"events": names},
            code="merge_same_event",
        )
    events = list(Tournament.objects.filter(participants__person=drop).distinct().order_by("pk"))
    moved = Participant.objects.filter(person=drop).update(person=keep)
    Participant.objects.filter(proposed_person=drop).update(proposed_person=keep)
    moved += MasterPointAward.objects.filter(person=drop).update(person=keep)
    moved += RatingEntry.objects.filter(person=drop).update(person=keep)
    Person.objects.filter(merged_into=drop).update(merged_into=keep)  # earlier duplicates follow
    drop.merged_into = keep
    drop.save(update_fields=["merged_into"])
    if drop.federation_id and not keep.federation_id:  # the number goes with the person that stays
        keep.federation_id = drop.federation_id
        keep.save(update_fields=["federation_id"])
    if drop.declared_rating is not None and keep.declared_rating is None:  # so does a declared rating
        keep.declared_rating, keep.declared_rating_source = drop.declared_rating, drop.declared_rating_source
        keep.save(update_fields=["declared_rating", "declared_rating_source"])
    data = {
        "keep": keep.pk,
        "drop": drop.pk,
        "drop_name": drop.name,
        "drop_federation_id": drop.federation_id,
        "moved": moved,
    }
    for tournament in events:
        log_action(
            tournament=tournament,
            action="person.merge",
            user=user,
            obj=keep,
            data=data,
            reason=reason,
            at=now,
        )
    site_log(user, keep, "person.merge", data | {"reason": reason})
    return moved


# -- the register's list ----------------------------------------------------------------------------------------
def search(query: str) -> Any:
    """Persons not merged whose name, club, city or federation number contains the query."""
    people = Person.objects.filter(merged_into__isnull=True)
    query = clean(query)
    if query:
        # SQLite compares only ASCII letters without case: the query's usual spellings are tried as well.
        cases = {
            f(v)
            for v in (query, query.replace("ё", "е"), query.replace("е", "ё"), query.replace("Ё", "Е"))
            for f in (str, str.lower, str.upper, str.capitalize, str.title)
        }
        q = Q(federation_id=query)
        for v in cases:
            q |= Q(name__icontains=v) | Q(club__icontains=v) | Q(city__icontains=v)
        people = people.filter(q)
    return people.order_by("name", "pk")
