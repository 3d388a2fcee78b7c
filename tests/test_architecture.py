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


# -- the apps' layout: every module on a layer of .importlinter, no two apps importing each other ---------------
APPS = (
    *("tournaments", "boards", "scoring", "duplicate", "pulkas", "appeals", "players", "events", "ui"),
    *("director", "table", "results", "api", "demo", "config"),
)


def _modules() -> dict[str, Path]:
    """Every module of the apps (packages by their ``__init__``), but migrations."""
    out = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            rel = path.relative_to(ROOT).with_suffix("")
            if "migrations" in rel.parts:
                continue
            out[".".join(rel.parts).removesuffix(".__init__")] = path
    return out


def _layers() -> list[str]:
    """The module names the layers contract of ``.importlinter`` names, in every layer."""
    text = (ROOT / ".importlinter").read_text(encoding="utf-8")
    block = text.split("[importlinter:contract:layers]", 1)[1].split("\n[", 1)[0]
    lines = block.split("layers =", 1)[1].splitlines()
    names = []
    for line in lines:
        if line.startswith((" ", "\t")) and line.strip():
            names += [n.strip() for n in line.replace(":", "|").split("|") if n.strip()]
    return names


def test_every_module_is_on_a_layer() -> None:
    layers = _layers()
    assert "tournaments.models" in layers and "director" in layers
    app_roots = set(APPS)
    missing = [
        name
        for name in _modules()
        if name not in app_roots and not any(name == n or name.startswith(n + ".") for n in layers)
    ]
    assert not missing, f"modules on no layer of .importlinter: {missing}"


def _app_imports() -> dict[tuple[str, str], list[str]]:
    edges: dict[tuple[str, str], list[str]] = {}
    for name, path in _modules().items():
        app = name.split(".")[0]
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    targets = [".".join(base + ([node.module] if node.module else []))]
                elif node.module:
                    targets = [node.module]
            for target in targets:
                other = target.split(".")[0]
                if other in APPS and other != app:
                    edges.setdefault((app, other), []).append(f"{name} → {target}")
    return edges


def test_no_two_apps_import_each_other() -> None:
    edges = _app_imports()
    assert ("director", "tournaments") in edges  # the scan sees imports
    both = sorted({tuple(sorted(pair)) for pair in edges if (pair[1], pair[0]) in edges})
    assert not both, "apps importing each other: " + "; ".join(
        f"{a} ⇄ {b}: {edges[(a, b)][:2]} / {edges[(b, a)][:2]}" for a, b in both
    )
