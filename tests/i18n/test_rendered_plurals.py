"""Issue 30, «Language»: the pages and the PDFs say their counts in the right Russian (and English) form.

Events made the way directors make them (a bundle imported, rounds ended and results published through the
services; pulka events drawn and played through the round services) with counts of 1, 2, 5 and 21 —
participants, tables, rounds, rests, minutes of the appeal deadlines — are crawled as their director and as
the public sees them (Django's test client: every page of the event reached by a link), and every PDF the
exports page offers is made and read with pypdf. The checker (tests/plurals.py) finds no «<number> <noun>» in
the wrong form and no plural label of a single number («столы 2»).
"""

from __future__ import annotations

import io
import random
import re
from collections import Counter
from html import unescape
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from appeals.services.corrections import settings_update
from duplicate.rounds import round_end
from events.bundles import import_bundle
from preferans.simulate import simulated_bundle
from pulkas.services import rounds
from results.exporters import EXPORTERS, ExportError
from results.services import build_file
from tests.plurals import Finding, all_findings, english_wrong_forms
from tests.publishing import end_every_round, publish_to
from tests.pulkas.factory import play_to_the_end, pulka_event
from tournaments.models import Publication, Round, Tournament

pytestmark = pytest.mark.django_db

HREF = re.compile(r'href="(?P<url>/[^"#?]*)')
SKIP = re.compile(r"delete|logout|unlock|/download/|\.(?:svg|json|csv|xlsx|pdf|zip)$")
BLOCK = re.compile(
    r"</?(?:td|th|tr|li|p|div|br|h[1-6]|dt|dd|option|table|section|ul|ol|label|button|nav|text|g|svg)\b[^>]*>",
    re.I,
)
# PDFs that draw a sheet: the names of its areas («висты», «гора», «пуля»), not counted nouns, beside numbers.
DRAWINGS = {"pulka_sheets": ("висты", "гора", "пуля")}
PAGES_PER_EVENT = 90
SAME_SHAPE = 2  # pages of one shape (board 3, board 4, …) read per event


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def duplicate_event(
    director: Any, *, slug: str, movement: dict, players: int, people: int, played: int | None
):
    """A duplicate event imported from a bundle of ``people`` participants, ``played`` rounds played; the
    rounds played are ended by the director, the results published (provisional)."""
    bundle = simulated_bundle(
        name=f"Кубок {slug}",
        movement=movement,
        players=players,
        deals_per_set=players,
        played_rounds=played,
        participants=[{"number": n, "name": f"Игрок {n}", "club": "Клуб"} for n in range(1, people + 1)],
        seed=7,
    )
    now = timezone.now()
    t = import_bundle(data=bundle, user=director, slug=slug, now=now)
    if played is None:
        end_every_round(t, director, now)
    else:
        from duplicate.gaps import round_gaps
        from duplicate.rounds import round_start

        for rnd in t.sessions.get().rounds.order_by("number")[:played]:
            if rnd.status == Round.Status.PENDING:
                rnd = round_start(rnd=rnd, user=director, now=now)
            round_end(rnd=rnd, user=director, now=now, acknowledged=round_gaps(rnd).token)
    return publish_to(t, Publication.PROVISIONAL, director, now)


def words(html: str) -> str:
    """The text a reader sees, every tag read as a space (cells and lines apart: «1», «1» is not «11»)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S | re.I)
    html = BLOCK.sub(" | ", html)  # a number in one cell does not count the word of the next
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def crawl(client: Client, t: Tournament, starts: list[str]) -> dict[str, str]:
    """The visible text of every page of the event reached from ``starts`` by links (GET only)."""
    seen: dict[str, str] = {}
    shapes: Counter[str] = Counter()
    todo = list(starts)
    while todo and len(seen) < PAGES_PER_EVENT:
        url = todo.pop(0)
        shape = re.sub(r"\d+", "N", url)
        if url in seen or SKIP.search(url) or shapes[shape] >= SAME_SHAPE:
            continue
        shapes[shape] += 1
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            seen[url] = ""
            continue
        html = response.content.decode()
        seen[url] = words(html)
        for m in HREF.finditer(html):
            link = urlsplit(m.group("url")).path
            if f"/{t.slug}/" in link and link not in seen:
                todo.append(link)
    return seen


def pdf_texts(t: Tournament) -> dict[str, str]:
    """The text of every PDF the event's exports offer (per session, per round), in Russian."""
    out = {}
    for kind, cls in EXPORTERS.items():
        if "pdf" not in cls.formats or t.form not in cls.forms:
            continue
        options: dict[str, Any] = {"lang": "ru"}
        if cls.per_session:
            options["session"] = 1
        if cls.per_round:
            options["round"] = 1
        try:
            name, body = build_file(t.pk, kind, "pdf", options)
        except ExportError:
            continue
        text = "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(body)).pages)
        if kind in DRAWINGS:  # the drawn pulka: its area names sit next to the figures written in them
            text = re.sub(rf"\b(?:{'|'.join(DRAWINGS[kind])})\b", " | ", text)
        out[name] = text
    return out


def findings(texts: dict[str, str], *, english: bool = False) -> list[str]:
    out = []
    for where, text in texts.items():
        found: list[Finding] = english_wrong_forms(text) if english else all_findings(text)
        out += [f"{where}: {f}" for f in found]
    return out


def starts(t: Tournament) -> list[str]:
    public = (
        reverse("results:pulka-standings", kwargs={"slug": t.slug})
        if t.plays_pulkas
        else reverse("results:standings", kwargs={"slug": t.slug})
    )
    return [
        reverse("director:dashboard", kwargs={"slug": t.slug}),
        reverse("director:participants", kwargs={"slug": t.slug}),
        reverse("appeals:list", kwargs={"slug": t.slug}),
        public,
        reverse("results:projector", kwargs={"slug": t.slug}),
    ]


def check(director: Any, events: list[Tournament]) -> tuple[int, int, list[str]]:
    """Pages and PDFs read, and what the checker found, in Russian (and the English pages' numbers)."""
    client = Client()
    client.force_login(director)
    problems, pages, pdfs = [], 0, 0
    for t in events:
        texts = crawl(client, t, starts(t))
        pages += sum(1 for text in texts.values() if text)
        problems += findings(texts)
        files = pdf_texts(t)
        pdfs += len(files)
        problems += findings(files)
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    english.force_login(director)
    english.cookies["django_language"] = "en"
    for t in events:
        problems += findings(crawl(english, t, starts(t)[:3]), english=True)
    return pages, pdfs, problems


def test_duplicate_events_say_their_counts_right(director) -> None:
    """21 participants at 7 tables of 3 with 2 rounds of 7 played; 13 at tables of 4 (one rests in each round,
    1 round played); 20 at 5 tables, every round played. Appeals close 21 and 1 minutes after the session."""
    d21 = duplicate_event(
        director, slug="d21", movement={"scheme": "basic", "tables": 7}, players=3, people=21, played=2
    )
    d13 = duplicate_event(
        director, slug="d13", movement={"scheme": "book", "participants": 13}, players=4, people=13, played=1
    )
    d20 = duplicate_event(
        director, slug="d20", movement={"scheme": "basic", "tables": 5}, players=4, people=20, played=None
    )
    for t, minutes in ((d21, 21), (d13, 1), (d20, 5)):
        settings_update(
            tournament=t,
            filing_minutes=minutes,
            correction_minutes=minutes + 1,
            notice_required=True,
            online_filing=True,
            user=director,
            now=timezone.now(),
        )
    pages, pdfs, problems = check(director, [d21, d13, d20])
    assert pages >= 60 and pdfs >= 6, (pages, pdfs)
    assert not problems, "\n".join(problems)


def test_pulka_events_say_their_counts_right(director) -> None:
    """An Olympic event of 21 players at 7 tables of 3, round 1 played; a Swiss event of 12 in 5 rounds, 2
    played (5 deals a table)."""
    olympic = pulka_event(director, "olympic", 21, 3, slug="olympic21", pool=4)
    rng = random.Random(3)
    play_to_the_end(
        olympic, director, rounds.draw_round(tournament=olympic, user=director, now=timezone.now()), rng
    )
    swiss = pulka_event(director, "swiss", 12, 4, slug="swiss5", pool=4, rounds=5)
    for _ in range(2):
        play_to_the_end(
            swiss,
            director,
            rounds.draw_round(tournament=swiss, user=director, now=timezone.now()),
            rng,
            deals=5,
        )
    now = timezone.now()
    for t in (olympic, swiss):
        publish_to(t, Publication.PROVISIONAL, director, now)
    pages, pdfs, problems = check(director, [olympic, swiss])
    assert pages >= 30 and pdfs >= 4, (pages, pdfs)
    assert not problems, "\n".join(problems)
