"""Codes in words on the pages: an audit entry (``{% with w=e|audit_words %}`` → ``w.who``, ``w.what``,
``w.object``, ``w.why``; the one reading is ``tournaments.audit.entry_words``), a kind of audit codes
(``{{ kind|action_label }}``), a protocol row (``{{ result|row_words }}``) and a contract (``{{ code|contract_words }}``)."""

from __future__ import annotations

from django import template

from scoring.models import Result
from tournaments import audit
from tournaments.models import AuditEntry
from ui.display import describe_in_words
from ui.labels import contract_label

register = template.Library()


@register.filter
def audit_words(entry: AuditEntry) -> audit.EntryWords:
    return audit.entry_words(entry)


@register.filter
def action_label(code: str) -> str:
    return audit.action_label(code)


@register.filter
def row_words(result: Result) -> str:
    return describe_in_words(result)


@register.filter
def contract_words(code: str) -> str:
    """A contract's code as players write it: «6C» → «6♣», «-» → «raspasy»."""
    return contract_label(code) if code else ""
