"""A director's row form submitted as a browser submits it: every field with the value the page shows (a select's
selected option, else its first), then what the director changes."""

from __future__ import annotations

from typing import Any

from tests.html import Node, parse


def as_browser(page: Any, form: str, **changes: object) -> dict[str, str]:
    """The fields of a form on ``page`` as the browser would post them, with ``changes`` (by the field's name
    without the form's prefix: ``contract="-"`` sets ``enter-contract``). ``form``: the form's id, or the name of
    a field only that form holds."""
    doc = parse(page)
    found = doc.by_id(form) or next(f for f in doc.find_all("form") if f.find(name=form) is not None)
    data: dict[str, str] = {}
    names: set[str] = set()
    for node in found.iter():
        name = node.get("name")
        if not name or node.get("disabled") is not None:
            continue
        names.add(name)
        if node.tag == "input" and node.get("type") in ("checkbox", "radio"):
            if node.get("checked") is not None:
                data[name] = node.get("value") or "on"
        elif node.tag == "input":
            data[name] = node.get("value") or ""
        elif node.tag == "textarea":
            data[name] = node.text()
        elif node.tag == "select":
            data[name] = _selected(node)
    for short, value in changes.items():
        matches = [n for n in names if n == short or n.endswith(f"-{short}")]
        assert len(matches) == 1, (short, sorted(names))
        data[matches[0]] = "" if value is None else str(value)
    return data


def _selected(select: Node) -> str:
    options = select.find_all("option")
    chosen = next((o for o in options if o.get("selected") is not None), options[0] if options else None)
    return "" if chosen is None else chosen.get("value") or ""


def shown_options(page: Any, name: str) -> list[tuple[str, str]]:
    """The options of the select ``name`` (value, words) and which one the page shows first."""
    select = parse(page).one("select", name=name)
    return [(o.get("value") or "", o.text()) for o in select.find_all("option")]


def field_errors(page: Any, field_id: str) -> str:
    """The words of the errors the page shows next to the field with this id (its error list)."""
    node = parse(page).by_id(f"{field_id}_error")
    return node.text() if node is not None else ""
