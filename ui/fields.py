"""Form fields the director's forms share."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from preferans.bundle.bounds import JsonRefused, JsonTooDeep, bounded_json


def _with_code(text: str, code: str) -> SafeString:
    return format_html('{} <code translate="no">{}</code>', text, code)


# A help text in the page's language followed by what is typed as it is (JSON keys and values): the words are
# translated when the page is drawn, the code is marked as code, not as words of another language.
help_with_code = lazy(_with_code, SafeString)


class JSONObjectField(forms.CharField):
    """A JSON object typed into a text box (empty: ``{}``); ``keys``, when given, are the only keys allowed."""

    def __init__(self, *, keys: Sequence[str] | None = None, rows: int = 3, **kwargs: Any) -> None:
        self.keys = tuple(keys) if keys is not None else None
        kwargs.setdefault("required", False)
        self.limit = kwargs.pop("max_length", 10_000)
        kwargs.setdefault("widget", forms.Textarea(attrs={"rows": rows}))
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> dict[str, Any]:  # type: ignore[override]
        text = (super().to_python(value) or "").strip()
        if not text:
            return {}
        if len(text) > self.limit:
            raise forms.ValidationError(
                ngettext("At most %(n)s character of JSON.", "At most %(n)s characters of JSON.", self.limit),
                params={"n": self.limit},
            )
        try:  # nesting and digits bounded before decoding (formats.md §2)
            parsed = bounded_json(text)
        except JsonTooDeep as exc:
            raise forms.ValidationError(
                ngettext(
                    "The JSON is nested more than %(n)s level deep.",
                    "The JSON is nested more than %(n)s levels deep.",
                    exc.limit,
                ),
                params={"n": exc.limit},
            ) from exc
        except JsonRefused as exc:
            raise forms.ValidationError(
                ngettext(
                    "A number in the JSON is longer than %(n)s digit.",
                    "A number in the JSON is longer than %(n)s digits.",
                    exc.limit,
                ),
                params={"n": exc.limit},
            ) from exc
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(
                _("Not valid JSON: %(problem)s"), params={"problem": exc.msg}
            ) from exc
        if self.keys is not None and (not isinstance(parsed, dict) or set(parsed) - set(self.keys)):
            raise forms.ValidationError(
                _("Only these keys: %(keys)s."), params={"keys": ", ".join(self.keys)}
            )
        if not isinstance(parsed, dict):
            raise forms.ValidationError(_('Write an object: {"key": value, …}.'))
        return parsed

    def validate(self, value: Any) -> None:
        if self.required and not value:
            raise forms.ValidationError(self.error_messages["required"], code="required")
