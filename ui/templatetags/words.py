"""Codes in words on the pages: the audit trail (``{{ e.action|action_label }}``, ``{{ e|object_label }}``) and a
protocol row (``{{ result|row_words }}``)."""

from __future__ import annotations

import re

from django import template
from django.utils.translation import gettext as _

from scoring.models import Result
from tournaments import audit
from tournaments.models import AuditEntry
from ui.display import describe_in_words
from ui.labels import contract_label

register = template.Library()


@register.filter
def action_label(code: str) -> str:
    return audit.action_label(code)


@register.filter
def object_label(entry: AuditEntry) -> str:
    return audit.object_label(entry.action, entry.object_repr)


@register.filter
def row_words(result: Result) -> str:
    return describe_in_words(result)


@register.filter
def contract_words(code: str) -> str:
    """A contract's code as players write it: «6C» → «6♣», «-» → «raspasy»."""
    return contract_label(code) if code else ""


# A player at a table as ``duplicate.at_table.actor_name`` stores him: «3 Ivanov · 1/S»; before issue 17, in English
# «3 Ivanov (table 1, seat S)» — both read in the page's language.
AT_TABLE = re.compile(
    r"^(?P<who>.+?)(?: · (?P<table>\d+)/(?P<seat>[NESW])| \(table (?P<old_table>\d+), seat (?P<old_seat>[NESW])\))$"
)


@register.filter
def actor_words(actor: str) -> str:
    """An audit entry's «who»: a player at a table in words («3 Иванов (стол 1, позиция S)»), others as stored."""
    found = AT_TABLE.match(actor or "")
    if found is None:
        return actor
    return _("%(who)s (table %(table)s, seat %(seat)s)") % {
        "who": found["who"],
        "table": found["table"] or found["old_table"],
        "seat": found["seat"] or found["old_seat"],
    }
