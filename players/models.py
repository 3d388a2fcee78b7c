"""Players across events: the register of persons, series of events, master points and ratings.

A participant of an event (``tournaments.Participant``) is linked to a :class:`Person` of the register; everything
that follows a player from one event to the next hangs on the person. Numbers are exact: master points and ratings
are stored as exact fraction strings (``"12"``, ``"7/2"``), as vists are, and rounded only for display.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


def validate_scheme(value: object) -> None:
    """A master-point scheme the rules read, every number within its bounds (issue 29, N12)."""
    from preferans.ratings.master_points import MasterPointError, parse_scheme

    if value in (None, {}):
        return
    if not isinstance(value, dict):
        raise ValidationError(_("A master-point scheme is a set of named numbers."))
    try:
        parse_scheme(value)
    except MasterPointError as exc:
        raise ValidationError(str(exc)) from exc


class Person(models.Model):
    """One player as federations and clubs know him, independent of any event."""

    name = models.CharField(_("name"), max_length=200)
    club = models.CharField(_("club"), max_length=200, blank=True)
    city = models.CharField(_("city"), max_length=200, blank=True)
    federation_id = models.CharField(_("federation number"), max_length=64, blank=True)
    # The rating a federation or a club gives the player (typed, or imported with the register or a participants
    # list), kept apart from the product's computed rating (RatingEntry): it seeds a first round when given.
    declared_rating = models.DecimalField(
        _("federation or club rating"), max_digits=6, decimal_places=2, null=True, blank=True
    )
    declared_rating_source = models.CharField(_("source of the rating"), max_length=200, blank=True)
    # A duplicate merged into another person keeps its row, pointing at the one that stays (links are moved).
    merged_into = models.ForeignKey(
        "self", models.PROTECT, null=True, blank=True, related_name="merged", verbose_name=_("merged into")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("person")
        verbose_name_plural = _("persons")
        constraints = [
            models.UniqueConstraint(
                fields=["federation_id"],
                condition=~Q(federation_id="") & Q(merged_into__isnull=True),
                name="person_federation_id_unique",
            ),
            models.CheckConstraint(
                condition=Q(declared_rating__isnull=True)
                | (Q(declared_rating__gte=0) & Q(declared_rating__lte=4000)),
                name="person_declared_rating_bounded",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.federation_id})" if self.federation_id else self.name


class Series(models.Model):
    """A season of events (club evenings, a cup in stages) with its own table: which events count and how."""

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short name"), max_length=64, unique=True)
    season = models.CharField(_("season"), max_length=40, blank=True)
    # How the table is made (docs/players.md): e.g. {"best": 3, "measure": "percent"}.
    rules = models.JSONField(_("rules"), default=dict, blank=True)
    # The master-point scheme of the series' events (docs/players.md); empty: the documented default.
    master_points = models.JSONField(
        _("master-point scheme"), default=dict, blank=True, validators=[validate_scheme]
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "pk"]
        verbose_name = _("series")
        verbose_name_plural = _("series")

    def __str__(self) -> str:
        return self.name


class SeriesEvent(models.Model):
    series = models.ForeignKey(Series, models.CASCADE, related_name="events")
    tournament = models.ForeignKey("tournaments.Tournament", models.CASCADE, related_name="series_links")
    order = models.PositiveSmallIntegerField(_("order"), default=1)
    # The series whose scheme gives the event's master points, as its director chose (issue 29, N12): an event
    # in one series takes that one's; in two or more, the chosen one's, and none without a choice.
    decides = models.BooleanField(_("decides the master points"), default=False)

    class Meta:
        ordering = ["series", "order", "pk"]
        verbose_name = _("event of a series")
        verbose_name_plural = _("events of a series")
        constraints = [
            models.UniqueConstraint(fields=["series", "tournament"], name="series_event_unique"),
            models.UniqueConstraint(
                fields=["tournament"], condition=Q(decides=True), name="series_event_one_decides"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.series} / {self.tournament}"


class MasterPointAward(models.Model):
    """The master points one participant earned in one event (seed 004 §9 names them; the scheme is the
    organisers'). Recomputed, with an audit entry, when a correction or an appeal changes the final results."""

    person = models.ForeignKey(Person, models.PROTECT, related_name="master_points")
    tournament = models.ForeignKey("tournaments.Tournament", models.CASCADE, related_name="master_points")
    participant = models.ForeignKey("tournaments.Participant", models.CASCADE, related_name="master_points")
    points = models.CharField(_("master points"), max_length=32)  # exact fraction string
    place = models.CharField(_("place"), max_length=16, blank=True)
    scheme = models.CharField(_("scheme"), max_length=64)
    computed_at = models.DateTimeField(_("computed at"))

    class Meta:
        ordering = ["tournament", "participant"]
        verbose_name = _("master-point award")
        verbose_name_plural = _("master-point awards")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "participant"], name="master_points_once_per_event"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person}: {self.points} ({self.tournament})"


class RatingEntry(models.Model):
    """A person's rating after one event (docs/players.md gives the formula): its history, one row per event."""

    person = models.ForeignKey(Person, models.PROTECT, related_name="ratings")
    tournament = models.ForeignKey("tournaments.Tournament", models.CASCADE, related_name="ratings")
    before = models.CharField(_("rating before"), max_length=40)  # exact fraction strings
    after = models.CharField(_("rating after"), max_length=40)
    games = models.PositiveIntegerField(_("events rated"), default=1)
    played_on = models.DateField(_("played on"))
    computed_at = models.DateTimeField(_("computed at"))

    class Meta:
        ordering = ["person", "played_on", "pk"]
        verbose_name = _("rating entry")
        verbose_name_plural = _("rating entries")
        constraints = [
            models.UniqueConstraint(fields=["person", "tournament"], name="rating_once_per_event"),
        ]

    def __str__(self) -> str:
        return f"{self.person}: {self.after}"
