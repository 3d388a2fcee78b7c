#!/usr/bin/env python3
"""Merge the Russian translations that features leave in ``locale/pending/*.json`` into ``ru/django.po``.

Workflow: ``manage.py makemessages -l ru --ignore=.venv --ignore=tests --ignore=bench --no-location``, then
``python locale/merge_pending.py``, then ``manage.py compilemessages -l ru``. Only empty entries are filled;
what the .po already says wins. Keys are msgids (``"context\\x04msgid"`` for a msgid with a context); a plural
msgid maps to a list of forms [one, few, many, other]. Prints the msgids still untranslated.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PO = HERE / "ru" / "LC_MESSAGES" / "django.po"


def load_pending() -> dict[str, str | list[str]]:
    merged: dict[str, str | list[str]] = {}
    for path in sorted((HERE / "pending").glob("*.json")):
        for key, value in json.loads(path.read_text(encoding="utf-8")).items():
            merged.setdefault(key, value)
    return merged


def unquote(lines: list[str]) -> str:
    return "".join(json.loads(line[line.index('"') :]) for line in lines)


def main() -> None:
    pending = load_pending()
    text = PO.read_text(encoding="utf-8")
    nplurals = int(re.search(r"nplurals=(\d+)", text).group(1))  # type: ignore[union-attr]
    out, missing = [], []
    for block in text.split("\n\n"):
        lines = block.split("\n")
        parts: dict[str, list[str]] = {}
        current = None
        for line in lines:
            m = re.match(r"^(msgctxt|msgid_plural|msgid|msgstr(\[\d+\])?) (\".*\")$", line)
            if m:
                current = m.group(1)
                parts[current] = [line]
            elif line.startswith('"') and current:
                parts[current].append(line)
        if "msgid" not in parts or unquote(parts["msgid"]) == "":
            out.append(block)
            continue
        msgid = unquote(parts["msgid"])
        key = (unquote(parts["msgctxt"]) + "\x04" + msgid) if "msgctxt" in parts else msgid
        done = any(unquote(v) for k, v in parts.items() if k.startswith("msgstr"))
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in lines)
        if done and not fuzzy:
            out.append(block)
            continue
        if key not in pending:
            missing.append(key)
            out.append(block)
            continue
        value = pending[key]
        new = [ln for ln in lines if ln.startswith("#") and "fuzzy" not in ln]
        new += parts.get("msgctxt", []) + parts["msgid"]
        if "msgid_plural" in parts:
            forms = value if isinstance(value, list) else [value]
            forms = (forms + [forms[-1]] * nplurals)[:nplurals]
            new += parts["msgid_plural"] + [
                f"msgstr[{i}] {json.dumps(f, ensure_ascii=False)}" for i, f in enumerate(forms)
            ]
        else:
            new.append(
                "msgstr " + json.dumps(value if isinstance(value, str) else value[0], ensure_ascii=False)
            )
        out.append("\n".join(new))
    PO.write_text("\n\n".join(out), encoding="utf-8")
    print(f"{len(missing)} msgid(s) still untranslated", file=sys.stderr)
    for key in missing:
        print("  " + json.dumps(key, ensure_ascii=False), file=sys.stderr)


if __name__ == "__main__":
    main()
