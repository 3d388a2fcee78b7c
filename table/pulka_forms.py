"""The forms of the pulka sheet at the table: a deal's row (the duplicate page's row form, with the sheet's version
and who writes), a confirmation, a correction, and who the players are (number and PIN, one check:
``tournaments.pins.pin_holder``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import forms
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from table.forms import PhoneRowForm
from tournaments.errors import UserError
from tournaments.models import Participant, Tournament
from tournaments.numbers import participant_number
from tournaments.pins import client_ip, pin_holder

MAX_DEALS = 1000  # far above any pulka (the deal limit is at most 500)


class DealForm(PhoneRowForm):
    """One deal's row as the players fill it: ``board`` is the deal's number on the sheet, ``version`` the sheet's
    version the page showed (a stale form is refused), ``writer`` who writes (his PIN unless this device
    remembers him). No raspasy step: the sheet computes it."""

    board = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=MAX_DEALS)
    key = forms.CharField(
        widget=forms.HiddenInput, required=False, max_length=64
    )  # PulkaDeal.idempotency_key
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    writer = forms.IntegerField(label=gettext_lazy("Who writes"), min_value=1, max_value=100_000)
    reason = forms.CharField(label=gettext_lazy("What was wrong (optional)"), required=False, max_length=500)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["steps"] = False
        super().__init__(*args, **kwargs)
        self.fields["writer"].error_messages["required"] = _("Choose who writes the deal.")


class ConfirmDealForm(forms.Form):
    deal = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=MAX_DEALS)
    number = forms.IntegerField(label=gettext_lazy("Who confirms"), min_value=1, max_value=100_000)
    pin = forms.CharField(label=gettext_lazy("PIN"), max_length=64)


class PinRefused(UserError):
    """A player's number or PIN was not accepted; ``field`` is the form field it belongs to."""

    def __init__(self, exc: UserError, field: str) -> None:
        super().__init__(exc.message, code=exc.code, status=exc.status)
        self.field = field


def identify(
    request: HttpRequest,
    tournament: Tournament,
    seats: Mapping[str, Participant],
    *,
    number: object,
    pin: object,
    field: str = "pin",
) -> Participant:
    """The player of this table with this number and PIN (a wrong guess is counted by ``pin_holder``)."""
    try:
        participant = pin_holder(  # a right PIN of anyone not at this table is answered as a wrong one
            tournament,
            number=participant_number(number),
            pin=pin,
            client=client_ip(request),
            known=seats.values(),
            among=seats.values(),
        )
    except UserError as exc:
        raise PinRefused(exc, field) from exc
    if participant not in seats.values():
        raise PinRefused(
            UserError(
                _("Participant %(n)s does not play at this table.") % {"n": participant.number},
                code="not_seated",
                status=403,
            ),
            field,
        )
    return participant


def writer_of(
    request: HttpRequest,
    tournament: Tournament,
    seats: Mapping[str, Participant],
    *,
    number: int,
    remembered: Participant | None,
) -> Participant:
    """Who writes: the player this device remembers needs no PIN; anybody else of the table types his."""
    pin = request.POST.get("pin", "")
    if remembered is not None and remembered.number == number and not pin:
        return remembered
    if not pin:  # not a guess: nothing to count
        raise PinRefused(UserError(_("Type the PIN of the player who writes."), code="pin_required"), "pin")
    return identify(request, tournament, seats, number=number, pin=pin)


def confirmations(
    request: HttpRequest,
    tournament: Tournament,
    seats: Mapping[str, Participant],
    writer: Participant,
) -> list[Participant]:
    """The other players who confirm the deal on this device now: those whose PIN (``pin_<seat>``) is typed."""
    out: list[Participant] = []
    for seat, participant in seats.items():
        pin = request.POST.get(f"pin_{seat}", "")
        if participant == writer or not pin:
            continue
        out.append(
            identify(request, tournament, seats, number=participant.number, pin=pin, field=f"pin_{seat}")
        )
    return out


def seat_lines(seats: Mapping[str, Participant], skip: Iterable[str] = ()) -> list[dict[str, Any]]:
    """The players as the forms list them: seat, number and name."""
    return [
        {"seat": seat, "participant": p, "label": f"{seat} · {p.number} {p.name}".strip()}
        for seat, p in seats.items()
        if seat not in skip
    ]
