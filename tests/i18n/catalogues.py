"""The Russian catalogues as entries (locale/ru and every locale/parts/*/ru), read without a .po library."""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINE = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d\])?)\s+(".*")$')


@dataclass
class Entry:
    path: Path
    fields: dict[str, str] = field(default_factory=dict)

    @property
    def msgid(self) -> str:
        return self.fields.get("msgid", "")

    @property
    def plural(self) -> bool:
        return "msgid_plural" in self.fields

    def forms(self) -> list[str]:
        return [self.fields[k] for k in sorted(self.fields) if k.startswith("msgstr[")]

    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}: {self.msgid!r}"


def catalogues() -> list[Path]:
    return [
        ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po",
        *sorted((ROOT / "locale" / "parts").glob("*/ru/LC_MESSAGES/django.po")),
    ]


def entries(path: Path) -> list[Entry]:
    out: list[Entry] = []
    current, key = Entry(path), ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            if not line and current.fields:
                out.append(current)
                current = Entry(path)
            continue
        m = LINE.match(line)
        if m:
            key = m.group(1)
            if key in current.fields or (key in ("msgctxt", "msgid") and "msgstr" in "".join(current.fields)):
                out.append(current)
                current = Entry(path)
            current.fields[key] = json.loads(m.group(2))
        elif line.startswith('"'):
            current.fields[key] += json.loads(line)
    if current.fields:
        out.append(current)
    return [e for e in out if e.msgid]


def all_entries() -> list[Entry]:
    return [e for path in catalogues() for e in entries(path)]


SKIP = {".venv", "tests", "bench", "node_modules", "staticfiles", "media", ".git"}


def _sources(suffix: str) -> list[Path]:
    return [p for p in ROOT.rglob(f"*{suffix}") if not SKIP & set(p.relative_to(ROOT).parts)]


SINGULAR_CALLS = {"_", "gettext", "gettext_lazy", "gettext_noop", "pgettext", "pgettext_lazy"}
PLURAL_CALLS = {"ngettext", "ngettext_lazy", "npgettext", "npgettext_lazy"}


@dataclass
class Said:
    """What the code and the templates ask to translate: (context, msgid) of plain calls, (context, msgid,
    msgid_plural) of plural ones, and the other string constants (messages kept in dicts and tuples)."""

    singular: set[tuple[str | None, str]] = field(default_factory=set)
    plural: set[tuple[str | None, str, str]] = field(default_factory=set)
    loose: set[str] = field(default_factory=set)


def _name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _python(said: Said) -> None:
    for path in _sources(".py"):
        args_of_calls: set[int] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = _name(node.func)
            texts = [
                a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None
                for a in node.args
            ]
            context = texts[0] if name.startswith(("pgettext", "npgettext")) and texts else None
            rest = texts[1:] if name.startswith(("pgettext", "npgettext")) else texts
            if name in SINGULAR_CALLS and rest and rest[0] is not None:
                said.singular.add((context, " ".join(rest[0].split())))
                args_of_calls.update(id(a) for a in node.args)
            elif name in PLURAL_CALLS and len(rest) >= 2 and rest[0] is not None and rest[1] is not None:
                said.plural.add((context, " ".join(rest[0].split()), " ".join(rest[1].split())))
                args_of_calls.update(id(a) for a in node.args)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in args_of_calls
            ):
                said.loose.add(node.value)


BLOCK = re.compile(
    r"{%\s*blocktrans(?:late)?\b(?P<args>[^%]*)%}(?P<body>.*?){%\s*endblocktrans(?:late)?\s*%}"
)
TRANSLATE = re.compile(r"""{%\s*trans(?:late)?\s+(?P<q>["'])(?P<text>.*?)(?P=q)(?P<args>[^%]*)%}""")
CONTEXT = re.compile(r"""context\s+(?P<q>["'])(?P<text>.*?)(?P=q)""")
VARIABLE = re.compile(r"{{\s*(\w+)\s*}}")


def _msgid(body: str) -> str:
    return " ".join(VARIABLE.sub(r"%(\1)s", body.replace("%", "%%")).split())


def _templates(said: Said) -> None:
    for path in _sources(".html"):
        text = " ".join(path.read_text(encoding="utf-8").split())
        for m in TRANSLATE.finditer(text):
            c = CONTEXT.search(m.group("args"))
            said.singular.add((c.group("text") if c else None, m.group("text")))
        for m in BLOCK.finditer(text):
            c = CONTEXT.search(m.group("args"))
            context = c.group("text") if c else None
            parts = re.split(r"{%\s*plural\s*%}", m.group("body"))
            if len(parts) == 2:
                said.plural.add((context, _msgid(parts[0]), _msgid(parts[1])))
            else:
                said.singular.add((context, _msgid(parts[0])))


@cache
def _said() -> Said:
    said = Said()
    _python(said)
    _templates(said)
    return said


def in_use(all_of: list[Entry]) -> list[Entry]:
    """The entries the code or a template still asks for (a rewritten string leaves its old entry behind in the
    catalogue of the branch that wrote it; a string that became a plural leaves its plain entry)."""
    said = _said()
    out = []
    for entry in all_of:
        context = entry.fields.get("msgctxt")
        msgid = " ".join(entry.msgid.split())
        if entry.plural:
            plural = " ".join(entry.fields["msgid_plural"].split())
            if (context, msgid, plural) in said.plural or {
                entry.msgid,
                entry.fields["msgid_plural"],
            } <= said.loose:
                out.append(entry)
        elif (context, msgid) in said.singular or (context is None and entry.msgid in said.loose):
            out.append(entry)
    return out
