"""What every kind of generated file is: an :class:`Exporter` (its identifier, its label on the exports page, its
formats, the tournament forms it is for, whether it is made per session or per round) and the refusal
:class:`ExportError`; the addresses a printout carries (a table's page, a participant's own link), absolute when
the file is made with the site's address (``base_url``: the exports page's host, ``export_results --base-url``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any, ClassVar

from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext_lazy as _

from results.data import Progress, Report, load_report
from tournaments.errors import UserError
from tournaments.models import Form, Participant, Tournament
from tournaments.personal_links import personal_token

__all__ = [
    "ALL_FORMS",
    "DUPLICATE",
    "PULKA_FORMS",
    "ExportError",
    "Exporter",
    "personal_url",
    "pulka_table_url",
    "table_url",
]


class ExportError(UserError):
    """The file cannot be made as asked (unknown kind or format, no such session, no movement)."""

    code = "export_refused"


DUPLICATE: tuple[str, ...] = (Form.DUPLICATE,)
PULKA_FORMS: tuple[str, ...] = (Form.OLYMPIC, Form.COMPENSATION, Form.SWISS)
ALL_FORMS: tuple[str, ...] = tuple(Form.values)


def _address(name: str, kwargs: Mapping[str, str], fallback: str, base_url: str) -> str:
    try:
        path = reverse(name, kwargs=dict(kwargs))
    except NoReverseMatch:
        path = fallback
    return base_url.rstrip("/") + path if base_url else path


def table_url(code: str, base_url: str = "") -> str:
    """A duplicate table's protocol-entry page (absolute when ``base_url`` is given)."""
    return _address("table:entry", {"code": code}, f"/table/{code}/", base_url)


def pulka_table_url(code: str, base_url: str = "") -> str:
    """A pulka table's sheet (absolute when ``base_url`` is given)."""
    return _address("table:pulka", {"code": code}, f"/pulka/{code}/", base_url)


def personal_url(participant: Participant, base_url: str = "") -> str:
    """The participant's own link: his table of the moment in every round (``tournaments.personal_links``)."""
    token = personal_token(participant)
    return _address("table:personal", {"token": token}, f"/p/{token}/", base_url)


class Exporter:
    """One kind of generated file. Subclasses set the class attributes and the ``render_<format>`` methods."""

    identifier: ClassVar[str]
    label: ClassVar[Any]  # lazily translated, for the exports page
    formats: ClassVar[tuple[str, ...]]
    forms: ClassVar[tuple[str, ...]] = DUPLICATE  # the tournament forms this kind of file is made for
    per_session: ClassVar[bool] = False
    per_round: ClassVar[bool] = False  # a pulka event's round (the exports page's round choice)
    do_not_call_in_templates: ClassVar[bool] = True  # templates list the classes themselves

    def __init__(
        self,
        tournament: Tournament,
        *,
        lang: str,
        now: dt.datetime,
        options: Mapping[str, Any],
        progress: Progress,
        report: Report | None = None,
    ) -> None:
        self.tournament = tournament
        self.lang = lang
        self.now = now
        self.options = options
        self.progress = progress
        self._report = report

    @property
    def report(self) -> Report:
        """The results as stored, loaded once (the first 5 % of the progress)."""
        if self._report is None:
            self._report = load_report(self.tournament.pk, now=self.now)
            self.progress(5, 100, "loaded")
        return self._report

    @property
    def base_url(self) -> str:
        """The site's address the printed links start with (empty: the links are printed as paths)."""
        return str(self.options.get("base_url") or "")

    def stem(self) -> str:
        """The file name before the language code: the event and the kind (and the session or round)."""
        return f"{self.tournament.slug}-{self.identifier.replace('_', '-')}"

    def filename(self, fmt: str) -> str:
        """``demo-standings-ru.pdf``: the language code keeps a Russian and an English file apart."""
        return f"{self.stem()}-{self.lang}.{fmt}"

    def render(self, fmt: str) -> bytes:
        if fmt not in self.formats:
            raise ExportError(f"{self.identifier} is made as {', '.join(self.formats)}, not {fmt!r}")
        if self.tournament.form not in self.forms:
            raise ExportError(
                str(_("This file is not made for a tournament of this form.")), code="export_form"
            )
        body: bytes = getattr(self, f"render_{fmt}")()
        return body
