"""Protocol rows (results), procedural penalties and the computed matchpoints kept beside them.

A ``Result`` stores the facts of one row of a board's protocol (spec §11). ``vists``, ``matchpoints``
and ``top`` are a cache of what the scoring core computed; the core can always recompute them.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from preferans.duplicate.penalties import PenaltyRefusal, parse_penalty

BIDDING_MAX = 200  # characters of a row's written bidding


class Result(models.Model):
    class Status(models.TextChoices):
        ENTERED = "entered", _("Entered, awaiting confirmation")
        CONFIRMED = "confirmed", _("Confirmed")
        DISPUTED = "disputed", _("Disputed")
        DIRECTOR = "director", _("Entered by the director")

    session = models.ForeignKey("tournaments.Session", on_delete=models.CASCADE, related_name="results")
    board_number = models.PositiveIntegerField(_("board"))
    round_number = models.PositiveIntegerField(_("round"))
    table_number = models.PositiveIntegerField(_("table"))
    room = models.PositiveSmallIntegerField(_("room"), default=1)
    seat_n = models.ForeignKey("tournaments.Participant", models.RESTRICT, related_name="+", verbose_name="N")
    seat_e = models.ForeignKey("tournaments.Participant", models.RESTRICT, related_name="+", verbose_name="E")
    seat_s = models.ForeignKey("tournaments.Participant", models.RESTRICT, related_name="+", verbose_name="S")
    seat_w = models.ForeignKey(
        "tournaments.Participant", models.RESTRICT, related_name="+", null=True, blank=True, verbose_name="W"
    )
    dealer = models.CharField(_("dealer"), max_length=1, blank=True)
    # The protocol row's facts (contract, declarer, w1, w2, calls, play, ...), as in the bundle.
    row = models.JSONField(_("protocol row"), default=dict, blank=True)
    version = models.CharField(_("fouled-board version"), max_length=8, default="A")
    adjusted = models.JSONField(_("artificial adjusted result"), null=True, blank=True)
    assigned = models.JSONField(_("assigned result"), null=True, blank=True)
    # Per-seat adjustments of the row (formats.md §2.1, preferans.duplicate.artificial): the seats whose result
    # here is annulled (§11.6 B, a player's second result on a board) and per-seat percentages of the top (§11.2
    # B1 a non-offender above A+; §11.3 C a seat of a played row taken out of the comparison).
    annulled = models.JSONField(_("annulled seats"), default=list, blank=True)
    percent = models.JSONField(_("per-seat percentages of the top"), null=True, blank=True)
    # Cache of the scoring core's output: exact numbers as strings ("16/3").
    vists = models.JSONField(_("vists"), null=True, blank=True)
    matchpoints = models.JSONField(_("matchpoints"), null=True, blank=True)
    top = models.JSONField(_("top"), null=True, blank=True)
    # §13.1 «запись торговли»: the bidding as the table wrote it, when the organisers set written bidding.
    bidding = models.CharField(_("bidding"), max_length=BIDDING_MAX, blank=True, default="")
    position = models.PositiveIntegerField(_("order of entry"), default=0)
    status = models.CharField(_("state"), max_length=16, choices=Status.choices, default=Status.ENTERED)
    confirmed_by = models.JSONField(_("confirmed by (seats)"), default=list, blank=True)
    dispute = models.TextField(_("dispute"), blank=True)
    # A client-chosen key: a retried submission with the same key returns the stored row, never a second one.
    idempotency_key = models.CharField(max_length=64, null=True, blank=True, unique=True)
    # Optimistic concurrency (no lost update): 1 when entered, one more on every change through the write path
    # (scoring.rows). A correction carries the revision it read; a stale one is refused (scoring.revisions).
    # Not ``version``: that name is the fouled board's version (A, B, ...).
    revision = models.PositiveIntegerField(_("revision"), default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["session", "position", "id"]
        verbose_name = _("result")
        verbose_name_plural = _("results")
        constraints = [
            models.UniqueConstraint(
                fields=["session", "room", "board_number", "table_number", "round_number"],
                name="result_one_per_board_table_round",
            ),
            models.CheckConstraint(
                condition=~(Q(adjusted__isnull=False) & Q(assigned__isnull=False)),
                name="result_not_both_adjusted_and_assigned",
            ),
        ]

    def __str__(self) -> str:
        return f"board {self.board_number}, table {self.table_number}, round {self.round_number}"

    def seats(self) -> dict[str, int]:
        out = {"N": self.seat_n.number, "E": self.seat_e.number, "S": self.seat_s.number}
        if self.seat_w_id is not None:
            out["W"] = self.seat_w.number
        return out


class LateBoard(models.Model):
    """A board a table is to play later (§11.6 А.2 «Судья может потребовать, чтобы позднее все игроки сыграли
    правильную сдачу друг против друга»): the director records it; the row is written at the table's place in
    that round (the same players) and the late board is played once that row exists."""

    session = models.ForeignKey("tournaments.Session", on_delete=models.CASCADE, related_name="late_boards")
    room = models.PositiveSmallIntegerField(_("room"), default=1)
    round_number = models.PositiveIntegerField(_("round"))
    table_number = models.PositiveIntegerField(_("table"))
    board_number = models.PositiveIntegerField(_("board"))
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["session", "round_number", "room", "table_number", "board_number"]
        verbose_name = _("board to play later")
        verbose_name_plural = _("boards to play later")
        constraints = [
            models.UniqueConstraint(
                fields=["session", "room", "round_number", "table_number", "board_number"],
                name="late_board_once",
            ),
        ]

    def __str__(self) -> str:
        return f"board {self.board_number}, table {self.table_number}, round {self.round_number} (later)"


class Penalty(models.Model):
    """A procedural penalty (rules §12) in matchpoints, added to the participant's session total."""

    session = models.ForeignKey("tournaments.Session", on_delete=models.CASCADE, related_name="penalties")
    participant = models.ForeignKey("tournaments.Participant", models.RESTRICT, related_name="penalties")
    matchpoints = models.CharField(_("matchpoints"), max_length=32)
    reason = models.CharField(_("reason"), max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "id"]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")

    def __str__(self) -> str:
        return f"{self.participant}: {self.matchpoints} ({self.reason})"

    def clean(self) -> None:
        """The admin's form too keeps the core's rule: a penalty takes matchpoints away (§12)."""
        try:
            parse_penalty(self.matchpoints)
        except PenaltyRefusal as exc:
            raise ValidationError(
                {"matchpoints": _("A penalty is a negative number of matchpoints.")}
            ) from exc


class Standing(models.Model):
    """The computed standings of a tournament (all sessions so far), replaced on every rescore."""

    tournament = models.ForeignKey("tournaments.Tournament", models.CASCADE, related_name="standings")
    participant = models.ForeignKey("tournaments.Participant", models.CASCADE, related_name="+")
    position = models.PositiveIntegerField()
    rank = models.CharField(max_length=16)
    matchpoints = models.CharField(max_length=32)
    max = models.CharField(max_length=32)
    percent = models.CharField(max_length=8)

    class Meta:
        ordering = ["tournament", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "participant"], name="standing_one_per_participant"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.participant} {self.percent}%"
