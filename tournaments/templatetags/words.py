"""Codes in words on the pages: the audit trail (``{{ e.action|action_label }}``, ``{{ e|object_label }}``) and a
protocol row (``{{ result|row_words }}``)."""

from __future__ import annotations

from django import template

from scoring.labels import contract_label
from scoring.models import Result
from tournaments import audit
from tournaments.director.display import describe_in_words
from tournaments.models import AuditEntry

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
