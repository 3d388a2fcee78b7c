"""Codes in words on the pages: an audit entry (``{% with w=e|audit_words %}`` → ``w.who``, ``w.what``,
``w.object``, ``w.why``; the one reading is ``tournaments.audit.entry_words``), a kind of audit codes
(``{{ kind|action_label }}``), a protocol row (``{{ result|row_words }}``) and a contract (``{{ code|contract_words }}``)."""

from __future__ import annotations

from collections.abc import Sized

from django import template

from scoring.models import Result
from tournaments import audit
from tournaments.models import AuditEntry
from tournaments.numbers import list_count as _list_count
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


@register.filter
def list_count(items: Sized) -> int:
    """The count that picks the plural form of a list's label (``{% blocktranslate count n=tables|list_count %}``):
    1 for one item, 2 for several, so that a list of 21 tables is not labelled with the singular."""
    return _list_count(items)
