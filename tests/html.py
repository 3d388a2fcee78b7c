"""A small DOM for tests: parse a page with the standard library and find elements by tag and attributes.

Tests assert on structure (ids, ``data-*`` attributes, form field names, roles) rather than on the words of
the interface, so a new wording or translation does not break them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Node:
    def __init__(self, tag: str, attrs: dict[str, str], parent: Node | None = None) -> None:
        self.tag = tag
        self.attrs = attrs
        self.parent = parent
        self.children: list[Node | str] = []

    def __repr__(self) -> str:
        return f"<{self.tag} {self.attrs}>"

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.attrs.get(name, default)

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def text(self) -> str:
        """The text inside, whitespace collapsed."""
        parts: list[str] = []

        def walk(node: Node) -> None:
            for child in node.children:
                if isinstance(child, str):
                    parts.append(child)
                else:
                    walk(child)

        walk(self)
        return re.sub(r"\s+", " ", "".join(parts)).strip()

    def iter(self) -> Iterator[Node]:
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.iter()

    def matches(self, tag: str | None, attrs: dict[str, Any]) -> bool:
        if tag is not None and self.tag != tag:
            return False
        for name, wanted in attrs.items():
            name = name.rstrip("_").replace("_", "-")
            if name == "class":
                if wanted not in self.classes:
                    return False
            elif wanted is True:
                if name not in self.attrs:
                    return False
            elif wanted is False or wanted is None:
                if name in self.attrs:
                    return False
            elif self.attrs.get(name) != str(wanted):
                return False
        return True

    def find_all(self, tag: str | None = None, **attrs: Any) -> list[Node]:
        """Descendants with this tag (any when None) and attributes: ``class_="x"`` is one class among several,
        ``data_live="1"`` is ``data-live``, ``True``/``False`` is present/absent."""
        return [n for n in self.iter() if n.matches(tag, attrs)]

    def find(self, tag: str | None = None, **attrs: Any) -> Node | None:
        found = self.find_all(tag, **attrs)
        return found[0] if found else None

    def one(self, tag: str | None = None, **attrs: Any) -> Node:
        found = self.find_all(tag, **attrs)
        assert len(found) == 1, f"expected one <{tag or '*'} {attrs}>, found {len(found)}"
        return found[0]

    def by_id(self, ident: str) -> Node | None:
        return self.find(id=ident)

    def ancestors(self) -> Iterator[Node]:
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def forms(self, action: str | None = None) -> list[Node]:
        return [f for f in self.find_all("form") if action is None or f.get("action") == action]

    def buttons(self, name: str | None = None, value: str | None = None) -> list[Node]:
        return [
            b
            for b in self.find_all("button")
            if (name is None or b.get("name") == name) and (value is None or b.get("value") == value)
        ]


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.current = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: (v if v is not None else "") for k, v in attrs}, self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: (v if v is not None else "") for k, v in attrs}, self.current)
        self.current.children.append(node)

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data: str) -> None:
        self.current.children.append(data)


def parse(page: Any) -> Node:
    """The document of an HTML string, bytes or a test client's response."""
    if hasattr(page, "content"):
        page = page.content
    if isinstance(page, bytes):
        page = page.decode()
    builder = _Builder()
    builder.feed(page)
    builder.close()
    return builder.root


def lang(page: Any) -> str | None:
    """The language the page says it is in (``<html lang>``)."""
    html = parse(page).find("html")
    return html.get("lang") if html is not None else None


def visible_text(page: Any) -> str:
    """The words a reader sees: the text outside <script> and <style>, whitespace collapsed."""
    doc = parse(page)
    for node in doc.find_all("script") + doc.find_all("style"):
        node.children = []
    return doc.text()


ENGLISH_PHRASE = re.compile(r"\b[A-Za-z][a-z]*(?:[ ,]+[a-z]{2,})+\b")


def english_phrases(text: str, *data: str) -> list[str]:
    """Runs of two or more English words (``Start round``, ``results entered``) in a text: on a page rendered
    in Russian these are interface words left untranslated. Data such as ``N 1``, ``6♠`` or ``A+`` is not matched;
    ``data`` are texts the page shows as they were typed (a tournament's name), left out first."""
    for item in data:
        text = text.replace(item, " ")
    return ENGLISH_PHRASE.findall(text)
