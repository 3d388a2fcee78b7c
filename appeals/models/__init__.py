"""Irregularities, rulings, appeals and corrections (rules §1, §10–§13, Appendix B).

Where a matter happened is one of two «where»s, matching the tournament's form: at a duplicate event the
session, round, table and board (``session``, ``round_number``, ``table_number``, ``board_number``); at an
event played in pulkas (Olympic, compensation, Swiss) the pulka table and the deal on its sheet
(``pulka_table``, ``deal_number``; ``round_number`` and ``table_number`` repeat the table's, for lists). A check
constraint keeps exactly one of them; that it is the tournament's own form is checked by the services (a check
constraint cannot look at the tournament's row).

Every change to a score these make is a :class:`ScoreChange` row: planned when the ruling, decision or
correction is made, applied through the one result write path (``scoring.rows``) and linked to the audit
entry it wrote. The workflows live in :mod:`appeals.services`; these models only store the facts. The
committee and the vote that elected it are in :mod:`appeals.models.committee`.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from appeals.models.committee import CommitteeElection as CommitteeElection
from appeals.models.committee import CommitteeMember
from preferans.duplicate.deadlines import DEFAULT_FILING_MINUTES


def one_where(name: str, *, board: bool | None, deal: bool) -> models.CheckConstraint:
    """Exactly one «where»: a session (and then no pulka table nor deal), or a pulka table (and then no session
    nor board). ``board``/``deal``: whether the board (duplicate) or the deal (pulka) is required there (None:
    the board is optional)."""
    duplicate = Q(session__isnull=False, pulka_table__isnull=True, deal_number__isnull=True)
    if board:
        duplicate &= Q(board_number__isnull=False)
    pulka = Q(session__isnull=True, pulka_table__isnull=False, board_number__isnull=True)
    # NULL >= 1 is unknown, which a CHECK lets pass: a required deal is also said to be not null.
    pulka &= (
        Q(deal_number__isnull=False, deal_number__gte=1)
        if deal
        else (Q(deal_number__isnull=True) | Q(deal_number__gte=1))
    )
    return models.CheckConstraint(condition=duplicate | pulka, name=name)


def _pulka_table_field() -> models.ForeignKey:  # type: ignore[type-arg]
    return models.ForeignKey(
        "pulkas.PulkaTable",
        models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("pulka table"),
    )


def _deal_field() -> models.PositiveSmallIntegerField:  # type: ignore[type-arg]
    return models.PositiveSmallIntegerField(_("deal"), null=True, blank=True)


def _session_field(related_name: str) -> models.ForeignKey:  # type: ignore[type-arg]
    return models.ForeignKey(
        "tournaments.Session", models.CASCADE, null=True, blank=True, related_name=related_name
    )


class Where:
    """What the four matters share about their «where» (see the module's docstring)."""

    pulka_table_id: int | None
    deal_number: int | None
    board_number: int | None

    @property
    def is_pulka(self) -> bool:
        return self.pulka_table_id is not None

    @property
    def deal_or_board(self) -> int | None:
        """The deal of a pulka, or the board of a duplicate session."""
        return self.deal_number if self.is_pulka else self.board_number


class AppealSettings(models.Model):
    """Deadlines and the appeals committee of one tournament (defaults from the rules, §1)."""

    tournament = models.OneToOneField(
        "tournaments.Tournament", models.CASCADE, related_name="appeal_settings", verbose_name=_("tournament")
    )
    filing_minutes = models.PositiveSmallIntegerField(
        _("appeals close, minutes after the end of the session"), default=DEFAULT_FILING_MINUTES
    )
    notice_required = models.BooleanField(
        _("notice to the director before the next deal is required"), default=True
    )
    online_filing = models.BooleanField(_("players may file appeals on the web"), default=True)

    class Meta:
        verbose_name = _("appeal settings")
        verbose_name_plural = _("appeal settings")

    def __str__(self) -> str:
        return str(self.tournament)


class Irregularity(Where, models.Model):
    """An irregularity at a table and the director's ruling on it (§10–§12)."""

    class Kind(models.TextChoices):
        WRONG_CARDS = "wrong_cards", _("§11.3 Wrong number of cards")
        MISSING_CARD = "missing_card", _("§11.4 Missing card")
        DEFECTIVE_TRICK = "defective_trick", _("§11.5 Defective trick")
        WRONG_BOARD = "wrong_board", _("§11.6 Wrong board played")
        WRONG_HAND = "wrong_hand", _("§11.7 Playing with the wrong hand")
        FOULED = "fouled", _("§10 Fouled board")
        PROCEDURAL = "procedural", _("§12 Procedural offence")
        DIRECTOR_ERROR = "director_error", _("§13.2.6 Director's error")
        OTHER = "other", _("Other (§11.2)")

    class Status(models.TextChoices):
        RECORDED = "recorded", _("Recorded")
        APPLIED = "applied", _("Ruling applied")
        DISMISSED = "dismissed", _("No action")

    tournament = models.ForeignKey("tournaments.Tournament", models.CASCADE, related_name="irregularities")
    session = _session_field("irregularities")
    pulka_table = _pulka_table_field()
    deal_number = _deal_field()
    kind = models.CharField(_("irregularity"), max_length=24, choices=Kind.choices)
    round_number = models.PositiveSmallIntegerField(_("round"))
    table_number = models.PositiveSmallIntegerField(_("table"))
    room = models.PositiveSmallIntegerField(_("room"), default=1)
    board_number = models.PositiveIntegerField(_("board"), null=True, blank=True)
    seats = models.JSONField(_("participants by seat"), default=dict, blank=True)
    fault = models.JSONField(_("fault by seat"), default=dict, blank=True)
    facts = models.JSONField(_("facts established"), default=dict, blank=True)
    description = models.TextField(_("what happened"), blank=True)
    proposal = models.JSONField(_("proposed remedy"), default=dict, blank=True)
    ruling = models.TextField(_("director's ruling"), blank=True)
    status = models.CharField(_("state"), max_length=16, choices=Status.choices, default=Status.RECORDED)
    recorded_at = models.DateTimeField(_("recorded at"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(_("ruling applied at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["tournament", "-recorded_at", "-id"]
        verbose_name = _("irregularity")
        verbose_name_plural = _("irregularities")
        constraints = [one_where("irregularity_one_where", board=None, deal=False)]

    def __str__(self) -> str:
        """As a drop-down shows a ruling, in the language of the page."""
        params = {
            "kind": self.get_kind_display(),
            "table": self.table_number,
            "round": self.round_number,
            "board": self.board_number,
            "deal": self.deal_number,
        }
        if self.is_pulka and self.deal_number:
            return gettext("%(kind)s: deal %(deal)s, table %(table)s, round %(round)s") % params
        if not self.is_pulka and self.board_number:
            return gettext("%(kind)s: board %(board)s, table %(table)s, round %(round)s") % params
        return gettext("%(kind)s: table %(table)s, round %(round)s") % params


class Appeal(Where, models.Model):
    """An appeal to the tournament's appeals committee, with the fields of Appendix B."""

    class Status(models.TextChoices):
        NOTICE = "notice", _("Notice given")
        FILED = "filed", _("Filed")
        COMMENTED = "commented", _("Director's comment given")
        HEARD = "heard", _("Heard by the committee")
        DECIDED = "decided", _("Decided")
        APPLIED = "applied", _("Decision applied")
        CLOSED = "closed", _("Closed")
        REFUSED = "refused", _("Refused")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    class Outcome(models.TextChoices):
        UPHELD = "upheld", _("The director's ruling stands")
        ADJUSTED = "adjusted", _("The score is adjusted")
        CANCELLED = "cancelled", _("The director's ruling is cancelled")

    class Via(models.TextChoices):
        PLAYER = "player", _("by the player (web form)")
        DIRECTOR = "director", _("by the director for the player")

    tournament = models.ForeignKey("tournaments.Tournament", models.CASCADE, related_name="appeals")
    session = _session_field("appeals")
    pulka_table = _pulka_table_field()
    deal_number = _deal_field()
    number = models.PositiveIntegerField(_("appeal no."))
    ruling = models.ForeignKey(
        Irregularity,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="appeals",
        verbose_name=_("ruling appealed against"),
    )
    # Appendix B, items 1–8.
    appellant = models.ForeignKey(
        "tournaments.Participant",
        models.RESTRICT,
        related_name="appeals",
        verbose_name=_("player filing the appeal"),
    )
    round_number = models.PositiveSmallIntegerField(_("round"))
    board_number = models.PositiveIntegerField(_("board"), null=True, blank=True)
    table_number = models.PositiveSmallIntegerField(_("table"))
    room = models.PositiveSmallIntegerField(_("room"), default=1)
    seats = models.JSONField(_("participants of the deal"), default=dict, blank=True)
    bidding = models.TextField(_("bidding"), blank=True)
    play = models.TextField(_("play"), blank=True)
    claim = models.TextField(_("substance of the claim"), blank=True)
    # Deadlines (§1).
    notice_at = models.DateTimeField(_("director warned at"), null=True, blank=True)
    filed_at = models.DateTimeField(_("filed at"), null=True, blank=True)
    filed_via = models.CharField(_("filed"), max_length=16, choices=Via.choices, default=Via.PLAYER)
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    deadline = models.DateTimeField(_("filing deadline"), null=True, blank=True)
    refusal = models.TextField(_("reason for refusal"), blank=True)
    late_note = models.TextField(_("director's note admitting a late filing"), blank=True)
    # Item 9: the director's comment.
    director_comment = models.TextField(_("director's comment"), blank=True)
    commented_at = models.DateTimeField(null=True, blank=True)
    # Items 10–12: the committee.
    heard_at = models.DateTimeField(_("heard at"), null=True, blank=True)
    hearing_notes = models.TextField(_("hearing notes"), blank=True)
    members = models.ManyToManyField(
        CommitteeMember, through="AppealMember", related_name="appeals", blank=True
    )
    outcome = models.CharField(_("outcome"), max_length=16, choices=Outcome.choices, blank=True)
    decision = models.TextField(_("decision of the appeals committee"), blank=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    applied_at = models.DateTimeField(_("applied at"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    status = models.CharField(_("state"), max_length=16, choices=Status.choices, default=Status.FILED)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tournament", "-number"]
        verbose_name = _("appeal")
        verbose_name_plural = _("appeals")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="appeal_number_unique"),
            one_where("appeal_one_where", board=True, deal=True),
        ]

    def __str__(self) -> str:
        params = {
            "n": self.number,
            "board": self.board_number,
            "deal": self.deal_number,
            "table": self.table_number,
        }
        if self.is_pulka:
            return gettext("appeal %(n)s: deal %(deal)s, table %(table)s") % params
        return gettext("appeal %(n)s: board %(board)s, table %(table)s") % params

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_APPEAL_STATES


OPEN_APPEAL_STATES = frozenset(
    {
        Appeal.Status.NOTICE,
        Appeal.Status.FILED,
        Appeal.Status.COMMENTED,
        Appeal.Status.HEARD,
        Appeal.Status.DECIDED,
        Appeal.Status.APPLIED,
    }
)


class AppealMember(models.Model):
    """A committee member who heard an appeal, and his sign-off of the decision (Appendix B item 11)."""

    appeal = models.ForeignKey(Appeal, models.CASCADE, related_name="panel")
    member = models.ForeignKey(CommitteeMember, models.RESTRICT, related_name="+")
    signed_at = models.DateTimeField(_("signed at"), null=True, blank=True)
    signed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["appeal", "-member__is_chair", "member__name"]
        constraints = [models.UniqueConstraint(fields=["appeal", "member"], name="appeal_member_once")]

    def __str__(self) -> str:
        return f"{self.member} ({'signed' if self.signed_at else 'not signed'})"


class Correction(Where, models.Model):
    """A request to correct a result (§1 correction period; after final, obvious arithmetic errors only)."""

    class Kind(models.TextChoices):
        ENTRY = "entry", _("Protocol entered wrongly")
        ARITHMETIC = "arithmetic", _("Obvious (arithmetic) error")
        OTHER = "other", _("Other")

    class Status(models.TextChoices):
        REQUESTED = "requested", _("Requested")
        APPLIED = "applied", _("Corrected")
        REFUSED = "refused", _("Refused")

    tournament = models.ForeignKey("tournaments.Tournament", models.CASCADE, related_name="corrections")
    session = _session_field("corrections")
    pulka_table = _pulka_table_field()
    deal_number = _deal_field()
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices, default=Kind.ENTRY)
    board_number = models.PositiveIntegerField(_("board"), null=True, blank=True)
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    table_number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    room = models.PositiveSmallIntegerField(_("room"), default=1)
    requested_by = models.ForeignKey(
        "tournaments.Participant",
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("requested by"),
    )
    description = models.TextField(_("what is wrong"))
    requested_at = models.DateTimeField(_("requested at"))
    deadline = models.DateTimeField(_("correction deadline"), null=True, blank=True)
    status = models.CharField(_("state"), max_length=16, choices=Status.choices, default=Status.REQUESTED)
    refusal = models.TextField(_("reason for refusal"), blank=True)
    late_note = models.TextField(_("director's note admitting a late request"), blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["tournament", "-requested_at", "-id"]
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")
        constraints = [one_where("correction_one_where", board=None, deal=True)]

    def __str__(self) -> str:
        if self.is_pulka:
            return f"correction {self.pk}: deal {self.deal_number}"
        return f"correction {self.pk}: board {self.board_number or '—'}"


class ScoreChange(Where, models.Model):
    """One change to a score and its reason: a ruling, an appeal decision or a correction.

    Planned when the reason is decided, applied through ``scoring.rows`` (which writes the audit entry this
    row links to). ``before`` keeps the row's facts as they were, so a cancelled ruling can be undone exactly.
    """

    class Kind(models.TextChoices):
        ARTIFICIAL = "artificial", _("Artificial adjusted result")
        ASSIGNED = "assigned", _("Assigned result")
        ANNUL = "annul", _("Result annulled")
        VERSION = "version", _("Fouled-board version")
        ROW = "row", _("Protocol row corrected")
        RESTORE = "restore", _("Result restored")
        PENALTY = "penalty", _("Procedural penalty")
        PENALTY_REMOVE = "penalty_remove", _("Penalty withdrawn")

    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        APPLIED = "applied", _("Applied")
        DROPPED = "dropped", _("Dropped")

    tournament = models.ForeignKey("tournaments.Tournament", models.CASCADE, related_name="score_changes")
    session = _session_field("score_changes")
    pulka_table = _pulka_table_field()
    deal_number = _deal_field()
    irregularity = models.ForeignKey(
        Irregularity, models.CASCADE, null=True, blank=True, related_name="changes"
    )
    appeal = models.ForeignKey(Appeal, models.CASCADE, null=True, blank=True, related_name="changes")
    correction = models.ForeignKey(Correction, models.CASCADE, null=True, blank=True, related_name="changes")
    kind = models.CharField(_("change"), max_length=16, choices=Kind.choices)
    board_number = models.PositiveIntegerField(_("board"), null=True, blank=True)
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    table_number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    room = models.PositiveSmallIntegerField(_("room"), default=1)
    seats = models.JSONField(_("participants by seat"), default=dict, blank=True)
    values = models.JSONField(_("values"), default=dict, blank=True)
    participant = models.ForeignKey(
        "tournaments.Participant", models.SET_NULL, null=True, blank=True, related_name="+"
    )
    matchpoints = models.CharField(_("matchpoints"), max_length=32, blank=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    status = models.CharField(_("state"), max_length=16, choices=Status.choices, default=Status.PLANNED)
    result = models.ForeignKey("scoring.Result", models.SET_NULL, null=True, blank=True, related_name="+")
    penalty = models.ForeignKey("scoring.Penalty", models.SET_NULL, null=True, blank=True, related_name="+")
    audit_entry = models.ForeignKey(
        "tournaments.AuditEntry", models.SET_NULL, null=True, blank=True, related_name="+"
    )
    applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["session", "id"]
        verbose_name = _("score change")
        verbose_name_plural = _("score changes")
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(irregularity__isnull=False, appeal__isnull=True, correction__isnull=True)
                    | Q(irregularity__isnull=True, appeal__isnull=False, correction__isnull=True)
                    | Q(irregularity__isnull=True, appeal__isnull=True, correction__isnull=False)
                ),
                name="score_change_one_reason",
            ),
            one_where("score_change_one_where", board=None, deal=True),
        ]

    def __str__(self) -> str:
        if self.is_pulka:
            return f"{self.get_kind_display()} deal {self.deal_number}"
        where = f" board {self.board_number}" if self.board_number else ""
        return f"{self.get_kind_display()}{where}"

    @property
    def reason_object(self) -> Irregularity | Appeal | Correction:
        return self.irregularity or self.appeal or self.correction  # type: ignore[return-value]


def open_matters(tournament: Any) -> dict[str, int]:
    """What is still open (for a director about to make the results final): appeals, rulings, corrections."""
    return {
        "appeals": Appeal.objects.filter(tournament=tournament, status__in=OPEN_APPEAL_STATES).count(),
        "rulings": Irregularity.objects.filter(
            tournament=tournament, status=Irregularity.Status.RECORDED
        ).count(),
        "corrections": Correction.objects.filter(
            tournament=tournament, status=Correction.Status.REQUESTED
        ).count(),
    }
