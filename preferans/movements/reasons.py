"""The planner's sentences: plain English for every consumer, with a stable code and the values they name.

A ``Reason`` *is* the English sentence (a ``str``: the command line prints it, JSON writes it, comparisons and
f-strings see the text). ``code`` names the sentence and ``params`` hold the values it interpolated — numbers,
strings of digits, or nested reasons for the parts it is made of — so a channel can say the same in the
user's language without parsing English. Movement notes (``Movement.note``) and the book's notes are reasons
too; a note read from a file stays a plain ``str``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias, Union

ReasonParam: TypeAlias = Union[int, str, "Reason", tuple["Reason", ...]]


class Reason(str):
    """An English sentence (or phrase) with a stable ``code`` and the ``params`` it was made from."""

    code: str
    params: dict[str, ReasonParam]

    def __new__(cls, text: str, code: str, params: Mapping[str, ReasonParam] | None = None) -> Reason:
        self = super().__new__(cls, text)
        self.code = code
        self.params = dict(params or {})
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Reason, (str(self), self.code, self.params))

    def __repr__(self) -> str:
        return f"Reason({str(self)!r}, code={self.code!r}, params={self.params!r})"

    def walk(self) -> list[Reason]:
        """This reason and every reason nested in its params, depth first."""
        out: list[Reason] = [self]
        for value in self.params.values():
            items = value if isinstance(value, tuple) else (value,)
            for item in items:
                if isinstance(item, Reason):
                    out += item.walk()
        return out
