"""The layout's boundary: the pure library imports neither Django nor any app of the project.

Every import statement is read (nested ones too), so an import hidden inside a function counts. The import
contracts between the apps are checked by import-linter (``.importlinter``, run by ``dev.py test``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PURE = ROOT / "preferans"
FORBIDDEN = {
    "django",
    "rest_framework",
    "drf_spectacular",
    "celery",
    "kombu",
    "config",
    "tournaments",
    "scoring",
    "boards",
    "appeals",
    "table",
    "results",
    "api",
}


def imported_modules(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


PURE_FILES = sorted(PURE.rglob("*.py"))


def test_the_pure_library_is_there() -> None:
    assert len(PURE_FILES) > 30


@pytest.mark.parametrize("path", PURE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_module_imports_no_django_and_no_app(path: Path) -> None:
    bad = [f"line {line}: {name}" for line, name in imported_modules(path) if name.split(".")[0] in FORBIDDEN]
    assert not bad, f"{path.relative_to(ROOT)} must stay pure: {bad}"


def test_a_forbidden_import_is_caught(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from django.db import models\n    import scoring.models\n")
    assert [name for _line, name in imported_modules(sample)] == ["django.db", "scoring.models"]
