"""A crawler for the browser tests: it starts where a user starts and follows the links a user can click, one page
of each kind (a Django route, per form of event), and checks every page it reaches the same way: axe-core
(WCAG 2.2 A/AA and axe's best practices), no table wider than the screen, no wrong plural (tests/plurals.py) and on
a Russian page no English word.

Used by ``test_every_page.py``; the checks are pure functions of the page so that each is written once."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from urllib.parse import urldefrag, urlsplit

from django.urls import Resolver404, resolve

from tests.e2e.conftest import overflowing, screenshot
from tests.plurals import all_findings, english_wrong_forms

AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]

# Never followed: leaving the session, Django's admin (not ours to translate), files and machine answers.
SKIP_PREFIXES = ("/admin/", "/accounts/logout", "/static/", "/media/", "/api/", "/i18n/", "/healthz")
FILE_SUFFIXES = (".pdf", ".xlsx", ".csv", ".json", ".svg", ".zip", ".png", ".txt", ".xml", ".ics")

# Latin words a Russian page may carry: seat letters, units and names of formats and things that have no
# Russian name in the hall (PIN, QR, PDF, Excel, ...), the product's own Latin identifiers (slugs, codes).
LATIN_ALLOWED = {
    "N",
    "E",
    "S",
    "W",
    "PIN",
    "QR",
    "PDF",
    "CSV",
    "XLSX",
    "ZIP",
    "Excel",
    "ID",
    "DD",
    "API",
    "JSON",
    "URL",
    "IMP",
    "MP",
    "FIDE",
    "UTC",
    "Swiss",
}


@dataclass
class CrawlReport:
    visited: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def fail(self, url: str, what: str) -> None:
        self.failures.append(f"{url}: {what}")


def page_kind(path: str, form_of: Callable[[str], str]) -> str | None:
    """The kind of page a path is (its route, and the event's form when the route names an event), or None
    for a path the crawler does not follow."""
    if path.startswith(SKIP_PREFIXES) or path.lower().endswith(FILE_SUFFIXES):
        return None
    try:
        match = resolve(path)
    except Resolver404:
        return f"404:{path}"
    slug = match.kwargs.get("slug")
    return f"{match.view_name}|{form_of(slug) if slug else ''}"


def axe_violations(pg) -> list[str]:  # type: ignore[no-untyped-def]
    from axe_playwright_python.sync_playwright import Axe

    options = {"runOnly": {"type": "tag", "values": AXE_TAGS}, "resultTypes": ["violations"]}
    results = Axe().run(pg, options=options).response
    lines = []
    for v in results["violations"]:
        targets = "; ".join(
            f"{', '.join(map(str, n['target']))} «{n.get('html', '')[:90]}»" for n in v["nodes"][:4]
        )
        lines.append(f"axe {v['id']} ({v['impact']}, {len(v['nodes'])}): {targets}")
    return lines


# The text a user reads or hears: visible text, and the names and hints of controls.
READ_TEXT_JS = """() => {
  const lang = document.documentElement.lang;
  // A control in another language says so (``lang``): the language switch offers «English» on a Russian page.
  const foreign = el => { const l = el.closest('[lang]'); return l && l.getAttribute('lang') !== lang; };
  const parts = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('script, style, template, code, kbd, samp, pre, textarea, [translate=no]') || foreign(el)) continue;
    parts.push(n.nodeValue);
  }
  for (const el of document.querySelectorAll('[title],[aria-label],[placeholder],img[alt],input[type=submit],input[type=button]'))
    if (!foreign(el)) for (const a of ['title', 'aria-label', 'placeholder', 'alt', 'value'])
      if (el.getAttribute(a) && (a !== 'value' || el.type === 'submit' || el.type === 'button')) parts.push(el.getAttribute(a));
  return parts.join('\\n');
}"""

# The cards as the bundle writes them (a suit letter, then ranks: SAKQ C7 DJ98 H10): notation, not words.
CARD_NOTATION = re.compile(r"[SCDH](?:[AKQJT987]|10)+")
LATIN_WORD = re.compile(r"(?<![\w/.@:-])([A-Za-z][A-Za-z'-]*[A-Za-z]|[A-Za-z])(?![\w/.@-])")


def english_words(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """Latin words of two letters or more in a Russian page's text that are not on the allowed list."""
    ok = LATIN_ALLOWED | set(allowed)
    found = []
    for word in LATIN_WORD.findall(text):
        if len(word) >= 2 and word not in ok and word.upper() not in ok and not CARD_NOTATION.fullmatch(word):
            found.append(word)
    return sorted(set(found))


def crawl(
    pg,  # type: ignore[no-untyped-def]
    starts: Iterable[str],
    *,
    form_of: Callable[[str], str],
    check: Callable[[object, str, CrawlReport], None],
    max_pages: int = 400,
    shots: str = "",
) -> CrawlReport:
    """Visit ``starts``, then every same-site link found, one page of each kind; ``check`` each page (and,
    with ``shots``, keep a screenshot of it named so in test-artifacts/)."""
    report = CrawlReport()
    first = list(starts)  # each start is visited, even a second page of one kind (another state of it)
    queue: list[str] = list(first)
    seen_kinds: set[str] = set()
    seen_urls: set[str] = set()
    while queue and len(report.visited) < max_pages:
        url = queue.pop(0)
        path = urlsplit(url).path
        kind = page_kind(path, form_of)
        if kind is None or url in seen_urls or (kind in seen_kinds and url not in first):
            continue
        seen_urls.add(url)
        seen_kinds.add(kind)
        if kind.startswith("404:"):
            report.fail(url, "a link leads to no page")
            continue
        response = pg.goto(url)
        status = response.status if response is not None else 0
        if status != 200:
            report.fail(url, f"answered {status}")
            continue
        report.visited.append(url)
        check(pg, url, report)
        if shots:
            screenshot(pg, f"{shots}-{len(report.visited):03d}-{path.strip('/').replace('/', '-') or 'home'}")
        for href in pg.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))"):
            href = urldefrag(href or "")[0]
            if href.startswith("/") and not href.startswith("//") and href not in seen_urls:
                queue.append(href)
    return report


# On the phone's table pages every control is at least 44×44 px (a radio or checkbox counts with its label; a link
# inside a sentence is exempt, as WCAG's target-size exempts inline targets).
SMALL_TARGETS_JS = """() => {
  const bad = [];
  const seen = new Set();
  for (let el of document.querySelectorAll('button, select, input:not([type=hidden]), textarea, summary, a.btn, a[role=button]')) {
    if ((el.type === 'radio' || el.type === 'checkbox') && el.closest('label')) el = el.closest('label');
    if (seen.has(el)) continue;
    seen.add(el);
    const r = el.getBoundingClientRect(), style = getComputedStyle(el);
    if (!r.width || !r.height || style.visibility === 'hidden') continue;
    if (r.width < 43.5 || r.height < 43.5)
      bad.push(`${el.tagName.toLowerCase()}${el.name ? '[name=' + el.name + ']' : ''} «${(el.innerText || el.value || '').trim().slice(0, 30)}» ${Math.round(r.width)}×${Math.round(r.height)}`);
  }
  return bad;
}"""
PHONE_PAGES = ("/table/", "/pulka/", "/p/")


def standard_checks(
    *, russian: bool, allowed_words: Iterable[str] = (), phone: bool = False
) -> Callable[[object, str, CrawlReport], None]:
    allowed = set(allowed_words)

    def check(pg, url: str, report: CrawlReport) -> None:  # type: ignore[no-untyped-def]
        for line in axe_violations(pg):
            report.fail(url, line)
        for line in overflowing(pg):
            report.fail(url, f"wider than the screen: {line}")
        if phone and urlsplit(url).path.startswith(PHONE_PAGES):
            small = pg.evaluate(SMALL_TARGETS_JS)
            if small:
                report.fail(url, f"targets under 44×44 px on a phone: {'; '.join(small[:8])}")
        text = pg.evaluate(READ_TEXT_JS)
        # Plurals are read in the page's own lines and cells (a number never agrees with a word in the next cell).
        shown = re.sub(r"[\t\n]+", " | ", pg.evaluate("() => document.body.innerText"))
        wrong = all_findings(shown) if russian else english_wrong_forms(shown)
        if wrong:
            report.fail(url, f"wrong plural: {'; '.join(map(str, wrong[:6]))}")
        if russian:
            words = english_words(text, allowed)
            if words:
                report.fail(url, f"English words on a Russian page: {', '.join(words[:12])}")

    return check


def assert_accessible(pg, *, phone: bool = True) -> None:  # type: ignore[no-untyped-def]
    """One page in the state a user brought it to: no axe violation, nothing wider than the screen, and on a
    phone every control a finger's size."""
    bad = axe_violations(pg) + [f"wider than the screen: {line}" for line in overflowing(pg)]
    if phone:
        bad += [f"under 44×44 px: {line}" for line in pg.evaluate(SMALL_TARGETS_JS)]
    assert not bad, "\n".join(bad)
