"""Events played as whole games (pulkas): the event's settings, its rounds, tables, deals and byes.

The rules live in the pure core (``preferans.pulka``); these models store the facts (who sat where, the rows of
each deal, when a table was stopped) and a cache of what the core computed from them (``PulkaTable`` totals,
``PulkaTableResult``), which the core can always recompute.
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from preferans.pulka import Compensation, PulkaSetup
from preferans.pulka.forms import Compression, RatingBase, RatingRule

SEATS = ("N", "E", "S", "W")


class RatingChoice(models.TextChoices):
    PER_DEAL = "per_deal", _("vists per deal (proposal 1)")
    VISTS = "vists", _("vists of the pulka")


class PulkaEvent(models.Model):
    """The settings of an Olympic, compensation or Swiss event, fixed before play (Code 5.4.4)."""

    tournament = models.OneToOneField("tournaments.Tournament", models.CASCADE, related_name="pulka_event")
    pool = models.PositiveSmallIntegerField(_("pool target"), default=10)
    max_deals = models.PositiveSmallIntegerField(_("deal limit"), null=True, blank=True)
    round_minutes = models.PositiveSmallIntegerField(_("time limit of a round, minutes"), default=120)
    raspasy_exit = models.JSONField(_("exit from raspasy"), default=list, blank=True)
    tiebreaks = models.JSONField(_("tie-breaks"), default=list, blank=True)
    advance = models.PositiveSmallIntegerField(_("players going on from a table"), default=1)
    # Olympic: the regulation's advance for particular rounds ({"2": 2}); the other rounds take ``advance``.
    advance_by_round = models.JSONField(_("players going on, by round"), default=dict, blank=True)
    # Olympic, not from the book: refill a round with the best losers, byes for a field of 5. Off by default.
    olympic_refill = models.BooleanField(_("lucky losers and byes (not from the book)"), default=False)
    compensation_x = models.SmallIntegerField(_("column: vists for a won deal (x)"), null=True, blank=True)
    compensation_y = models.SmallIntegerField(_("column: vists for another deal (y)"), null=True, blank=True)
    rating_base = models.CharField(
        _("round rating"), max_length=16, choices=RatingChoice.choices, default=RatingChoice.PER_DEAL
    )
    compression_threshold = models.PositiveIntegerField(_("compression above"), null=True, blank=True)
    compression_divisor = models.PositiveSmallIntegerField(_("compression divisor"), null=True, blank=True)
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=3)
    cut_after = models.PositiveSmallIntegerField(_("cut after round"), null=True, blank=True)
    cut_to = models.PositiveSmallIntegerField(_("players kept at the cut"), null=True, blank=True)
    seed = models.BigIntegerField(_("draw seed"), default=0)

    class Meta:
        verbose_name = _("pulka event")
        verbose_name_plural = _("pulka events")
        constraints = [
            models.CheckConstraint(condition=Q(pool__gte=1) & Q(pool__lte=1000), name="pulka_pool_range"),
            models.CheckConstraint(
                condition=Q(max_deals__isnull=True) | (Q(max_deals__gte=1) & Q(max_deals__lte=500)),
                name="pulka_max_deals_range",
            ),
            models.CheckConstraint(condition=Q(advance__in=[1, 2]), name="pulka_advance_1_or_2"),
            models.CheckConstraint(
                condition=Q(compensation_x__isnull=True, compensation_y__isnull=True)
                | Q(compensation_x__isnull=False, compensation_y__isnull=False),
                name="pulka_compensation_both_or_neither",
            ),
            models.CheckConstraint(
                condition=Q(rounds__gte=1) & Q(rounds__lte=50) & Q(round_minutes__gte=1),
                name="pulka_rounds_range",
            ),
        ]

    def __str__(self) -> str:
        return str(self.tournament)

    @property
    def compensation(self) -> Compensation | None:
        if self.compensation_x is None or self.compensation_y is None:
            return None
        return Compensation(self.compensation_x, self.compensation_y)

    @property
    def rating_rule(self) -> RatingRule:
        compression = None
        if self.compression_threshold is not None:
            compression = Compression(Fraction(self.compression_threshold), self.compression_divisor)
        return RatingRule(RatingBase(self.rating_base), compression)

    def advance_for(self, round_number: int) -> int:
        """Olympic: how many go on from a table of round ``round_number`` by the regulation (004-II: «или еще и
        второй игрок, по регламенту»)."""
        value = (self.advance_by_round or {}).get(str(round_number), self.advance)
        return int(value)

    def setup(self, players: int, first_dealer: str, advance: int | None = None) -> PulkaSetup:
        """The pure core's parameters of one table's pulka (raises ``SetupError`` on bad settings);
        ``advance``: an Olympic table's own (its round's, or one more by a decision of the director)."""
        tournament = self.tournament
        rules = dict(tournament.rule_overrides or {})
        if self.raspasy_exit:
            rules["raspasy_exit"] = list(self.raspasy_exit)
        return PulkaSetup.create(
            variant=tournament.variant,
            players=players,
            pool=self.pool,
            first_dealer=first_dealer,
            rules=rules,
            max_deals=self.max_deals,
            compensation=self.compensation,
            tiebreaks=tuple(self.tiebreaks or ()),
            advance=(advance or self.advance) if tournament.form == "olympic" else None,
        )


class PulkaRound(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Drawn, not started")
        RUNNING = "running", _("Running")
        ENDED = "ended", _("Ended")

    tournament = models.ForeignKey("tournaments.Tournament", models.CASCADE, related_name="pulka_rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.PENDING)
    seed = models.BigIntegerField(_("draw seed"))
    drawn_by = models.CharField(_("seating"), max_length=16, default="lot")  # lot | rating | swiss
    # The seating's repeats R and displacement D (docs/pairing.md), and whether (R, D) is proved least; None for a
    # round drawn by lot (round 1, Olympic).
    repeats = models.PositiveIntegerField(_("repeated meetings"), null=True, blank=True)
    displacement = models.PositiveIntegerField(_("displacement"), null=True, blank=True)
    pairing_optimal = models.BooleanField(_("proved least"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    ends_at = models.DateTimeField(_("time limit"), null=True, blank=True)
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("pulka round")
        verbose_name_plural = _("pulka rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="pulka_round_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="pulka_round_positive"),
            models.CheckConstraint(
                condition=Q(status="pending") | Q(started_at__isnull=False),
                name="pulka_round_started_has_time",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} / {self.number}"


class PulkaTable(models.Model):
    """One table of a round: its players by seat, its first dealer, and the cache of its scored pulka."""

    round = models.ForeignKey(PulkaRound, models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    code = models.CharField(_("table code"), max_length=12, unique=True)
    seat_n = models.ForeignKey("tournaments.Participant", models.RESTRICT, related_name="+", verbose_name="N")
    seat_e = models.ForeignKey("tournaments.Participant", models.RESTRICT, related_name="+", verbose_name="E")
    seat_s = models.ForeignKey("tournaments.Participant", models.RESTRICT, related_name="+", verbose_name="S")
    seat_w = models.ForeignKey(
        "tournaments.Participant", models.RESTRICT, related_name="+", null=True, blank=True, verbose_name="W"
    )
    first_dealer = models.CharField(_("first dealer"), max_length=1, default="N")
    stopped_at = models.DateTimeField(_("stopped at"), null=True, blank=True)
    # The time limit (004 fn 32): the director's extension for this table (None: the round's), and the deal that
    # was in progress when the limit passed (the only one the players may still write, Code fn 94).
    ends_at = models.DateTimeField(_("time limit extended to"), null=True, blank=True)
    overtime_deal = models.PositiveSmallIntegerField(null=True, blank=True)
    # Bumped by every change to the table's sheet: a form carries it, so two people never overwrite each other.
    version = models.PositiveIntegerField(default=0)
    # Cache of the core's result.
    deals_count = models.PositiveSmallIntegerField(default=0)
    ended = models.BooleanField(default=False)
    reason = models.CharField(max_length=16, default="in_progress")
    advance = models.JSONField(null=True, blank=True)  # Olympic: {"seats": [...], "tied": [...]}
    tie_decision = models.JSONField(null=True, blank=True)  # seats the director sent on among the tied

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("pulka table")
        verbose_name_plural = _("pulka tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="pulka_table_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="pulka_table_positive"),
            models.CheckConstraint(
                condition=~Q(seat_n=F("seat_e")) & ~Q(seat_n=F("seat_s")) & ~Q(seat_e=F("seat_s")),
                name="pulka_table_three_distinct",
            ),
            models.CheckConstraint(
                condition=Q(seat_w__isnull=True)
                | (~Q(seat_w=F("seat_n")) & ~Q(seat_w=F("seat_e")) & ~Q(seat_w=F("seat_s"))),
                name="pulka_table_w_distinct",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} t{self.number}"

    def seats(self) -> dict[str, object]:
        out: dict[str, object] = {"N": self.seat_n, "E": self.seat_e, "S": self.seat_s}
        if self.seat_w_id is not None:
            out["W"] = self.seat_w
        return out

    def seat_ids(self) -> dict[str, int]:
        out = {"N": self.seat_n_id, "E": self.seat_e_id, "S": self.seat_s_id}
        if self.seat_w_id is not None:
            out["W"] = self.seat_w_id
        return out

    @property
    def players(self) -> int:
        return 4 if self.seat_w_id is not None else 3

    @property
    def finished(self) -> bool:
        return self.ended or self.stopped_at is not None

    @property
    def tie_to_decide(self) -> list[str]:
        """Olympic: the seats tied at the cut that the director decides between — only once the table is over
        (before, every sheet is level) and until he has decided."""
        if not self.finished or self.tie_decision is not None:
            return []
        return list((self.advance or {}).get("tied", []))

    @property
    def time_limit(self) -> dt.datetime | None:
        """When the players' time ends at this table: the director's extension, else the round's limit."""
        return self.ends_at or self.round.ends_at

    def olympic_advance(self, event: PulkaEvent) -> int:
        """How many go on from this Olympic table: its round's advance by the regulation, or 2 where a decision
        of the director sends the second-placed on too (:class:`OlympicDecision`)."""
        number = self.round.number
        k = event.advance_for(number)
        decision = OlympicDecision.objects.filter(
            tournament_id=self.round.tournament_id, round_number=number
        ).first()
        return 2 if decision is not None and self.number in decision.tables else k


class PulkaTableResult(models.Model):
    """A player's result at one table (the cache of the core's settlement; exact numbers as strings)."""

    table = models.ForeignKey(PulkaTable, models.CASCADE, related_name="results")
    participant = models.ForeignKey("tournaments.Participant", models.CASCADE, related_name="pulka_results")
    seat = models.CharField(max_length=1)
    vists = models.CharField(max_length=32)
    integer_vists = models.IntegerField()
    rating = models.CharField(max_length=48)  # the round rating (after compression)
    rank = models.CharField(max_length=8)

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "participant"], name="pulka_result_one_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.seat}: {self.vists}"


class PulkaBye(models.Model):
    """A player without a table in a round (the field did not divide into tables of 3 and 4)."""

    round = models.ForeignKey(PulkaRound, models.CASCADE, related_name="byes")
    participant = models.ForeignKey("tournaments.Participant", models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "participant"], name="pulka_bye_unique")]

    def __str__(self) -> str:
        return f"{self.round}: bye {self.participant_id}"


class OlympicDecision(models.Model):
    """Olympic: a decision of the director for a round, made before it is drawn, when its table winners could
    not be seated in the next round — the next-placed player also goes on at the chosen tables (audited)."""

    tournament = models.ForeignKey("tournaments.Tournament", models.CASCADE, related_name="olympic_decisions")
    round_number = models.PositiveSmallIntegerField(_("round"))
    tables = models.JSONField(_("tables"), default=list)  # table numbers, 1-based
    reason = models.CharField(_("reason"), max_length=500)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round_number"], name="olympic_decision_one_per_round"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament} / {self.round_number}: {self.tables}"


class PulkaDeal(models.Model):
    """One deal written on a table's sheet: the protocol row (formats §7.1), who wrote it, who confirmed it."""

    class Status(models.TextChoices):
        ENTERED = "entered", _("Entered, awaiting confirmation")
        CONFIRMED = "confirmed", _("Confirmed")
        DIRECTOR = "director", _("Entered by the director")

    table = models.ForeignKey(PulkaTable, models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField(_("deal"))
    row = models.JSONField(_("protocol row"))
    status = models.CharField(_("state"), max_length=16, choices=Status.choices, default=Status.ENTERED)
    entered_by = models.ForeignKey(
        "tournaments.Participant", models.SET_NULL, null=True, blank=True, related_name="+"
    )
    confirmed_by = models.JSONField(_("confirmed by (seats)"), default=list, blank=True)
    idempotency_key = models.CharField(max_length=64, null=True, blank=True, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="pulka_deal_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="pulka_deal_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.table} deal {self.number}"


class PulkaCorrection(models.Model):
    """A correction of a written deal (Code 4.2.7–4.2.10): the old and new rows, and the penalty or warning."""

    table = models.ForeignKey(PulkaTable, models.CASCADE, related_name="corrections")
    deal_number = models.PositiveSmallIntegerField(_("deal"))
    writer = models.ForeignKey(
        "tournaments.Participant", models.SET_NULL, null=True, blank=True, related_name="+"
    )
    old_row = models.JSONField()
    new_row = models.JSONField()
    warning = models.BooleanField(default=False)  # somebody's first correction: a warning, no penalty
    # the seats warned by this correction (Code 4.2.7: each player who gains from the wrong row answers, the
    # first time with a warning); empty on older records, where ``writer`` was the one warned
    warned = models.JSONField(default=list, blank=True)
    penalty = models.JSONField(default=list, blank=True)  # the extra entries written as the penalty
    # A player's correction of another's entry: the warning or penalty it would bring, waiting for the others'
    # confirmation ({"warning": bool, "penalty": [...]}); None once applied or when nothing waits.
    pending = models.JSONField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    reason = models.CharField(max_length=500, blank=True)
    at = models.DateTimeField()

    class Meta:
        ordering = ["table", "at", "id"]

    def __str__(self) -> str:
        return f"{self.table} deal {self.deal_number} corrected"

    def answering(self, writer_seat: str | None = None) -> tuple[list[str], list[str]]:
        """Who this correction warned and who it penalised (Code 4.2.4, 4.2.7), as seats; what still waits for the
        others' confirmation counts too. The warned are the ``warned`` seats (an older record names only its
        ``writer``, whose seat the caller passes); the penalised are the seats the penalty entries punish (a
        mountain entry's seat, a whist entry's ``to``)."""
        record: dict[str, Any] = self.pending if isinstance(self.pending, dict) else {}
        warned = list(self.warned or record.get("warned") or [])
        if not warned and (self.warning or record.get("warning")) and writer_seat:
            warned = [writer_seat]
        penalised: list[str] = []
        for entry in [*self.penalty, *(record.get("penalty") or [])]:
            seat = str(entry.get("to") if entry.get("type") == "whist" else entry.get("seat"))
            if seat not in penalised:
                penalised.append(seat)
        return warned, penalised

    @classmethod
    def warned_seats(cls, table: PulkaTable) -> set[str]:
        """The seats of ``table`` already warned under Code 4.2.7 (a record before ``warned`` names its writer)."""
        ids = table.seat_ids()
        out: set[str] = set()
        for c in cls.objects.filter(table=table, warning=True):
            out.update(
                c.warned or [s for s, pid in ids.items() if c.writer_id is not None and pid == c.writer_id]
            )
        return out
