"""An event and who plays in it: the tournament (form, variant, rules, publication, status) and its participants.

Rules of the game live in the pure cores (``preferans``); these models only store the facts an event produces.
"""

from __future__ import annotations

import datetime as dt
from functools import cached_property

from django.conf import settings
from django.db import models
from django.db.models import Q
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
    # §13.1: the organisers' special condition «запись торговли»: each protocol row may carry the bidding.
    bidding_record = models.BooleanField(
        _("written bidding (the protocol records the bidding)"), default=False
    )
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
        # The organisers' right to open a locked event again (events.publication.tournament_unlock).
        permissions = [("unlock_tournament", _("Can unlock a locked tournament"))]
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
            self.sanctions.filter(kind="disqualification").values_list(  # type: ignore[attr-defined]
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
    # The federation's or club's rating the participants list gave for this event (not the computed rating).
    declared_rating = models.DecimalField(
        _("federation or club rating"), max_digits=6, decimal_places=2, null=True, blank=True
    )
    # The person of the register (players.Person) this participant is; set on import or by the director.
    person = models.ForeignKey(
        "players.Person",
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="participations",
        verbose_name=_("person"),
    )
    # A person a federation number typed or imported by a director names, until the register's staff confirm it
    # (then it becomes ``person``) or refuse it (then it is ``refused_person``, never proposed again): only a
    # confirmed link counts in a person's history, master points and rating (docs/players/register.md).
    proposed_person = models.ForeignKey(
        "players.Person",
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="proposed_participations",
        verbose_name=_("proposed person"),
    )
    refused_person = models.ForeignKey(
        "players.Person",
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("refused person"),
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
            models.CheckConstraint(
                condition=Q(declared_rating__isnull=True)
                | (Q(declared_rating__gte=0) & Q(declared_rating__lte=4000)),
                name="participant_declared_rating_bounded",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.name}" if self.name else str(self.number)
