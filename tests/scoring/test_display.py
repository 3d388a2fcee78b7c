from __future__ import annotations

import pytest
from django.utils import translation

from ui.templatetags.scores import display_number, exact


@pytest.mark.parametrize(
    ("value", "ru", "en"),
    [
        ("63/2", "31,5", "31.5"),
        ("16/3", "5,33", "5.33"),
        ("-8/3", "-2,67", "-2.67"),
        ("48", "48", "48"),
        ("1/200", "0,01", "0.01"),
        ("-1/200", "-0,01", "-0.01"),
        (None, "", ""),
        ("2/3", "0,67", "0.67"),
    ],
)
def test_scores_are_rounded_only_for_display(value, ru, en):
    with translation.override("ru"):
        assert display_number(value) == ru
    with translation.override("en"):
        assert display_number(value) == en


def test_exact_value_is_offered_for_fractions_only():
    assert exact("16/3") == "16/3"
    assert exact("4") == ""
