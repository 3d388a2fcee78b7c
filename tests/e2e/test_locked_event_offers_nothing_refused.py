"""A locked event offers no action that would be refused (issue 30, «Nothing irreversible by accident»): every
director and committee page of a locked event of each form, reached by its links, has no form that changes the
event and no link to an entry form — only what still works: reading, printing and files, the language, logging
out, and for an organiser the unlock."""

from __future__ import annotations

import datetime as dt
from urllib.parse import urljoin, urlsplit

import pytest
from django.urls import Resolver404, resolve
from django.utils import timezone

from events.publication import publication_gaps, publish, tournament_lock
from tests.e2e.conftest import login
from tests.e2e.crawl import page_kind
from tests.e2e.test_every_page import _form_of, _seed
from tournaments.models import Publication, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The forms a locked event's pages may still carry (view names), and the links they may not.
STILL_WORKS = {
    "set_language",
    "logout",
    "results:exports",  # files are made from a locked event too
    "director:publication",  # checked below: only the unlock
    "director:analysis",  # the double-dummy analysis reads the layouts, changes no result
    "players:event_links",  # the player register's links are the register's, not the event's
    "appeals:player-logout",
}
ENTRY_VIEWS = {"director:board_entry", "director:pulka_table_entry", "director:pulka_deal_entry"}

# A form whose every control is disabled (a locked event's settings, shown for reading) offers nothing.
FORMS_JS = """() => [...document.querySelectorAll('form')]
  .filter(f => (f.getAttribute('method') || 'get').toLowerCase() === 'post')
  .filter(f => f.querySelector('button:not(:disabled), input[type=submit]:not(:disabled)'))
  .map(f => ({action: f.getAttribute('action') || location.pathname,
              buttons: [...f.querySelectorAll('button[name=action], input[name=action]')].map(b => b.value)}))"""


def _lock(slug: str) -> Tournament:
    """The director's steps, through the services the publication page calls: official, final (once the
    correction period has run), lock."""
    tournament = Tournament.objects.get(slug=slug)
    user = tournament.directors.first()
    now = timezone.now()
    order = [Publication.PROVISIONAL, Publication.OFFICIAL, Publication.FINAL]
    for step in order[order.index(tournament.publication) + 1 if tournament.publication in order else 0 :]:
        if step == Publication.FINAL:
            now += dt.timedelta(days=1)  # after the correction period
        gaps = publication_gaps(tournament)
        tournament = publish(tournament=tournament, user=user, to=step, now=now, acknowledged=gaps.token)
    return tournament_lock(tournament=tournament, user=user, now=now, reason="итоги утверждены")


@pytest.mark.parametrize("slug", ["demo-club-1", "demo-olympic"])
def test_a_locked_event_offers_no_action_that_would_be_refused(browser, live_server, slug):
    _seed()
    tournament = _lock(slug)
    assert tournament.is_locked
    ctx = browser.new_context(
        base_url=live_server.url, locale="ru-RU", viewport={"width": 1366, "height": 900}
    )
    pg = ctx.new_page()
    pg.set_default_timeout(15000)
    failures: list[str] = []
    visited: list[str] = []
    try:
        login(pg, "demo", "demo-director")
        queue = [f"/director/{slug}/", f"/appeals/{slug}/"]
        seen: set[str] = set()
        while queue and len(visited) < 150:
            url = queue.pop(0)
            kind = page_kind(urlsplit(url).path, _form_of)
            if kind is None or kind in seen or slug not in url:
                continue
            seen.add(kind)
            response = pg.goto(url)
            if response is None or response.status != 200:
                continue
            visited.append(url)
            for form in pg.evaluate(FORMS_JS):
                target = urlsplit(urljoin(url, form["action"])).path
                name = resolve(target).view_name
                if name == "director:publication" and set(form["buttons"]) - {"unlock"}:
                    failures.append(f"{url}: the publication form offers {form['buttons']}")
                elif name == "appeals:player" and not form["buttons"]:
                    pass  # a player's login with his PIN, to read his appeals
                elif name not in STILL_WORKS:
                    failures.append(f"{url}: a form to {name} {form['buttons']}")
            for href in pg.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))"):
                path = urlsplit(href or "").path
                if not path.startswith("/"):
                    continue
                try:
                    if resolve(path).view_name in ENTRY_VIEWS:
                        failures.append(f"{url}: a link to enter a result ({path})")
                except Resolver404:
                    pass
                queue.append(href)
    finally:
        ctx.close()
    assert len(visited) >= 8, visited
    assert not failures, f"{len(failures)} on {len(visited)} pages:\n" + "\n".join(sorted(set(failures)))
