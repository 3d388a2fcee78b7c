"""Events, sessions and participants.

Rules of the game live in the pure cores (``preferans.game``, ``preferans.movements``, ``boards``);
these models only store the facts an event produces.
"""

from __future__ import annotations

import datetime as dt
from functools import cached_property
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from preferans.duplicate import deadlines
from preferans.game import Rules, make_rules
from tournaments import zones
from tournaments.errors import Conflict


class Variant(models.TextChoices):
    SOCHI = "sochi", _("Sochi")
    LENINGRAD = "leningrad", _("Leningrad")
    ROSTOV = "rostov", _("Rostov")


class Form(models.TextChoices):
    """The three forms of the rulebook (seed 004): duplicate (part I), Olympic (II), compensation (III); Swiss
    rounds with cuts are the general form of part III that clubs and online servers play."""

    DUPLICATE = "duplicate", _("Duplicate")
    OLYMPIC = "olympic", _("Olympic (knock-out)")
    COMPENSATION = "compensation", _("Compensation (rating-seeded)")
    SWISS = "swiss", _("Swiss rounds with cuts")


class UnequalResults(models.TextChoices):
    NEUBERG = "neuberg", _("Neuberg")
    NONE = "none", _("Raw matchpoints")


class Publication(models.TextChoices):
    """How far the results have gone (rules §1, §13): nothing public before publication."""

    DRAFT = "draft", _("Not published")
    PROVISIONAL = "provisional", _("Provisional")
    OFFICIAL = "official", _("Official")
    FINAL = "final", _("Final")


class Confirmation(models.TextChoices):
    """How many opponents of the player at N must agree before a row closes (``scoring.confirmation``)."""

    ALL = "all", _("every opponent")
    ONE = "one", _("one opponent")


class TournamentStatus(models.TextChoices):
    """Where the event is: set up, under way, all rounds played, or locked (nothing may change)."""

    SETUP = "setup", _("Being set up")
    RUNNING = "running", _("Under way")
    FINISHED = "finished", _("Play finished")
    LOCKED = "locked", _("Locked")


def default_artificial() -> dict[str, int]:
    return {"A-": 40, "A": 50, "A+": 60}


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short name"), max_length=80, unique=True)
    variant = models.CharField(_("variant"), max_length=16, choices=Variant.choices, default=Variant.SOCHI)
    form = models.CharField(_("form"), max_length=16, choices=Form.choices, default=Form.DUPLICATE)
    # The variant's rules changed by the organisers (docs/rules-keys.md); ``rules`` is the whole set.
    rule_overrides = models.JSONField(_("rule overrides"), default=dict, blank=True, db_column="rules")
    players_per_table = models.PositiveSmallIntegerField(
        _("players per table"), choices=[(3, "3"), (4, "4")], default=4
    )
    deals_per_set = models.PositiveSmallIntegerField(_("deals per set"), default=4)
    unequal_results = models.CharField(
        _("unequal numbers of results"),
        max_length=16,
        choices=UnequalResults.choices,
        default=UnequalResults.NEUBERG,
    )
    artificial = models.JSONField(_("artificial results, percent of the top"), default=default_artificial)
    minutes_per_deal = models.PositiveSmallIntegerField(_("minutes per deal"), default=5)
    correction_minutes = models.PositiveSmallIntegerField(_("correction period, minutes"), default=30)
    confirmation = models.CharField(
        _("confirmation of a result"), max_length=8, choices=Confirmation.choices, default=Confirmation.ALL
    )
    # Several sessions: matchpoints summed over them (default, as the rules' one field) or the sessions'
    # percentages averaged (the organisers' choice; docs/players.md).
    session_totals = models.CharField(
        _("totals over sessions"),
        max_length=16,
        choices=[("matchpoints", _("matchpoints summed")), ("percent", _("percentages averaged"))],
        default="matchpoints",
    )
    # A final played after a qualification: the qualification event and the share of its result carried over
    # (an exact fraction string, "0" for none; docs/players.md).
    qualification = models.ForeignKey(
        "self", models.SET_NULL, null=True, blank=True, related_name="finals", verbose_name=_("qualification")
    )
    carry_over = models.CharField(_("share carried over"), max_length=16, default="0", blank=True)
    language = models.CharField(
        _("language of printed results"), max_length=2, default="ru", choices=settings.LANGUAGES
    )
    publication = models.CharField(
        _("results"), max_length=16, choices=Publication.choices, default=Publication.DRAFT
    )
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    official_at = models.DateTimeField(_("official at"), null=True, blank=True)
    final_at = models.DateTimeField(_("final at"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=TournamentStatus.choices, default=TournamentStatus.SETUP
    )
    locked_at = models.DateTimeField(_("locked at"), null=True, blank=True)
    # Set while a background rescore is queued: further changes ride on it instead of queuing another.
    rescore_queued_at = models.DateTimeField(null=True, blank=True, editable=False)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="directed_tournaments", blank=True, verbose_name=_("directors")
    )
    starts_on = models.DateField(_("date"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    # The event's time zone (IANA name; empty: the site's TIME_ZONE): see :attr:`time_zone`.
    zone = models.CharField(_("time zone"), max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "-created_at"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=Q(players_per_table__in=[3, 4]), name="tournament_players_3_or_4"
            ),
            models.CheckConstraint(
                condition=Q(deals_per_set__gte=1), name="tournament_deals_per_set_positive"
            ),
            models.CheckConstraint(condition=Q(minutes_per_deal__gte=1), name="tournament_minutes_positive"),
            models.CheckConstraint(
                condition=Q(form__in=["duplicate", "olympic", "compensation", "swiss"]),
                name="tournament_form_known",
            ),
            # Locking freezes final results; it records when.
            models.CheckConstraint(
                condition=~Q(status=TournamentStatus.LOCKED)
                | (Q(locked_at__isnull=False) & Q(publication=Publication.FINAL)),
                name="tournament_locked_only_when_final",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament-detail", kwargs={"slug": self.slug})

    @property
    def plays_pulkas(self) -> bool:
        """Olympic, compensation and Swiss events play whole games (pulkas), not duplicate boards."""
        return self.form != Form.DUPLICATE

    @property
    def is_locked(self) -> bool:
        return self.status == TournamentStatus.LOCKED

    @property
    def is_published(self) -> bool:
        return self.publication != Publication.DRAFT

    @cached_property
    def rules(self) -> Rules:
        """The rules every deal of this event is scored by: the variant with the organisers' overrides."""
        return make_rules(self.variant, dict(self.rule_overrides or {}))

    def scores_closed(self, *, arithmetic: bool = False) -> str | None:
        """Why results, adjustments and penalties may not change now (``None``: they may).

        ``"locked"``: nothing changes in a locked event; ``"final"``: the results are final and only an obvious
        arithmetic error (``arithmetic``) is corrected (rules §1, §13.2.4).
        """
        return deadlines.scores_closed(
            publication=self.publication, locked=self.is_locked, arithmetic=arithmetic
        )

    def scores_open(self, *, arithmetic: bool = False) -> bool:
        return self.scores_closed(arithmetic=arithmetic) is None

    def ensure_not_locked(self) -> None:
        """Raise :class:`~tournaments.errors.Conflict` once the tournament is locked: nothing in it changes."""
        if self.is_locked:
            raise Conflict(
                gettext("The tournament is locked: nothing in it can be changed any more."),
                code="tournament_locked",
            )

    def ensure_scores_open(self, *, arithmetic: bool = False) -> None:
        """Raise :class:`~tournaments.errors.Conflict` when scores may not change (see :meth:`scores_closed`)."""
        self.ensure_not_locked()
        if self.scores_closed(arithmetic=arithmetic) == "final":
            raise Conflict(
                gettext(
                    "The results are final: only obvious (arithmetic) errors are corrected now (rules §1)."
                ),
                code="results_final",
            )

    @property
    def correction_ends_at(self) -> dt.datetime | None:
        """The end of the correction period: the official publication + the correction minutes (rules §1)."""
        return deadlines.correction_deadline(self.official_at, self.correction_minutes)

    def disqualified_numbers(self) -> frozenset[int]:
        """The participants out of the ranking: disqualified (rules §13.2.4, :class:`Sanction`)."""
        return frozenset(
            Sanction.objects.filter(tournament=self, kind="disqualification").values_list(
                "participant__number", flat=True
            )
        )

    @property
    def time_zone(self) -> dt.tzinfo:
        """The event's time zone: every time shown to people (deadlines, refusals, pages, printed results) is in
        it. The organisers choose it in the settings (``zone``); empty is the site's ``TIME_ZONE`` (Europe/Moscow
        unless configured). Pages about the event render in it (``config.middleware.EventTimeZoneMiddleware``)."""
        return zones.zone(self.zone)


class Participant(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="participants")
    number = models.PositiveIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=200, blank=True)
    club = models.CharField(_("club"), max_length=200, blank=True)
    federation_id = models.CharField(_("federation id"), max_length=64, blank=True)
    # The person of the register (players.Person) this participant is; set on import or by the director.
    person = models.ForeignKey(
        "players.Person",
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="participations",
        verbose_name=_("person"),
    )
    # A short PIN the participant uses to confirm protocol rows at the table.
    pin = models.CharField(_("PIN"), max_length=8, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="participant_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="participant_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.name}" if self.name else str(self.number)


class Session(models.Model):
    """One session («сессия», «тур» in club speech) of an event: a movement, its boards and results."""

    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="sessions")
    number = models.PositiveSmallIntegerField(_("number"))
    movement = models.JSONField(_("movement"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.PLANNED)
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    scored_at = models.DateTimeField(_("standings computed at"), null=True, blank=True)
    changed_at = models.DateTimeField(_("last change at"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="session_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="session_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} — {self.number}"

    @property
    def standings_current(self) -> bool:
        """True when the stored matchpoints reflect every change made to the session."""
        if self.changed_at is None:
            return self.scored_at is not None
        return self.scored_at is not None and self.scored_at >= self.changed_at


class Room(models.Model):
    """A room («зал») of a session: its tables are numbered 1… within it; boards are duplicated per room."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="rooms")
    number = models.PositiveSmallIntegerField(_("room"))
    name = models.CharField(_("name"), max_length=100, blank=True)

    class Meta:
        ordering = ["session", "number"]
        verbose_name = _("room")
        verbose_name_plural = _("rooms")
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="room_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="room_number_positive"),
        ]

    def __str__(self) -> str:
        return self.name or f"{self.session} room {self.number}"


class AuditEntry(models.Model):
    """Who changed what, when and why (every change to results, adjustments and penalties)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit_entries")
    at = models.DateTimeField(_("when"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, verbose_name=_("who")
    )
    actor = models.CharField(_("actor"), max_length=200, blank=True)
    action = models.CharField(_("action"), max_length=64)
    object_repr = models.CharField(_("object"), max_length=200, blank=True)
    data = models.JSONField(_("details"), default=dict, blank=True)
    reason = models.TextField(_("reason"), blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.object_repr}"


class Round(models.Model):
    """One round of a session: started and ended by the director; the timer runs from ``started_at``."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Not started")
        RUNNING = "running", _("Running")
        ENDED = "ended", _("Ended")

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.PENDING)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)

    class Meta:
        ordering = ["session", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            # A running round has started; an ended one has started and ended, in that order.
            models.CheckConstraint(
                condition=Q(status="pending") | Q(started_at__isnull=False), name="round_started_has_time"
            ),
            models.CheckConstraint(
                condition=~Q(status="ended") | Q(ended_at__isnull=False), name="round_ended_has_time"
            ),
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True) | Q(ended_at__gte=F("started_at")),
                name="round_ends_after_start",
            ),
            # At most one round of a session runs at a time.
            models.UniqueConstraint(
                fields=["session"], condition=Q(status="running"), name="round_one_running_per_session"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session} / {self.number}"


class Seating(models.Model):
    """Who sits where in one round at one table, and which set of boards the table plays (from the movement)."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="seatings")
    room = models.PositiveSmallIntegerField(_("room"), default=1)
    round_number = models.PositiveSmallIntegerField(_("round"))
    table_number = models.PositiveSmallIntegerField(_("table"))
    set_number = models.PositiveIntegerField(_("set"))
    seat_n = models.ForeignKey(Participant, models.RESTRICT, related_name="+", verbose_name="N")
    seat_e = models.ForeignKey(Participant, models.RESTRICT, related_name="+", verbose_name="E")
    seat_s = models.ForeignKey(Participant, models.RESTRICT, related_name="+", verbose_name="S")
    seat_w = models.ForeignKey(
        Participant, models.RESTRICT, related_name="+", null=True, blank=True, verbose_name="W"
    )

    class Meta:
        ordering = ["session", "round_number", "room", "table_number"]
        verbose_name = _("seating")
        verbose_name_plural = _("seatings")
        constraints = [
            models.UniqueConstraint(
                fields=["session", "room", "round_number", "table_number"], name="seating_one_per_table_round"
            ),
            models.CheckConstraint(
                condition=Q(round_number__gte=1)
                & Q(table_number__gte=1)
                & Q(set_number__gte=1)
                & Q(room__gte=1),
                name="seating_numbers_positive",
            ),
            # Nobody sits in two seats of one table (W may be empty; NULL passes the check).
            models.CheckConstraint(
                condition=~Q(seat_n=F("seat_e")) & ~Q(seat_n=F("seat_s")) & ~Q(seat_e=F("seat_s")),
                name="seating_three_distinct",
            ),
            models.CheckConstraint(
                condition=Q(seat_w__isnull=True)
                | (~Q(seat_w=F("seat_n")) & ~Q(seat_w=F("seat_e")) & ~Q(seat_w=F("seat_s"))),
                name="seating_w_distinct",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session} r{self.round_number} t{self.table_number}"

    def seats(self) -> dict[str, Participant]:
        out = {"N": self.seat_n, "E": self.seat_e, "S": self.seat_s}
        if self.seat_w_id is not None:
            out["W"] = self.seat_w
        return out

    def set_boards(self) -> Any:
        """The boards of the table's set in this round, in the order they are played (rules §4)."""
        return self.session.boards.filter(set_number=self.set_number).order_by("number")

    def plays(self, board: Any) -> bool:
        """Whether the table plays ``board`` (a :class:`boards.models.Board`) in this round: it is in the table's
        set (rules §4: the set's boards, in order)."""
        return bool(board.set_number == self.set_number)


class Table(models.Model):
    """A physical table of a session, with the short code players open its entry page with."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="tables")
    room = models.PositiveSmallIntegerField(_("room"), default=1)
    number = models.PositiveSmallIntegerField(_("table"))
    code = models.CharField(_("table code"), max_length=12, unique=True)

    class Meta:
        ordering = ["session", "room", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["session", "room", "number"], name="table_number_unique"),
            models.CheckConstraint(
                condition=Q(number__gte=1) & Q(room__gte=1), name="table_numbers_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session} table {self.number}"


class Sanction(models.Model):
    """A disciplinary measure of §13.2.4 against a participant, as the director records it (audited).

    * Suspension («отстранять участника от игры в текущей сессии или любой её части»): from play in a session,
      or in some of its rounds (``first_round``…``last_round``; empty: from the first / to the last). The
      director's decision is final.
    * Disqualification («дисквалифицировать участника с одобрения турнирного комитета или ОТ»): needs the
      approval of the tournament committee or the organisers (``approved_by``); the participant leaves the
      ranking (:func:`preferans.duplicate.standings.rank_totals`).
    """

    class Kind(models.TextChoices):
        SUSPENSION = "suspension", _("Suspension from play")
        DISQUALIFICATION = "disqualification", _("Disqualification")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="sanctions")
    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="sanctions")
    kind = models.CharField(_("measure"), max_length=16, choices=Kind.choices)
    session = models.ForeignKey(Session, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    first_round = models.PositiveSmallIntegerField(_("from round"), null=True, blank=True)
    last_round = models.PositiveSmallIntegerField(_("to round"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=300)
    approved_by = models.CharField(_("approved by"), max_length=200, blank=True)
    at = models.DateTimeField(_("when"))

    class Meta:
        ordering = ["tournament", "participant__number", "id"]
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")
        constraints = [
            models.CheckConstraint(
                condition=(Q(kind="suspension") & Q(session__isnull=False))
                | (Q(kind="disqualification") & Q(session__isnull=True) & ~Q(approved_by="")),
                name="sanction_kind_fields",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.participant}: {self.get_kind_display()}"
