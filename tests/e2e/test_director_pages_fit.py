"""Director pages use the desktop's width (issue 30, «Pages that fit»): at 1366 and 1920 px no table is wider than
the box that shows it, so nothing — «Скачать», «Принять как записано», «изменить», a W column — hides behind a
sideways scroll; the page itself never scrolls sideways. Screenshots in test-artifacts/director-fit-*.png."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.e2e.conftest import login, screenshot
from tests.e2e.test_event_day_results_screens import _event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Each visible table against the viewport and against the nearest box that scrolls it sideways.
HIDDEN_SIDEWAYS_JS = """() => {
  const w = document.documentElement.clientWidth, bad = [];
  if (document.documentElement.scrollWidth > w + 1) bad.push(`page ${document.documentElement.scrollWidth}px`);
  for (const t of document.querySelectorAll('table')) {
    const r = t.getBoundingClientRect();
    if (!r.width) continue;
    if (r.right > w + 1) bad.push(`table#${t.id || t.className} ends at ${Math.round(r.right)}px`);
    for (let box = t.parentElement; box; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (['auto', 'scroll', 'hidden'].includes(style.overflowX)) {
        if (box.scrollWidth > box.clientWidth + 1)
          bad.push(`table#${t.id || t.className}: ${box.scrollWidth}px in a ${box.clientWidth}px box`);
        break;
      }
    }
  }
  return bad;
}"""


def _pages(slug: str) -> list[str]:
    return [
        f"/director/{slug}/",
        f"/director/{slug}/participants/",
        f"/director/{slug}/participants/pins/",
        f"/director/{slug}/s1/movement/",
        f"/director/{slug}/s1/seating/",
        f"/director/{slug}/s1/boards/",
        f"/director/{slug}/s1/penalties/",
        f"/director/{slug}/standings/",
        f"/director/{slug}/publication/",
        f"/director/{slug}/audit/",
        f"/director/{slug}/settings/",
        f"/t/{slug}/exports/",
        f"/director/{slug}/s1/r1/t1/",
        f"/director/{slug}/s1/boards/1/",
        f"/director/{slug}/s1/boards/analysis/",
        f"/appeals/{slug}/",
    ]


@pytest.mark.parametrize("width", [1366, 1920])
def test_no_director_table_hides_columns_on_a_desktop(browser, live_server, width):
    user = get_user_model().objects.create_user("dir", password="pw-director-1")
    t = _event("t13", movement={"scheme": "book", "participants": 13}, players=4, count=13, user=user)
    ctx = browser.new_context(
        base_url=live_server.url, locale="ru-RU", viewport={"width": width, "height": 900}
    )
    pg = ctx.new_page()
    pg.set_default_timeout(15000)
    failures = []
    try:
        login(pg, "dir", "pw-director-1")
        for url in _pages(t.slug):
            response = pg.goto(url)
            assert response is not None and response.status == 200, url
            screenshot(pg, f"director-fit-{url.strip('/').replace('/', '-')}-{width}")
            bad = pg.evaluate(HIDDEN_SIDEWAYS_JS)
            if bad:
                failures.append(f"{url} at {width} px: {bad}")
    finally:
        ctx.close()
    assert not failures, "\n".join(failures)
