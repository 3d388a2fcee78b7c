"""The audit trail in words, either form (``tournaments.audit.entry_words``, the one reading every audit page uses).

Every action code the code base logs is found by reading the source (calls with ``action=``, the functions that
pass an ``action`` parameter on, names assigned a code) and must have words in English and in Russian; every actor
the code base names itself has words; and the audit pages of a small event of each form, run through the services
and the players' pages, show no raw code and no verb whose gender may misfit the actor, in Russian.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone, translation

from tests.html import english_phrases, parse, visible_text
from tests.tournaments.audit_events import NAMES, audit_pages, played_duplicate_event, played_pulka_event
from tournaments.audit import (
    ACTION_LABELS,
    SYSTEM_ACTORS,
    SYSTEM_REASONS,
    action_label,
    actor_words,
    entry_words,
    object_label,
    player_actor,
)
from tournaments.models import AuditEntry, Participant, Publication
from tournaments.services.event import tournament_create

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
APPS = (
    *("tournaments", "boards", "scoring", "duplicate", "pulkas", "appeals", "players", "events", "ui"),
    *("director", "table", "results", "api", "demo"),
)
# An f-string code and every code it can make (a new f-string fails the test until it is listed here).
EXPANSIONS = {
    "publication.{}": [f"publication.{p}" for p in Publication.values],
}
# A man's or a woman's past tense («подтвердил», «подтвердила»): it would misfit an actor of the other gender.
GENDERED_VERB = re.compile(r"\b[а-яё]+(?:ил|ал|ял|ел|ёл|ыл|ила|ала|яла|ела|ыла)\b", re.IGNORECASE)
# What a Russian audit page must never show: the codes themselves, the models' English descriptions.
RAW = re.compile(
    r"\b(?:pulka_[a-z_]+|[a-z_]+\.[a-z_]+|t\d+ deal \d+|deal \d+|board \d+|seat [NESW]|participant \d+)\b"
)


def _strings(node: ast.expr) -> list[str]:
    """The codes an expression can be: its string constants (both sides of ``a if c else b``), an f-string as a
    pattern with ``{}`` for each hole."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _strings(node.body) + _strings(node.orelse)
    if isinstance(node, ast.JoinedStr):
        return [
            "".join(
                part.value if isinstance(part, ast.Constant) else "{}"
                for part in node.values
                if isinstance(part, ast.Constant | ast.FormattedValue)
            )
        ]
    return []


def _sources() -> list[tuple[Path, ast.Module]]:
    return [
        (path, ast.parse(path.read_text(encoding="utf-8")))
        for app in APPS
        for path in sorted((ROOT / app).rglob("*.py"))
        if "migrations" not in path.parts
    ]


WRITERS = {"log_action", "audit_entry"}  # tournaments.audit: what writes an entry of the audit trail


def _passes_on(sources: list[tuple[Path, ast.Module]], keyword: str) -> dict[str, int | None]:
    """The functions that pass their ``keyword`` parameter on to an audit writer (directly or through another
    such function), with the parameter's position (None: keyword only): ``scoring.withdraw.withdraw``, the
    appeals' ``_log``…"""
    functions = [node for _p, tree in sources for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)]
    found: dict[str, int | None] = {}
    while True:
        grown = False
        for node in functions:
            positional = [a.arg for a in node.args.posonlyargs + node.args.args]
            if node.name in found or keyword not in positional + [a.arg for a in node.args.kwonlyargs]:
                continue
            calls = [c for c in ast.walk(node) if isinstance(c, ast.Call)]
            if any(_name(c) in WRITERS | set(found) and _passes(c, keyword) for c in calls):
                skip = 1 if positional and positional[0] in ("self", "cls") else 0
                found[node.name] = positional.index(keyword) - skip if keyword in positional else None
                grown = True
        if not grown:
            return found


def _name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _passes(call: ast.Call, keyword: str) -> bool:
    values = [kw.value for kw in call.keywords if kw.arg == keyword] + list(call.args)
    return any(isinstance(v, ast.Name) and v.id == keyword for v in values)


def logged(keyword: str) -> dict[str, set[str]]:
    """Every value the code base gives the ``keyword`` (``action`` or ``actor``) of an audit entry, and where:
    the constants given to an audit writer or to a function passing it on, and those assigned to a name the
    writer is then given (``action = "penalty.update"``, ``DRAW_ACTION = "participants.draw"``)."""
    sources = _sources()
    passes_on = _passes_on(sources, keyword)
    found: dict[str, set[str]] = {}

    def add(values: list[str], path: Path) -> None:
        for value in values:
            found.setdefault(value, set()).add(str(path.relative_to(ROOT)))

    for path, tree in sources:
        named: set[str] = set()  # names given to a writer in this module
        for call in (c for c in ast.walk(tree) if isinstance(c, ast.Call)):
            name = _name(call)
            if name not in WRITERS and name not in passes_on:
                continue
            given = [kw.value for kw in call.keywords if kw.arg == keyword]
            position = passes_on.get(name)
            if position is not None and len(call.args) > position:
                given.append(call.args[position])
            for value in given:
                add(_strings(value), path)
                if isinstance(value, ast.Name):
                    named.add(value.id)
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    pairs = (
                        [(target, node.value)]
                        if isinstance(target, ast.Name)
                        else list(zip(target.elts, node.value.elts, strict=False))
                        if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
                        else []
                    )
                    for name_node, value in pairs:
                        if isinstance(name_node, ast.Name) and name_node.id in named:
                            add(_strings(value), path)
    return found


def action_codes() -> dict[str, set[str]]:
    codes: dict[str, set[str]] = {}
    for code, where in logged("action").items():
        if "{}" in code:
            assert code in EXPANSIONS, f"{code!r} ({sorted(where)}): list the codes it makes in EXPANSIONS"
            for made in EXPANSIONS[code]:
                codes.setdefault(made, set()).update(where)
        else:
            codes.setdefault(code, set()).update(where)
    return codes


def test_the_source_reading_finds_the_codes_of_both_forms():
    codes = action_codes()
    # a keyword argument, a code passed on by a helper's parameter, a name assigned a code, an f-string
    for code in (
        "result.create",
        "appeal.close",
        "participants.draw",
        "publication.final",
        "pulka_deal_entered",
    ):
        assert code in codes
    assert len(codes) > 70


def test_every_logged_action_code_has_words_in_english_and_russian():
    missing, untranslated, gendered = [], [], []
    for code, where in sorted(action_codes().items()):
        if code not in ACTION_LABELS:
            missing.append(f"{code} ({', '.join(sorted(where))})")
            continue
        with translation.override("en"):
            english = action_label(code)
        with translation.override("ru"):
            russian = action_label(code)
        if russian == english or not re.search("[а-яё]", russian, re.IGNORECASE):
            untranslated.append(code)
        if GENDERED_VERB.search(russian):
            gendered.append(f"{code}: {russian}")
    assert not missing, f"codes without words in tournaments.audit.ACTION_LABELS: {missing}"
    assert not untranslated, f"codes without Russian words: {untranslated}"
    assert not gendered, f"words that may misfit the actor's gender: {gendered}"


def test_every_actor_the_code_base_names_itself_has_words():
    actors = logged("actor")
    made_up = sorted(a for a in actors if "{}" in a)
    assert not made_up, f"name players with tournaments.audit.player_actor / participant_actor: {made_up}"
    named = sorted(a for a in actors if a)
    assert named and set(named) <= set(SYSTEM_ACTORS)
    for actor in named:
        with translation.override("ru"):
            assert actor_words(actor) != actor and re.search("[а-яё]", actor_words(actor))
    for reason in SYSTEM_REASONS:
        with translation.override("ru"):
            assert re.search("[а-яё]", str(SYSTEM_REASONS[reason]))


def test_a_player_is_named_alike_at_a_table_of_either_form():
    anna = Participant(number=3, name="Ершова")
    assert player_actor(anna, table=2, seat="E") == "3 Ершова · 2/E"
    with translation.override("ru"):
        assert actor_words("3 Ершова · 2/E") == "3 Ершова (стол 2, позиция E)"
        # entries written before: a duplicate table's in English, a pulka table's without the table
        assert actor_words("3 Ершова (table 2, seat E)") == "3 Ершова (стол 2, позиция E)"
        assert actor_words("3 Ершова (seat E)", {"table": 2}) == "3 Ершова (стол 2, позиция E)"
        assert actor_words("participant 7") == "участник 7"
        assert actor_words("director") == "director"
        assert object_label(
            "pulka_deal_entered", "Кубок / 1 t3 deal 1", {"round": 1, "table": 3, "deal": 1}
        ) == ("тур 1, стол 3, сдача 1")


# -- the pages of a small event of each form ------------------------------------------------------------
def _check_russian_audit(client: Client, url: str, tournament_name: str) -> str:
    """The audit page in Russian: no code, no English and no gendered verb in the words the page makes (who,
    what, to what); the reasons as typed by people (a player may write «перепутала») but no code or English."""
    response = client.get(url, headers={"accept-language": "ru"})
    assert response.status_code == 200
    rows = parse(response).one("tbody").find_all("tr")
    assert len(rows) > 5
    for row in rows:
        cells = [cell.text() for cell in row.find_all("td")]
        made, why = cells[1:4], cells[4]
        for text in [*made, why]:
            assert not RAW.findall(text), (cells, RAW.findall(text))
            assert not english_phrases(text, tournament_name, *NAMES), (cells, english_phrases(text))
        for text in made:
            assert not GENDERED_VERB.findall(text), (cells, GENDERED_VERB.findall(text))
    return visible_text(response)


def test_a_pulka_events_audit_pages_speak_russian_words(director):
    t, writer = played_pulka_event(director)
    actions = set(AuditEntry.objects.filter(tournament=t).values_list("action", flat=True))
    assert {
        "pulka_deal_entered",
        "pulka_deal_confirmed",
        "pulka_deal_corrected",
        "pulka_table_stopped",
        "pulka_round_ended",
    } <= actions
    client = Client()
    client.force_login(director)
    for url in audit_pages(t):
        text = _check_russian_audit(client, url, t.name)
        assert "Сдача записана" in text and "Сдача подтверждена" in text and "Сдача исправлена" in text
        assert f"{writer.number} Ершова (стол 1, позиция " in text
        assert "тур 1, стол 1, сдача 1" in text


def test_a_duplicate_events_audit_pages_speak_russian_words(director):
    t, confirmer = played_duplicate_event(director)
    actions = set(AuditEntry.objects.filter(tournament=t).values_list("action", flat=True))
    assert {
        "result.create",
        "result.confirm",
        "result.dispute",
        "round.end",
        "publication.provisional",
    } <= actions
    client = Client()
    client.force_login(director)
    for url in audit_pages(t):
        text = _check_russian_audit(client, url, t.name)
        assert "Результат записан" in text and "Результат подтверждён" in text and "Результат оспорен" in text
        assert f"{confirmer.number} {confirmer.name} (стол 1, позиция S)" in text


def test_the_words_of_an_entry_are_one_reading(director):
    t = tournament_create(name="Кубок", user=director, slug="one", now=timezone.now())
    entry = AuditEntry.objects.filter(tournament=t, action="tournament.create").get()
    with translation.override("ru"):
        words = entry_words(entry)
    assert (words.who, words.what, words.object) == ("director", "Турнир создан", "Кубок")
