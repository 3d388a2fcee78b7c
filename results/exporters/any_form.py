"""Files made alike for an event of either form: the table of game costs and the blank appeal form."""

from __future__ import annotations

import datetime as dt

from django.utils.translation import gettext_lazy as _

from appeals.pdf import appeal_form_pdf
from results.exporters.base import ALL_FORMS, Exporter
from results.pdf_costs import cost_tables_pdf
from tournaments.models import Tournament

__all__ = ["AppealFormExporter", "CostTableExporter", "cost_table_for"]


def cost_table_for(t: Tournament, *, lang: str, now: dt.datetime, standard: bool) -> bytes:
    return cost_tables_pdf(
        tournament=t.name,
        variant=t.variant,
        rules=t.rule_overrides or {},
        players=t.players_per_table,
        lang=lang,
        standard=standard,
        generated_at=now,
    )


class CostTableExporter(Exporter):
    identifier = "cost_table"
    label = _("Table of game costs")
    formats = ("pdf",)
    forms = ALL_FORMS

    def render_pdf(self) -> bytes:
        return cost_table_for(
            self.tournament, lang=self.lang, now=self.now, standard=bool(self.options.get("standard", True))
        )


class AppealFormExporter(Exporter):
    identifier = "appeal_form"
    label = _("Appeal form (blank)")
    formats = ("pdf",)
    forms = ALL_FORMS

    def render_pdf(self) -> bytes:
        return appeal_form_pdf(None, lang=self.lang)
