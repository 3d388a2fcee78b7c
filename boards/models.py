"""Stored deals: one board of a session with its layout (hands and prikup)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from preferans.cards.board_form import stored_board
from preferans.cards.deal import DealtBoard

SEAT_CHOICES = [("N", "N"), ("E", "E"), ("S", "S"), ("W", "W")]


class BoardSet(models.Model):
    """A set («комплект») of boards of a session: the boxes one table plays in one round."""

    session = models.ForeignKey("tournaments.Session", on_delete=models.CASCADE, related_name="board_sets")
    number = models.PositiveIntegerField(_("set"))

    class Meta:
        ordering = ["session", "number"]
        verbose_name = _("board set")
        verbose_name_plural = _("board sets")
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="board_set_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="board_set_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.session} / set {self.number}"


class Board(models.Model):
    session = models.ForeignKey("tournaments.Session", on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveIntegerField(_("board"))
    set_number = models.PositiveIntegerField(_("set"))
    dealer = models.CharField(_("dealer"), max_length=1, choices=SEAT_CHOICES)
    # Layout in the bundle's notation: {"N": "SAKQ C7 DJ98 H10", ...}; empty until dealt or recorded.
    hands = models.JSONField(_("hands"), default=dict, blank=True)
    prikup = models.JSONField(_("prikup, top card first"), default=list, blank=True)
    # Fouled board (rules §10): the director's finding; each result then names the version it was played in.
    fouled = models.BooleanField(_("fouled"), default=False)
    fouled_note = models.TextField(_("what happened"), blank=True)

    class Meta:
        ordering = ["session", "number"]
        verbose_name = _("board")
        verbose_name_plural = _("boards")
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="board_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="board_number_positive"),
            models.CheckConstraint(condition=Q(set_number__gte=1), name="board_set_positive"),
            models.CheckConstraint(condition=Q(dealer__in=["N", "E", "S", "W"]), name="board_dealer_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.session} / {self.number}"

    @property
    def has_layout(self) -> bool:
        return bool(self.hands)

    def deal(self) -> DealtBoard | None:
        """The stored layout as the core's :class:`~preferans.cards.deal.DealtBoard` (``None`` until recorded).

        A layout is checked when it is stored; one the core refuses now raises
        :class:`~preferans.cards.deal.BoardError`.
        """
        if not self.hands:
            return None
        return stored_board(
            number=self.number,
            set_number=self.set_number,
            dealer=self.dealer,
            hands=self.hands,
            prikup=self.prikup,
        )


class BoardAnalysis(models.Model):
    """A board's double-dummy analysis (``preferans.dd.board``): for each active seat as declarer, the most
    tricks in S C D H NT and the fewest at misère after his best discard, with the discards — the ``seats``
    object of formats.md §8.2. ``layout`` is the layout it was made for: a changed layout makes it stale."""

    board = models.OneToOneField(Board, on_delete=models.CASCADE, related_name="analysis")
    layout = models.JSONField(_("layout analysed"))
    seats = models.JSONField(_("makeable contracts"))
    solver = models.CharField(_("solver"), max_length=40)
    seconds = models.DecimalField(_("seconds"), max_digits=8, decimal_places=3)
    made_at = models.DateTimeField(_("made at"))

    class Meta:
        verbose_name = _("double-dummy analysis")
        verbose_name_plural = _("double-dummy analyses")

    def __str__(self) -> str:
        return f"{self.board} / double dummy"


class AnalysisRun(models.Model):
    """A session's double-dummy analysis in flight (boards.runs): when its tasks were queued, when a worker
    first started one, and how many are still to finish. One per session; cleared when the last task ends."""

    session = models.OneToOneField(
        "tournaments.Session", on_delete=models.CASCADE, related_name="analysis_run"
    )
    queued_at = models.DateTimeField(_("queued at"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    left = models.PositiveIntegerField(_("tasks left"), default=0)

    class Meta:
        verbose_name = _("analysis run")
        verbose_name_plural = _("analysis runs")

    def __str__(self) -> str:
        return f"{self.session} / analysis run"
