"""The layout's boundary: the pure library imports neither Django nor any app of the project.

Every import statement is read (nested ones too), so an import hidden inside a function counts. The import
contracts between the apps are checked by import-linter (``.importlinter``, run by ``dev.py test``).

And one boundary of the tests themselves: no test writes a publication field by hand (the last section).
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
    "duplicate",
    "pulkas",
    "players",
    "events",
    "visibility",
    "ui",
    "director",
    "demo",
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
    *(
        "tournaments",
        "boards",
        "scoring",
        "duplicate",
        "pulkas",
        "appeals",
        "players",
        "events",
        "visibility",
        "ui",
    ),
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


# -- tests reach a publication the way a director does ----------------------------------------------------------
# Rules §1, §13: results are published provisional, official once play is over, final after the correction period.
# A test that wrote these fields by hand could test a state the product never reaches (final results with play not
# over); tests publish through events.publication.publish (tests/publishing.py). The pure library's tests pass
# plain values to pure functions and are not scanned.
PUBLICATION_FIELDS = frozenset({"publication", "published_at", "official_at", "final_at"})
WRITERS = frozenset({"create", "update", "get_or_create", "update_or_create", "Tournament"})
TEST_FILES = sorted(
    p for p in (ROOT / "tests").rglob("*.py") if "preferans" not in p.relative_to(ROOT).parts[1:2]
)


def _named(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


def _targets(node: ast.expr) -> list[ast.expr]:
    return [t for e in node.elts for t in _targets(e)] if isinstance(node, ast.Tuple | ast.List) else [node]


def _strings(node: ast.expr | None) -> set[str]:
    """The string constants a field list or a dict's keys hold (``update_fields=[…]``, ``**{…}``)."""
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return {e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    if isinstance(node, ast.Dict):
        return {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
    return set()


def hand_written_publication(source: str) -> list[tuple[int, str]]:
    """Where a source writes a publication field itself: an assignment to ``x.publication`` (a tuple's part too),
    ``setattr(x, "official_at", …)``, ``publication=`` given to ``create``/``update``/``Tournament(…)`` (or in
    their ``defaults`` or ``**{…}``), or the fields saved by name (``save(update_fields=[…])``, ``bulk_update``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in (t for whole in targets for t in _targets(whole)):
                if isinstance(target, ast.Attribute) and target.attr in PUBLICATION_FIELDS:
                    found.append((node.lineno, f"assigns .{target.attr}"))
        if not isinstance(node, ast.Call):
            continue
        name = _named(node.func)
        if (
            name == "setattr"
            and len(node.args) > 1
            and _strings(ast.List(elts=[node.args[1]])) & PUBLICATION_FIELDS
        ):
            found.append((node.lineno, "setattr of a publication field"))
        if name == "bulk_update" and len(node.args) > 1 and _strings(node.args[1]) & PUBLICATION_FIELDS:
            found.append((node.lineno, "bulk_update of a publication field"))
        for keyword in node.keywords:
            given = {keyword.arg} if keyword.arg else _strings(keyword.value)
            if keyword.arg in ("defaults", "create_defaults"):
                given = _strings(keyword.value)
            if keyword.arg == "update_fields" and _strings(keyword.value) & PUBLICATION_FIELDS:
                found.append((node.lineno, f"saves {sorted(_strings(keyword.value) & PUBLICATION_FIELDS)}"))
            elif name in WRITERS and given & PUBLICATION_FIELDS:
                found.append((node.lineno, f"{name}() with {sorted(given & PUBLICATION_FIELDS)}"))
    return found


def test_the_tests_are_scanned() -> None:
    scanned = {p.relative_to(ROOT).as_posix() for p in TEST_FILES}
    assert {"tests/conftest.py", "tests/publishing.py", "tests/players/test_ratings.py"} <= scanned
    assert not any(name.startswith("tests/preferans/") for name in scanned)


@pytest.mark.parametrize("path", TEST_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_test_writes_the_publication_by_hand(path: Path) -> None:
    found = hand_written_publication(path.read_text(encoding="utf-8"))
    assert not found, (
        f"{path.relative_to(ROOT)} writes the publication by hand at {found}: publish through "
        "events.publication.publish (tests/publishing.py: end_every_round, publish_to) so that the test reaches "
        "only states the product can reach"
    )


@pytest.mark.parametrize(
    "source",
    [
        "t.publication = Publication.FINAL",
        "t.name, t.official_at = 'x', now",
        "t.save(update_fields=['publication', 'published_at'])",
        "Tournament.objects.filter(pk=1).update(publication='official', official_at=now)",
        "Tournament.objects.create(name='x', slug='x', publication=Publication.FINAL)",
        "Tournament(name='x', final_at=now)",
        "Tournament.objects.update_or_create(slug='x', defaults={'publication': 'final'})",
        "Tournament.objects.filter(pk=1).update(**{'published_at': None})",
        "setattr(t, 'final_at', now)",
        "Tournament.objects.bulk_update(events, ['publication'])",
    ],
)
def test_a_hand_written_publication_is_caught(source: str) -> None:
    assert hand_written_publication(source), source


def test_what_is_not_a_hand_written_publication_passes() -> None:
    source = "\n".join(
        [
            "publish(tournament=t, to=Publication.FINAL, user=director, now=now)",
            "publish_to(t, Publication.OFFICIAL, director, now, official_at=ENDED)",
            "deadlines.check_correction(now=now, publication=deadlines.OFFICIAL, official_at=ENDED, minutes=30)",
            "table_cards_pdf(m, tournament='T', publication='', session=1, lang='ru')",
            "assert (t.publication, t.official_at) == (Publication.FINAL, now)",
            "t.save(update_fields=['name', 'language'])",
        ]
    )
    assert hand_written_publication(source) == []
