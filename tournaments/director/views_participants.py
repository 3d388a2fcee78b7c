"""Registering participants: the list, the form, the import with preview, and the PIN list."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.errors import UserError
from tournaments.models import Participant, Tournament
from tournaments.services.participants import (
    ImportLine,
    participant_delete,
    participant_save,
    participants_import,
    pins_assign,
    read_participants_file,
)

from .common import directs, fail, nav
from .forms import ImportForm, ParticipantForm

PREVIEW_KEY = "director-import-{}"


def _next_number(tournament: Tournament) -> int:
    last = tournament.participants.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


@directs
def participants(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = ParticipantForm(request.POST or None, initial={"number": _next_number(tournament)})
    if request.method == "POST" and form.is_valid():
        try:
            p = participant_save(tournament=tournament, user=request.user, now=timezone.now(), **form.cleaned_data)
        except UserError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Registered: %(p)s.") % {"p": p})
            return redirect("director:participants", slug=tournament.slug)
    context = nav(tournament, active="participants") | {
        "form": form,
        "participants": tournament.participants.order_by("number"),
        "import_form": ImportForm(),
    }
    return render(request, "tournaments/director/participants.html", context)


@directs
def participant_edit(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    participant = get_object_or_404(Participant, tournament=tournament, number=number)
    initial = {k: getattr(participant, k) for k in ("number", "name", "club", "federation_id")}
    form = ParticipantForm(request.POST or None, initial=initial)
    if request.method == "POST":
        try:
            if "delete" in request.POST:
                participant_delete(participant=participant, user=request.user, now=timezone.now())
                messages.success(request, _("Removed: %(p)s.") % {"p": participant})
                return redirect("director:participants", slug=tournament.slug)
            if form.is_valid():
                participant_save(
                    tournament=tournament, user=request.user, participant=participant, now=timezone.now(),
                    **form.cleaned_data,
                )
                messages.success(request, _("Saved."))
                return redirect("director:participants", slug=tournament.slug)
        except UserError as exc:
            form.add_error(None, str(exc))
    context = nav(tournament, active="participants") | {"form": form, "participant": participant}
    return render(request, "tournaments/director/participant_edit.html", context)


@directs
def participants_upload(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Step 1: upload; step 2: the preview with every line's problems; step 3 (POST confirm): import."""
    key = PREVIEW_KEY.format(tournament.pk)
    if request.method == "POST" and "confirm" in request.POST:
        stored = request.session.pop(key, None)
        if stored is None:
            messages.error(request, _("The preview has expired: upload the file again."))
            return redirect("director:participants_import", slug=tournament.slug)
        lines = [ImportLine.from_dict(d) for d in stored["lines"]]
        try:
            added = participants_import(tournament=tournament, lines=lines, user=request.user,
                                        replace=stored["replace"], now=timezone.now())  # fmt: skip
        except UserError as exc:
            fail(request, exc)
            return redirect("director:participants_import", slug=tournament.slug)
        messages.success(request, ngettext("%(n)s participant registered.", "%(n)s participants registered.",
                                           added) % {"n": added})  # fmt: skip
        return redirect("director:participants", slug=tournament.slug)
    form = ImportForm(request.POST or None, request.FILES or None)
    preview = None
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        replace = form.cleaned_data["replace"]
        try:
            preview = read_participants_file(
                filename=upload.name, content=upload.read(), replace=replace,
                registered=tournament.participants.values_list("number", flat=True),
            )  # fmt: skip
        except UserError as exc:
            form.add_error("file", str(exc))
        else:
            request.session[key] = {"lines": [line.to_dict() for line in preview.lines], "replace": replace}
    context = nav(tournament, active="participants") | {"form": form, "preview": preview}
    return render(request, "tournaments/director/participants_import.html", context)


@directs
def pins(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The PIN list to print and hand out (each participant confirms rows at the table with his PIN)."""
    if request.method == "POST":
        try:
            n = pins_assign(tournament=tournament, user=request.user, everyone="everyone" in request.POST, now=timezone.now())
        except UserError as exc:
            fail(request, exc)
        else:
            messages.success(request, ngettext("%(n)s PIN made.", "%(n)s PINs made.", n) % {"n": n})
        return redirect("director:pins", slug=tournament.slug)
    context = nav(tournament, active="participants") | {
        "participants": tournament.participants.order_by("number")
    }
    return render(request, "tournaments/director/pins.html", context)
