"""The federation file in and out of the database (docs/federation-file.md).

Export: an event's bundle (as ``export_bundle`` writes it), the persons its participants are linked to, the
standings computed from the stored results and the stored master points, as one checked file. Import: the file is
checked (:mod:`preferans.interchange.document`), then, in one transaction, the event is created by the bundle
import — the one write path of events, rows and scores — the participants are linked to persons of the register
by federation number (a person the register lacks is created), the master points are stored, and the standings
the database computes must equal the file's. Any problem refuses the whole file and nothing is saved.

This layer sits below ``tournaments.services`` (docs/architecture.md), so the bundle's export and import functions
are passed in by the caller (the commands ``export_federation`` and ``import_federation``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from django.db import transaction

from players.models import MasterPointAward, Person
from players.services.points import scheme_gives
from preferans.bundle.document import BundleInvalid
from preferans.duplicate.session_scoring import score_bundle
from preferans.duplicate.standings import out_of_the_ranking
from preferans.interchange.document import (
    FORMAT_NAME,
    FORMAT_VERSION,
    bundle_part,
    check_document,
    read_document,
    write_document,
)
from preferans.interchange.fields import DocumentInvalid, DocumentProblem
from preferans.numbers import format_fraction, parse_fraction
from preferans.ratings.master_points import MasterPointError, scheme_from_name
from preferans.series import carry_share
from scoring.rescore import rescore_tournament
from scoring.selectors import scoring_bundle
from scoring.session_totals import tournament_standings
from tournaments.models import Form, Participant, Tournament
from tournaments.participant_fields import clean_text

__all__ = ["BundleExport", "BundleImport", "export_event", "export_text", "import_event", "standings_of"]

BundleExport = Callable[[Tournament], dict[str, Any]]
"""``events.bundles.tournament_to_bundle``: the event as a bundle (formats.md §2)."""
BundleImport = Callable[..., Tournament]
"""``events.bundles.import_bundle(now=, data=, user=, slug=, starts_on=)``."""


# -- export -----------------------------------------------------------------------------------------------
def _person_of(participant: Participant) -> Person | None:
    person = participant.person
    seen: set[int] = set()
    while person is not None and person.merged_into_id is not None and person.pk not in seen:
        seen.add(person.pk)
        person = person.merged_into  # a duplicate merged away: the person that stays
    return person


def standings_of(tournament: Tournament) -> list[dict[str, Any]]:
    """The standings as the stored results give them (exact: matchpoints, maximum and percent as fraction
    strings; a disqualified participant has no place), as the file writes them."""
    scored = score_bundle(scoring_bundle(tournament))
    # As the rescore stores them: sessions totalled as the organisers chose, a final's carry-over.
    rows = out_of_the_ranking(tournament_standings(tournament, scored), tournament.disqualified_numbers())
    return [
        {
            "place": row.rank,
            "participant": row.participant,
            "matchpoints": format_fraction(row.matchpoints),
            "max": format_fraction(row.max),
            "percent": format_fraction(row.percent),
        }
        for row in rows
    ]


def export_event(tournament: Tournament, *, to_bundle: BundleExport) -> dict[str, Any]:
    """The event's federation file as checked plain data; :class:`DocumentInvalid` when the database holds
    something the format cannot carry (an event played in pulkas, a person linked to two participants)."""
    if tournament.form != Form.DUPLICATE:
        raise DocumentInvalid(
            [
                DocumentProblem(
                    "$.event.form", f"{tournament.form!r}: the federation file carries duplicate events"
                )
            ]
        )
    bundle = to_bundle(tournament)
    head = bundle["tournament"]
    links: dict[int, int] = {}
    persons: list[dict[str, Any]] = []
    refs: dict[int, int] = {}
    for participant in tournament.participants.select_related("person").order_by("number"):
        person = _person_of(participant)
        if person is None:
            continue
        if person.pk not in refs:
            refs[person.pk] = len(refs) + 1
            persons.append(
                {
                    "ref": refs[person.pk],
                    "name": person.name,
                    "club": person.club,
                    "city": person.city,
                    "federation_id": person.federation_id,
                }
            )
        links[participant.number] = refs[person.pk]
    awards = [
        {
            "participant": number,
            "points": format_fraction(parse_fraction(points)),
            "place": place,
            "scheme": scheme,
        }
        for number, points, place, scheme in MasterPointAward.objects.filter(tournament=tournament)
        .order_by("participant__number")
        .values_list("participant__number", "points", "place", "scheme")
    ]
    document = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "event": {
            **{
                key: head[key]
                for key in ("name", "variant", "rules", "players_per_table", "deals_per_set", "scoring")
            },
            "slug": tournament.slug,
            "starts_on": tournament.starts_on.isoformat() if tournament.starts_on else None,
            "venue": tournament.venue,
            "form": tournament.form,
            "session_totals": tournament.session_totals,
            "carry_over": _carry_over(tournament),
            "qualification": tournament.qualification.slug if tournament.qualification_id else None,
        },
        "persons": persons,
        "participants": [{**p, "person": links.get(p["number"])} for p in bundle["participants"]],
        "sessions": bundle["sessions"],
        "standings": standings_of(tournament),
        "master_points": awards,
    }
    return check_document(document)


def _carry_over(tournament: Tournament) -> str:
    """The share carried over as an exact fraction (the settings may store ``"0.5"``)."""
    try:
        return format_fraction(carry_share(tournament.carry_over or "0"))
    except (ValueError, ZeroDivisionError):  # the settings form refuses it; an oddity carries nothing
        return "0"


def export_text(tournament: Tournament, *, to_bundle: BundleExport) -> str:
    """The file's canonical text (UTF-8 JSON, keys sorted)."""
    return write_document(export_event(tournament, to_bundle=to_bundle))


# -- import -----------------------------------------------------------------------------------------------
def import_event(
    source: str | bytes | Mapping[str, Any],
    *,
    import_bundle: BundleImport,
    now: dt.datetime,
    slug: str | None = None,
    user: Any = None,
    link_existing: bool = False,
) -> Tournament:
    """Create the event of a federation file; :class:`DocumentInvalid` (every problem, nothing saved) when
    the file is bad, its short name is taken, its standings do not follow from its results, its master points
    are not what its stated scheme gives those standings, or it names a person the register holds already
    and ``link_existing`` (the register's staff vouching for the file) is not given."""
    document = check_document(source) if isinstance(source, Mapping) else read_document(source)
    event = document["event"]
    slug = slug or event["slug"]
    if slug and Tournament.objects.filter(slug=slug).exists():
        raise DocumentInvalid(
            [
                DocumentProblem(
                    "$.event.slug", f"an event named {slug!r} exists — import under another short name"
                )
            ]
        )
    qualification = None
    if event["qualification"]:
        qualification = Tournament.objects.filter(slug=event["qualification"]).first()
        if qualification is None:
            raise DocumentInvalid(
                [
                    DocumentProblem(
                        "$.event.qualification",
                        f"no event named {event['qualification']!r} here — import the qualification first",
                    )
                ]
            )
    starts_on = dt.date.fromisoformat(event["starts_on"]) if event["starts_on"] else None
    numbers = [p["federation_id"] for p in document["persons"] if p["federation_id"]]
    known = set(
        Person.objects.filter(federation_id__in=numbers, merged_into__isnull=True).values_list(
            "federation_id", flat=True
        )
    )
    try:
        with transaction.atomic():
            tournament = import_bundle(
                now=now, data=bundle_part(document), user=user, slug=slug, starts_on=starts_on
            )
            _settings(tournament, event, qualification, now=now)
            people = _link_persons(tournament, document, known, link_existing=link_existing)
            _check_standings(tournament, document)
            _store_awards(tournament, document, people, now=now)
    except BundleInvalid as exc:
        raise DocumentInvalid(
            [DocumentProblem("$.sessions", str(problem)) for problem in exc.problems]
        ) from exc
    return tournament


def _settings(
    tournament: Tournament, event: Mapping[str, Any], qualification: Tournament | None, *, now: dt.datetime
) -> None:
    tournament.venue = clean_text(event["venue"])
    tournament.session_totals = event["session_totals"]
    tournament.carry_over = event["carry_over"]
    tournament.qualification = qualification
    tournament.save(update_fields=["venue", "session_totals", "carry_over", "qualification"])
    if event["session_totals"] != "matchpoints" or qualification is not None:
        rescore_tournament(tournament_id=tournament.pk, now=now)  # the totals the organisers chose


def _link_persons(
    tournament: Tournament, document: Mapping[str, Any], known: set[str], *, link_existing: bool
) -> dict[int, Person]:
    """participant number → person: the register's person with the federation number (as the register had
    it before the import: linked, never rewritten — only with ``link_existing``, else the file is refused),
    else a new person as the file writes him (the bundle import's register hook may have made him from the
    participant's name a moment ago: he gets the file's)."""
    strangers = [
        DocumentProblem(
            f"$.persons[{index}].federation_id",
            f"{item['federation_id']!r} is a person of the register already: import with --link-existing "
            "to link the file's events to him (the register's staff vouch for the file)",
        )
        for index, item in enumerate(document["persons"])
        if item["federation_id"] in known
    ]
    if strangers and not link_existing:
        raise DocumentInvalid(strangers)
    by_ref: dict[int, Person] = {}
    for item in document["persons"]:
        person = None
        fields = {k: clean_text(item[k]) for k in ("name", "club", "city")}  # as the web forms clean them
        if item["federation_id"]:
            person = Person.objects.filter(
                federation_id=item["federation_id"], merged_into__isnull=True
            ).first()
            if person is not None and item["federation_id"] not in known:
                Person.objects.filter(pk=person.pk).update(**fields)
        if person is None:
            person = Person.objects.create(**fields, federation_id=item["federation_id"])
        by_ref[item["ref"]] = person
    people: dict[int, Person] = {}
    for participant in document["participants"]:
        if participant["person"] is not None:
            people[participant["number"]] = by_ref[participant["person"]]
            Participant.objects.filter(tournament=tournament, number=participant["number"]).update(
                person=by_ref[participant["person"]], proposed_person=None
            )
    return people


def _store_awards(
    tournament: Tournament, document: Mapping[str, Any], people: Mapping[int, Person], *, now: dt.datetime
) -> None:
    """The file's master points, each checked against what the scheme it states gives the event's standings
    (a scheme is bounded: docs/players/master-points.md); one award the scheme does not give refuses the file."""
    participants = dict(tournament.participants.values_list("number", "pk"))
    problems: list[DocumentProblem] = []
    given: dict[str, dict[int, Fraction]] = {}
    for index, item in enumerate(document["master_points"]):
        where = f"$.master_points[{index}]"
        if item["scheme"] not in given:
            try:
                given[item["scheme"]] = scheme_gives(tournament, scheme_from_name(item["scheme"]))
            except MasterPointError as exc:
                problems.append(
                    DocumentProblem(f"{where}.scheme", f"not a scheme this software gives: {exc}")
                )
                given[item["scheme"]] = {}
                continue
        if not given[item["scheme"]]:
            continue
        expected = given[item["scheme"]].get(item["participant"], Fraction(0))
        if parse_fraction(item["points"]) != expected:
            problems.append(
                DocumentProblem(
                    f"{where}.points",
                    f"participant {item['participant']}: the scheme gives {format_fraction(expected)}, "
                    f"the file says {item['points']}",
                )
            )
        if item["participant"] not in people:
            problems.append(DocumentProblem(f"{where}.participant", "not linked to a person of the file"))
    if problems:
        raise DocumentInvalid(problems)
    MasterPointAward.objects.bulk_create(
        MasterPointAward(
            person=people[award["participant"]],
            tournament=tournament,
            participant_id=participants[award["participant"]],
            points=award["points"],
            place=award["place"],
            scheme=award["scheme"],
            computed_at=now,
        )
        for award in document["master_points"]
    )


def _check_standings(tournament: Tournament, document: Mapping[str, Any]) -> None:
    """A file's standings must be the ones its results give (the file is one event, not two stories)."""
    given = document["standings"]
    if not given:
        return
    computed = standings_of(tournament)
    if given == computed:
        return
    by_number = {line["participant"]: line for line in computed}
    problems = []
    for index, line in enumerate(given):
        mine = by_number.get(line["participant"])
        if line != mine:
            problems.append(
                DocumentProblem(
                    f"$.standings[{index}]",
                    f"participant {line['participant']}: the results give "
                    + (
                        f"place {mine['place'] or '—'}, {mine['matchpoints']} of {mine['max']}, "
                        f"{mine['percent']} %"
                        if mine
                        else "no line"
                    ),
                )
            )
    if len(given) != len(computed) or not problems:
        problems.append(
            DocumentProblem("$.standings", f"the results give {len(computed)} lines in another order")
        )
    raise DocumentInvalid(problems)
