"""The errors of the rulings, appeals and corrections workflows: what a user can fix or must be told."""

from __future__ import annotations

from preferans.duplicate import deadlines
from tournaments.errors import UserError


class AppealsError(UserError):
    """Something the user can fix or must be told about; nothing was changed."""

    def __init__(self, message: str, *, code: str = "invalid") -> None:
        super().__init__(message, code=code)


class TransitionRefused(AppealsError):
    """The object is not in a state that allows this step."""


class DeadlineMissed(AppealsError):
    """A deadline of the rules (§1) has passed."""

    def __init__(self, message: str, *, check: deadlines.Check) -> None:
        self.check = check
        super().__init__(message, code=check.code)
