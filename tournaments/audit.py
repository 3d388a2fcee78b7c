"""The audit trail, either form: every change to results, deals, adjustments and penalties says who, when, what
and why. It is written here (``log_action``, with the actor named by ``player_actor`` / ``participant_actor``) in
no language, and read here in the reader's language (``entry_words``): every audit page, of a duplicate event or
of a pulka event, says an entry alike.

The words fit any actor: an action is a noun phrase or a participle agreeing with its object («Результат
подтверждён», «Сдача записана»), never a verb in the actor's gender («Ершова … подтвердил»).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Required, TypedDict, Unpack

from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.models import AuditEntry, Participant, Tournament


# -- writing --------------------------------------------------------------------------------------------
class AuditFields(TypedDict, total=False):
    """What an audit entry says: which tournament, what was done (``action``), by whom (``user``, or ``actor``
    naming who acted), to what (``obj``), with which facts (``data``), why (``reason``) and when (``at``)."""

    tournament: Required[Tournament]
    action: Required[str]
    user: Any
    actor: str
    obj: object | None
    data: dict[str, Any] | None
    reason: str
    at: dt.datetime | None


def log_action(**fields: Unpack[AuditFields]) -> AuditEntry:
    """Write one audit entry. ``user`` is a Django user or None (then ``actor`` names who acted)."""
    entry = audit_entry(**fields)
    entry.save(force_insert=True)
    return entry


def audit_entry(
    *,
    tournament: Tournament,
    action: str,
    user: Any = None,
    actor: str = "",
    obj: object | None = None,
    data: dict[str, Any] | None = None,
    reason: str = "",
    at: dt.datetime | None = None,
) -> AuditEntry:
    """An unsaved audit entry, for writing several in one statement (``AuditEntry.objects.bulk_create``)."""
    if user is not None and not getattr(user, "is_authenticated", False):
        user = None
    if not actor and user is not None:
        actor = user.get_username()
    return AuditEntry(
        tournament=tournament,
        at=at or timezone.now(),
        user=user,
        actor=actor[:200],
        action=action,
        object_repr=str(obj)[:200] if obj is not None else "",
        data=data or {},
        reason=reason,
    )


def player_actor(participant: Participant, *, table: int, seat: str) -> str:
    """A player acting at a table of either form, as the audit stores him: «3 Ivanov · 1/S» (number and name ·
    table/seat), in no language."""
    return f"{participant.number} {participant.name}".strip() + f" · {table}/{seat}"


def participant_actor(participant: Participant) -> str:
    """A participant acting away from a table (an appeal, a correction he asks for): «participant 7»."""
    return f"participant {participant.number}"


# -- reading: the words of an entry ---------------------------------------------------------------------
# What each action code means, in the reader's language; the pages show these words and keep the code itself in a
# tooltip. ``tests/tournaments/test_audit_words.py`` finds every code the code base logs and checks it is here.
ACTION_LABELS: dict[str, Promise] = {
    "tournament.create": gettext_lazy("Tournament created"),
    "tournament.settings": gettext_lazy("Settings changed"),
    "tournament.import": gettext_lazy("Tournament imported"),
    "tournament.rescore": gettext_lazy("Standings recomputed"),
    "export.run_now": gettext_lazy("File made without a background worker"),
    "analysis.run_now": gettext_lazy("Analysis run without a background worker"),
    "tournament.lock": gettext_lazy("Tournament locked"),
    "tournament.unlock": gettext_lazy("Tournament unlocked"),
    "tournament.director_add": gettext_lazy("Director added"),
    "tournament.director_remove": gettext_lazy("Director removed"),
    "master_points.award": gettext_lazy("Master points awarded"),
    "master_points.recompute": gettext_lazy("Master points recomputed"),
    "master_points.series": gettext_lazy("Series deciding the master points chosen"),
    "session.create": gettext_lazy("Session added"),
    "session.movement": gettext_lazy("Movement chosen"),
    "round.start": gettext_lazy("Round started"),
    "round.end": gettext_lazy("Round ended"),
    "round.duplication": gettext_lazy(
        "Table set to duplicate the boards without playing them, or to play them"
    ),
    "round.late_board": gettext_lazy("Board to be played later recorded"),
    "participant.create": gettext_lazy("Participant registered"),
    "participant.update": gettext_lazy("Participant changed"),
    "participant.delete": gettext_lazy("Participant deleted"),
    "participant.suspend": gettext_lazy("Player suspended"),
    "participant.disqualify": gettext_lazy("Player disqualified"),
    "participant.pin_unlock": gettext_lazy("PIN lock cleared"),
    "sanction.withdraw": gettext_lazy("Sanction withdrawn"),
    "participants.import": gettext_lazy("Participants imported"),
    "participants.pins": gettext_lazy("PINs issued"),
    "participants.draw": gettext_lazy("Initial seating drawn"),
    "person.link": gettext_lazy("Participant linked to a person of the register"),
    "person.unlink": gettext_lazy("Participant's link to the register removed"),
    "person.propose": gettext_lazy("Link to a person of the register proposed to the register's staff"),
    "person.confirm": gettext_lazy("Proposed link to a person of the register confirmed"),
    "person.refuse": gettext_lazy("Proposed link to a person of the register refused"),
    "person.merge": gettext_lazy("Two persons of the register merged into one"),
    "persons.link": gettext_lazy("Participants linked to the register"),
    "persons.rating": gettext_lazy(
        "Federation or club ratings from the list given to the register's persons"
    ),
    "result.create": gettext_lazy("Result recorded"),
    "result.update": gettext_lazy("Result corrected"),
    "result.delete": gettext_lazy("Result deleted"),
    "result.confirm": gettext_lazy("Result confirmed"),
    "result.dispute": gettext_lazy("Result disputed"),
    "penalty.create": gettext_lazy("Penalty given"),
    "penalty.update": gettext_lazy("Penalty changed"),
    "penalty.delete": gettext_lazy("Penalty withdrawn"),
    "board.layout": gettext_lazy("Layout recorded"),
    "board.played_layout": gettext_lazy("Layout played at a table recorded"),
    "board.fouled": gettext_lazy("Board marked fouled"),
    "board.unfouled": gettext_lazy("Board no longer fouled"),
    "publication.draft": gettext_lazy("Publication withdrawn"),
    "publication.provisional": gettext_lazy("Provisional results published"),
    "publication.official": gettext_lazy("Official results published"),
    "publication.final": gettext_lazy("Results made final"),
    "irregularity.record": gettext_lazy("Ruling recorded"),
    "irregularity.revise": gettext_lazy("Ruling revised"),
    "irregularity.apply": gettext_lazy("Ruling applied"),
    "irregularity.dismiss": gettext_lazy("Ruling dismissed"),
    "appeal.notice": gettext_lazy("Appeal announced"),
    "appeal.file": gettext_lazy("Appeal filed"),
    "appeal.admit": gettext_lazy("Appeal admitted"),
    "appeal.refuse": gettext_lazy("Appeal refused"),
    "appeal.comment": gettext_lazy("Director's comment on the appeal"),
    "appeal.hear": gettext_lazy("Appeal heard"),
    "appeal.decide": gettext_lazy("Appeal decision taken"),
    "appeal.sign": gettext_lazy("Appeal decision signed"),
    "appeal.apply": gettext_lazy("Appeal decision applied"),
    "appeal.close": gettext_lazy("Appeal closed"),
    "appeal.withdraw": gettext_lazy("Appeal withdrawn"),
    "correction.request": gettext_lazy("Correction requested"),
    "correction.apply": gettext_lazy("Correction applied"),
    "correction.refuse": gettext_lazy("Correction refused"),
    "appeals.settings": gettext_lazy("Appeal settings changed"),
    "committee.add": gettext_lazy("Committee member added"),
    "committee.elect": gettext_lazy("Appeals committee elected by vote"),
    "committee.remove": gettext_lazy("Committee member removed"),
    "pulka_event_created": gettext_lazy("Event form and settings chosen"),
    "pulka_event_imported": gettext_lazy("Event imported"),
    "pulka_settings_changed": gettext_lazy("Settings changed"),
    "pulka_round_drawn": gettext_lazy("Round drawn"),
    "pulka_round_undrawn": gettext_lazy("Round draw cancelled"),
    "pulka_round_started": gettext_lazy("Round started"),
    "pulka_round_ended": gettext_lazy("Round ended"),
    "pulka_tie_decided": gettext_lazy("Tie decided"),
    "pulka_olympic_decision": gettext_lazy("Olympic: the second-placed sent on by decision"),
    "pulka_deal_entered": gettext_lazy("Deal recorded"),
    "pulka_deal_confirmed": gettext_lazy("Deal confirmed"),
    "pulka_deal_corrected": gettext_lazy("Deal corrected"),
    "pulka_table_stopped": gettext_lazy("Table stopped"),
    "pulka_table_reopened": gettext_lazy("Table reopened"),
    "pulka_time_extended": gettext_lazy("Time limit extended"),
    "pulka_correction_confirmed": gettext_lazy("Correction confirmed: warning or penalty applied"),
}

# The kinds an audit page filters by (a code's prefix), in words.
KIND_LABELS: dict[str, Promise] = {
    "result.": gettext_lazy("results"),
    "penalty.": gettext_lazy("penalties"),
    "board.": gettext_lazy("boards"),
    "round.": gettext_lazy("rounds"),
    "publication.": gettext_lazy("publication"),
    "appeal.": gettext_lazy("appeals"),
    "irregularity.": gettext_lazy("rulings"),
    "correction.": gettext_lazy("corrections"),
    "committee.": gettext_lazy("appeals committee"),
    "appeals.": gettext_lazy("appeal settings"),
    "pulka_deal_": gettext_lazy("deals"),
    "pulka_round_": gettext_lazy("rounds"),
    "pulka_table_": gettext_lazy("tables"),
}

# Who acted when it was no person: the stored code and its words.
SYSTEM_ACTORS: dict[str, Promise] = {
    "import_bundle": gettext_lazy("file import"),
    "manage.py publish": gettext_lazy("the command line (manage.py publish)"),
    "register": gettext_lazy("players' register"),
    "system": gettext_lazy("automatic recount"),
}

# Reasons the code base itself writes (in English, in no language): their words. People's reasons are shown as typed.
SYSTEM_REASONS: dict[str, Promise] = {
    "corrected by the player at N before confirmation": gettext_lazy(
        "corrected by the player at N before anybody confirmed it"
    ),
    "time limit": gettext_lazy("the round's time limit"),
    "results changed after they became final": gettext_lazy("the results changed after they became final"),
    "the series' master-point scheme changed": gettext_lazy("the series' master-point scheme changed"),
    "rebuild_players: computed again": gettext_lazy("computed again from the stored results"),
    "missing protocol row: assigned result (general provisions)": gettext_lazy(
        "the protocol had no record of the board: assigned result (general provisions)"
    ),
    "the director's ruling on a wrong board (§11.6 A.2)": gettext_lazy(
        "the director's ruling on a wrong board (§11.6 A.2)"
    ),
}

# A player at a table, either form: «3 Ivanov · 1/S»; before issue 17, in English «3 Ivanov (table 1, seat S)»;
# a pulka player before the forms were joined, «3 Ivanov (seat S)» (his table is in the entry's data).
_AT_TABLE = re.compile(
    r"^(?P<who>.+?)(?: · (?P<table>\d+)/(?P<seat>[NESW])"
    r"| \(table (?P<old_table>\d+), seat (?P<old_seat>[NESW])\)| \(seat (?P<pulka_seat>[NESW])\))$"
)
_PARTICIPANT = re.compile(r"^participant (\d+)$")
# The objects' stored descriptions (``object_repr``, written in English by the models' ``__str__``).
_RESULT_REPR = re.compile(r"^board (\d+), table (\d+), round (\d+)$")
_NUMBERED_REPR = re.compile(r" — \d+ / (\d+)$")  # a session's round or board: «Cup — 1 / 3»
_SESSION_REPR = re.compile(r" — (\d+)$")  # a session: «Cup — 2»
_CORRECTION_REPR = re.compile(r"^correction (\d+): (?:deal (\d+)|board (\d+|—))$")


@dataclass(frozen=True)
class EntryWords:
    """An audit entry as a page shows it: who, what, to what, why (empty when the entry does not say)."""

    who: str
    what: str
    object: str
    why: str


def entry_words(entry: AuditEntry) -> EntryWords:
    """The entry in the reader's language (the active one): the one reading every audit page uses."""
    data = entry.data if isinstance(entry.data, Mapping) else {}
    who = actor_words(entry.actor, data)
    if not who and entry.user_id is not None and entry.user is not None:
        who = entry.user.get_username()
    return EntryWords(
        who=who,
        what=action_label(entry.action),
        object=object_label(entry.action, entry.object_repr, data),
        why=reason_words(entry.reason),
    )


def action_label(code: str) -> str:
    """The words for an action code («result.create» → «Result recorded») or a kind of codes («result.» →
    «results»); a code nobody gave words yet is shown as it is (the test of every logged code catches it)."""
    label = ACTION_LABELS.get(code) or KIND_LABELS.get(code)
    return str(label) if label is not None else code


def actor_words(actor: str, data: Mapping[str, Any] | None = None) -> str:
    """Who acted, in words: a player at a table «3 Иванов (стол 1, позиция S)», a participant «участник 7», the
    system's own work in words; a director's login as it is."""
    actor = actor or ""
    if found := _AT_TABLE.match(actor):
        table = found["table"] or found["old_table"] or (data or {}).get("table")
        seat = found["seat"] or found["old_seat"] or found["pulka_seat"]
        if table is None:
            return _("%(who)s (seat %(seat)s)") % {"who": found["who"], "seat": seat}
        return _("%(who)s (table %(table)s, seat %(seat)s)") % {
            "who": found["who"],
            "table": table,
            "seat": seat,
        }
    if found := _PARTICIPANT.match(actor):
        return _("participant %(n)s") % {"n": found[1]}
    system = SYSTEM_ACTORS.get(actor)
    return str(system) if system is not None else actor


def object_label(action: str, text: str, data: Mapping[str, Any] | None = None) -> str:
    """What the entry is about, in words: «board 9, table 1, round 3», a pulka's «round 1, table 3, deal 2»."""
    data = data or {}
    if action.startswith(("pulka_deal_", "pulka_table_", "pulka_tie_", "pulka_round_")):
        return _pulka_place(action, data) or text
    if m := _RESULT_REPR.match(text):
        return _("board %(b)s, table %(t)s, round %(r)s") % {"b": m[1], "t": m[2], "r": m[3]}
    if m := _CORRECTION_REPR.match(text):
        if m[2]:
            return _("correction %(n)s: deal %(d)s") % {"n": m[1], "d": m[2]}
        return _("correction %(n)s: board %(b)s") % {"n": m[1], "b": m[3]}
    m = _NUMBERED_REPR.search(text)
    if m and action.startswith("round."):
        return _("round %(n)s") % {"n": m[1]}
    if m and action.startswith("board."):
        return _("board %(n)s") % {"n": m[1]}
    if (m := _SESSION_REPR.search(text)) and action.startswith("session."):
        return _("session %(n)s") % {"n": m[1]}
    return text


def _pulka_place(action: str, data: Mapping[str, Any]) -> str:
    """A pulka entry's round, table and deal, from the facts it stores."""
    parts = {k: data.get(k) for k in ("round", "table", "deal")}
    if not isinstance(parts["round"], int):
        return ""
    if (
        action.startswith("pulka_deal_")
        and isinstance(parts["table"], int)
        and isinstance(parts["deal"], int)
    ):
        return _("round %(r)s, table %(t)s, deal %(d)s") % {
            "r": parts["round"],
            "t": parts["table"],
            "d": parts["deal"],
        }
    if isinstance(parts["table"], int) and not action.startswith("pulka_round_"):
        return _("round %(r)s, table %(t)s") % {"r": parts["round"], "t": parts["table"]}
    return _("round %(n)s") % {"n": parts["round"]}


def reason_words(reason: str) -> str:
    """Why, in words: a reason the code base writes itself in the reader's language; a person's as typed."""
    system = SYSTEM_REASONS.get(reason or "")
    return str(system) if system is not None else reason or ""


def require_reason(reason: str) -> None:
    """A step that cannot be undone, confirmed on a page, carries the director's reason into the audit."""
    from tournaments.errors import UserError

    if not reason.strip():
        raise UserError(
            _("Write the reason and confirm: this step cannot be undone."), code="reason_required"
        )
