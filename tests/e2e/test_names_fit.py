"""Names whole on the players' phones (issue 30): the seat chips of the pulka sheet's page and of the duplicate
table's page, the drawn sheet and its PDF, at a table of 4 (the dealer sits out) and of 3, with long real
Russian names; and the director's page of a pulka table, its table of results. Nothing cut off with an
ellipsis or clipped, nothing to scroll sideways on a 390 px phone.
Screenshots (390 and 1366 px) and the PDF's pages go to test-artifacts/ (names-fit-*.png)."""

from __future__ import annotations

import random
import subprocess

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS, OVERFLOW_JS, screenshot
from tests.e2e.conftest import login as log_in
from tests.pulkas.test_drawing_names import on_the_page, squeeze

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ("Константинопольский Александр", "Жукова-Калинина Анастасия", "Ли Ян", "Воронцова-Дашкова Елизавета")

# Every seat chip: its text, and what hides any of it (a cut box, an ellipsis, a chip beyond the screen).
CHIPS_JS = """() => [...document.querySelectorAll('.tb-seats li')].map(li => {
  const bad = [], w = document.documentElement.clientWidth, r = li.getBoundingClientRect();
  for (const el of [li, ...li.querySelectorAll('span')]) {
    const s = getComputedStyle(el);
    if (el.scrollWidth > el.clientWidth + 1 && s.overflowX !== 'visible') bad.push('clipped ' + el.className);
    if (el.scrollHeight > el.clientHeight + 1 && s.overflowY !== 'visible') bad.push('clipped ' + el.className);
    if (s.textOverflow === 'ellipsis' && s.whiteSpace === 'nowrap') bad.push('ellipsis ' + el.className);
  }
  if (r.right > w + 1 || r.left < -1) bad.push(`beyond the screen ${Math.round(r.right)}px`);
  return {text: li.innerText, bad};
})"""

# Every text of the drawn sheet: its words, and whether it lies outside the picture (cut by the svg's edge).
SHEET_JS = """() => {
  const svg = document.querySelector('.pk-svg svg'), box = svg.getBoundingClientRect(), out = [];
  const texts = [...svg.querySelectorAll('text')].map(t => {
    const r = t.getBoundingClientRect();
    if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1)
      out.push(t.textContent);
    return t.textContent;
  });
  return {texts, out, right: box.right, width: document.documentElement.clientWidth};
}"""


# Every visible choice of player whose closed box is narrower than its chosen name (measured in its own font,
# less the room of its arrow), with each of its names chosen in turn.
SELECTS_JS = """() => {
  const ctx = document.createElement('canvas').getContext('2d'), bad = [];
  for (const s of document.querySelectorAll('.tb-inline select')) {
    if (!s.offsetParent) continue;
    const cs = getComputedStyle(s), room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    for (const o of s.options) if (ctx.measureText(o.text).width > room) bad.push(`${o.text}: ${Math.round(room)}px`);
  }
  return bad;
}"""

# Every word of a name in the table of totals that is broken across lines: wider than its cell's room.
WORDS_JS = """() => {
  const ctx = document.createElement('canvas').getContext('2d'), bad = [];
  for (const td of document.querySelectorAll('#totals td.pk-name')) {
    const cs = getComputedStyle(td), room = td.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    for (const word of td.innerText.split(/\\s+/)) if (ctx.measureText(word).width > room) bad.push(word);
  }
  return bad;
}"""


def assert_chips_whole(pg, names) -> None:  # type: ignore[no-untyped-def]
    chips = pg.evaluate(CHIPS_JS)
    assert len(chips) == len(names)
    for chip, name in zip(chips, names, strict=True):
        assert not chip["bad"], chip
        assert squeeze(name) in squeeze(chip["text"]), chip  # the whole name, wrapped or not
    assert pg.evaluate(SELECTS_JS) == []
    assert pg.evaluate(OVERFLOW_JS) == []


def assert_sheet_whole(pg, names) -> None:  # type: ignore[no-untyped-def]
    sheet = pg.evaluate(SHEET_JS)
    assert not sheet["out"], sheet["out"]
    assert sheet["right"] <= sheet["width"] + 1
    assert not any("…" in t for t in sheet["texts"]), sheet["texts"]
    assert pg.locator("#totals td.pk-name").count() == len(names)
    assert pg.evaluate(WORDS_JS) == []
    drawn = squeeze("".join(sheet["texts"]))
    for name in names:
        assert drawn.count(squeeze(name)) >= 2, name  # by his side of the square, and in the table


def show_sheet(pg, code: str, number: int) -> None:  # type: ignore[no-untyped-def]
    from tests.pulkas.factory import pin_of

    pg.goto(f"/pulka/{code}/")
    pg.select_option("#unlock select[name=number]", str(number))
    pg.fill("#unlock input[name=pin]", pin_of(number))
    with pg.expect_navigation():
        pg.click("#unlock button[name=action][value=show]")
    pg.wait_for_selector(".pk-svg svg")


@pytest.mark.parametrize("players", [4, 3])
def test_the_pulka_page_its_sheet_and_its_pdf_show_every_name_whole(phone, page, director, players) -> None:  # type: ignore[no-untyped-def]
    from pulkas.models import PulkaTable
    from pulkas.simulate import play_round
    from tests.pulkas.factory import pulka_event, running_round

    names = NAMES[:players]
    t = pulka_event(director, "compensation", players, players, names=names, slug=f"names{players}", pool=10)
    pulka_round = running_round(director, t)
    play_round(pulka_round, random.Random(3), now=timezone.now(), deals=3)
    table = PulkaTable.objects.get(round=pulka_round)
    seated = [table.seats()[seat].name for seat in ("N", "E", "S", "W")[:players]]

    show_sheet(phone, table.code, 1)
    assert_chips_whole(phone, seated)
    assert_sheet_whole(phone, names)
    screenshot(phone, f"names-fit-pulka{players}-phone")
    page.set_viewport_size({"width": 1366, "height": 900})
    show_sheet(page, table.code, 2)
    assert_chips_whole(page, seated)
    assert_sheet_whole(page, names)
    screenshot(page, f"names-fit-pulka{players}-desktop")

    # the director's page of the table draws the same sheet
    log_in(page, "director", "pw-director-1")
    page.goto(f"/director/{t.slug}/pulka/r1/t{table.number}/")
    box = page.evaluate(SHEET_JS.replace(".pk-svg svg", "#sheet-drawing svg"))
    assert not box["out"] and box["right"] <= box["width"] + 1, box["out"]
    assert not any("…" in text for text in box["texts"])
    assert page.evaluate(OVERFLOW_JS) == []
    screenshot(page, f"names-fit-pulka{players}-director-desktop")

    response = phone.request.get(f"/pulka/{table.code}/sheet.pdf")
    assert response.ok and response.headers["content-type"] == "application/pdf"
    text = on_the_page(response.body())  # nothing printed beyond the page's edge
    assert "…" not in text
    for name in names:
        assert squeeze(text).count(squeeze(name)) >= 2, name
    ARTIFACTS.mkdir(exist_ok=True)
    pdf = ARTIFACTS / f"names-fit-pulka{players}.pdf"
    pdf.write_bytes(response.body())
    subprocess.run(["pdftoppm", "-png", "-r", "70", str(pdf), str(pdf.with_suffix(""))], check=True)


@pytest.mark.parametrize("players", [4, 3])
def test_the_duplicate_tables_seat_chips_show_every_name_whole(phone, page, director, players) -> None:  # type: ignore[no-untyped-def]
    from events.participants import participant_save
    from tests.table.factory import make_event, pin_of

    t, _ = make_event(director=director, players=players, tables=1, slug=f"nf{players}")
    for p, name in zip(t.participants.order_by("number"), NAMES, strict=False):
        participant_save(
            now=timezone.now(), tournament=t, user=director, number=p.number, name=name, participant=p
        )
    code = f"TAB1NF{players}"
    for pg, width in ((phone, 390), (page, 820), (page, 1024), (page, 1366)):
        pg.set_viewport_size({"width": width, "height": 844})
        pg.goto(f"/table/{code}/")
        assert_chips_whole(pg, NAMES[:players])
        screenshot(pg, f"names-fit-table{players}-{width}")
    unlock = phone.locator("form.tb-unlock")
    unlock.locator("select[name=number]").select_option("1")
    unlock.locator("input[name=pin]").fill(pin_of(1))
    with phone.expect_navigation():
        unlock.locator("button[type=submit]").click()
    assert_chips_whole(phone, NAMES[:players])
    screenshot(phone, f"names-fit-table{players}-unlocked-390")


# Every name cell of the director's table of results: its words wider than the cell's room (a word broken
# between letters), and whether the cell hides any of its text.
FINALS_JS = """() => {
  const ctx = document.createElement('canvas').getContext('2d'), bad = [];
  for (const td of document.querySelectorAll('#finals td.who')) {
    const cs = getComputedStyle(td), room = td.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    if (td.scrollWidth > td.clientWidth + 1) bad.push(`clipped ${td.innerText}`);
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    for (const word of td.innerText.split(/\\s+/)) if (ctx.measureText(word).width > room + 0.5) bad.push(word);
  }
  return bad;
}"""


@pytest.mark.parametrize("form", ["compensation", "olympic"])
def test_the_directors_pulka_table_page_fits_a_phone(phone, page, director, form) -> None:  # type: ignore[no-untyped-def]
    """The director's page of a table (/director/<slug>/pulka/r<n>/t<t>/) with long names: its table of results
    (``#finals``, with the compensation's column, or the Olympic «goes on» marks) and the deals fit the screen
    on a 390 px phone (a block per player), a tablet, a small laptop (the result under the sheet) and a
    desktop (beside it), every name whole in it, no word broken."""
    from pulkas.models import PulkaTable
    from pulkas.simulate import play_round
    from tests.pulkas.factory import pulka_event, running_round

    column = {"compensation_x": 2, "compensation_y": 0} if form == "compensation" else {}  # its widest table
    t = pulka_event(director, form, 4, 4, names=NAMES, slug=f"dir-names-{form}", pool=10, **column)
    pulka_round = running_round(director, t)
    play_round(pulka_round, random.Random(3), now=timezone.now(), deals=3)
    table = PulkaTable.objects.get(round=pulka_round)
    for pg, width in ((phone, 390), (page, 820), (page, 1024), (page, 1366)):
        pg.set_viewport_size({"width": width, "height": 844})
        log_in(pg, "director", "pw-director-1")
        pg.goto(f"/director/{t.slug}/pulka/r1/t{table.number}/")
        cells = pg.locator("#finals td.who")
        expect(cells).to_have_count(4)
        screenshot(pg, f"names-fit-director-table-{form}-{width}")
        pg.locator("#result").screenshot(
            path=str(ARTIFACTS / f"names-fit-director-table-{form}-{width}-result.png")
        )
        text = squeeze(" ".join(cells.all_inner_texts()))
        for name in NAMES:
            assert squeeze(name) in text, name
        assert pg.evaluate(FINALS_JS) == [], width
        assert pg.evaluate(OVERFLOW_JS) == [], width
