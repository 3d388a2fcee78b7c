"""The round's sheets for print (results.pulka_exports: one page a table, each name with its number,
«W 10 Жукова-Калинина Анастасия») print every name whole, on the page, never cut with an ellipsis (issue 30)."""

from __future__ import annotations

import io
import random

import pytest
from django.utils import timezone
from pypdf import PdfReader, PdfWriter

from pulkas.models import PulkaRound
from pulkas.services import rounds
from results.services import build_file
from tests.pulkas.factory import play_to_the_end, pulka_event
from tests.pulkas.test_drawing_names import on_the_page, squeeze

pytestmark = pytest.mark.django_db

NAMES = (
    "Константинопольский Александр",
    "Жукова-Калинина Анастасия",
    "Ли Ян",
    "Воронцова-Дашкова Елизавета",
    "Салтыков-Щедрин Михаил",
    "Римский-Корсаков Николай",
    "Мамин-Сибиряк Дмитрий",
)


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):  # type: ignore[no-untyped-def]
    settings.MEDIA_ROOT = tmp_path / "media"


def test_the_rounds_sheets_print_every_name_whole(director) -> None:  # type: ignore[no-untyped-def]
    t = pulka_event(director, "compensation", 7, 4, slug="long-names", names=NAMES, pool=4, rounds=2)
    first = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=5)
    play_to_the_end(t, director, first, random.Random(4), deals=3)
    _name, body = build_file(t.pk, "pulka_sheets", "pdf", {"lang": "ru", "session": 1})
    reader = PdfReader(io.BytesIO(body))
    tables = list(PulkaRound.objects.get(tournament=t, number=1).tables.order_by("number"))
    assert [len(table.seats()) for table in tables] == [4, 3]  # a table of 4 (the dealer sits out) and of 3
    assert len(reader.pages) == len(tables)
    for number, table in enumerate(tables):
        one = io.BytesIO()
        writer = PdfWriter()
        writer.add_page(reader.pages[number])
        writer.write(one)
        text = on_the_page(one.getvalue())
        assert "…" not in text
        for p in table.seats().values():
            assert squeeze(text).count(squeeze(f"{p.number} {p.name}")) >= 2, p.name
