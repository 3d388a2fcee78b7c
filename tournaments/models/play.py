"""Where and when people play: sessions, rooms, rounds, tables and the seating of a duplicate session."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.event import Participant, Tournament


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
    # §2 «сами её же не играют»: in this round the table only duplicates its set's boards for the other tables
    # (or rooms) and does not play them; no row is expected from it (duplicate.duplication).
    duplicates_only = models.BooleanField(_("duplicates the boards without playing them"), default=False)

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
