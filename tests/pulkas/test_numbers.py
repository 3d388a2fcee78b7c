"""One notation for pulka figures (``ui.templatetags.scores``): two places in the language's decimal sign, the
typographic minus, the exact value only as a title; whole figures as whole numbers."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.template import Context, Template
from django.utils import translation

from ui.templatetags.scores import MINUS, display_number, vists_text, whole_text


@pytest.mark.parametrize(
    ("value", "ru", "en"),
    [
        (Fraction(86, 3), "28,67", "28.67"),
        ("-8/3", f"{MINUS}2,67", f"{MINUS}2.67"),
        (12, "12,00", "12.00"),
        ("63/2", "31,50", "31.50"),
        (Fraction(-1, 300), "0,00", "0.00"),  # rounds to zero: no sign
        (Fraction(-1, 200), f"{MINUS}0,01", f"{MINUS}0.01"),  # half away from zero
        (Fraction(37, 11), "3,36", "3.36"),
        (None, "", ""),
    ],
)
def test_a_pulka_figure_has_two_places_in_the_languages_sign(value, ru, en) -> None:
    assert vists_text(value, "ru") == ru
    assert vists_text(value, "en") == en
    with translation.override("en"):
        assert vists_text(value) == en  # the request's language by default


def test_signed_results_and_whole_figures() -> None:
    assert vists_text(Fraction(16, 3), "ru", signed=True) == "+5,33"
    assert vists_text(Fraction(-16, 3), "ru", signed=True) == f"{MINUS}5,33"
    assert vists_text(0, "ru", signed=True) == "0,00"
    assert whole_text(Fraction(-15), "ru") == f"{MINUS}15"
    assert whole_text(40, "en", signed=True) == "+40"


def test_the_files_minus_stays_the_ascii_one() -> None:
    assert display_number("-8/3", "ru", trim=False) == "-2,67"
    assert display_number("-8/3", "ru") == "-2,67"  # the duplicate form's notation is unchanged
    assert display_number("-63/2", "en") == "-31.5"


def test_the_template_filters() -> None:
    template = Template(
        '{% load scores %}{{ a|vists }}|{{ b|vists:"signed" }}|{{ c|whole }}|<b title="{{ a|exact }}">'
    )
    with translation.override("ru"):
        text = template.render(Context({"a": "-86/3", "b": Fraction(16, 3), "c": -15}))
    assert text == f'{MINUS}28,67|+5,33|{MINUS}15|<b title="-86/3">'
