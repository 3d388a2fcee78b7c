"""The JSON object field of the director's forms (rule overrides, a row's rare fields): bounded, never a crash."""

from __future__ import annotations

import pytest
from django import forms

from ui.fields import JSONObjectField


def _clean(field: JSONObjectField, text: str):
    return field.clean(text)


def test_empty_is_an_empty_object_and_an_object_is_read():
    field = JSONObjectField()
    assert _clean(field, "  ") == {}
    assert _clean(field, '{"a": 1}') == {"a": 1}


@pytest.mark.parametrize("text", ["[1, 2]", "3", '"x"', "{bad json"])
def test_anything_but_an_object_is_refused(text):
    with pytest.raises(forms.ValidationError):
        _clean(JSONObjectField(), text)


def test_only_the_named_keys_are_allowed():
    field = JSONObjectField(keys=("penalty_tricks", "misere_shared"))
    assert _clean(field, '{"misere_shared": true}') == {"misere_shared": True}
    with pytest.raises(forms.ValidationError):
        _clean(field, '{"misere_shared": true, "other": 1}')


def test_deep_nesting_and_long_text_are_refused_not_crashes():
    with pytest.raises(forms.ValidationError):
        _clean(JSONObjectField(max_length=10**6), "[" * 100_000 + "]" * 100_000)
    with pytest.raises(forms.ValidationError):
        _clean(JSONObjectField(max_length=20), '{"key": "' + "x" * 50 + '"}')
