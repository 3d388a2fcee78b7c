"""The one base class of errors a user can fix, whatever the channel (page, table, API, command).

A service raises :class:`UserError` (or a subclass) when a request breaks a rule: nothing was changed, and the
error says which rule, in the language of the request — it is translated once, where it is raised, never again
by a channel. Every channel shows it the same way: a page puts ``message`` above the form and each detail next
to its field; the API answers ``{"error": {"code", "message", "details"}}`` with ``status``; a command prints the
message and exits 2. Anything else that escapes a service is a bug (Tabbycat's ``DrawUserError`` /
``DrawFatalError`` split).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Detail:
    """One reason, tied to the field it concerns (``""``: the request as a whole)."""

    field: str
    code: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"field": self.field, "code": self.code, "message": self.message}


class UserError(Exception):
    """A request the rules refuse; nothing was changed.

    ``code`` is stable (clients branch on it), ``message`` is for people and already in the active language,
    ``status`` is the HTTP status a channel answers with, ``details`` name the fields at fault.
    """

    code = "invalid"
    status = 400

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        status: int | None = None,
        details: Iterable[Detail] = (),
    ) -> None:
        self.message = str(message)
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status
        self.details = tuple(details)
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


class NotAllowed(UserError):
    """The request is well formed, but this person may not do it (403)."""

    code = "permission_denied"
    status = 403


class Conflict(UserError):
    """The request clashes with the state of things (already entered, locked, final, not running): 409."""

    code = "conflict"
    status = 409


class TooManyAttempts(UserError):
    """Too many wrong guesses (table codes, PINs): wait ``retry_after`` seconds (429)."""

    code = "throttled"
    status = 429

    def __init__(self, message: str, *, retry_after: int, code: str | None = None) -> None:
        self.retry_after = retry_after
        super().__init__(message, code=code)
