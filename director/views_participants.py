"""Registering participants: the list, the form, the import with preview, and the PIN list."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from events.participants import participant_delete, participant_save, participants_import, pins_assign
from tournaments.errors import UserError
from tournaments.models import Participant, Tournament, TournamentStatus
from tournaments.participant_columns import ROLES, role_label
from tournaments.participant_file import FILE_MAX, ImportLine, preview_rows, read_rows
from tournaments.pins import CEILING, PER_CLIENT, pin_strikes, unlock
from ui.director_pages import directs, fail, nav

from .forms import ImportForm, ParticipantForm

PREVIEW_KEY = "director-import-{}"
# The PINs page's file (results.exporters): a duplicate session's slips name the starting table, a pulka event's
# the table of the latest round; both carry each participant's own link.
PIN_SLIPS = ("pin_slips", gettext_lazy("PIN slips with the starting table and own links, PDF"))
PIN_SLIPS_PULKA = ("pulka_pin_slips", gettext_lazy("PIN slips with own links, PDF"))


def _next_number(tournament: Tournament) -> int:
    last = tournament.participants.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


@directs
def participants(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = ParticipantForm(request.POST or None, initial={"number": _next_number(tournament)})
    if request.method == "POST" and form.is_valid():
        try:
            p = participant_save(
                tournament=tournament, user=request.user, now=timezone.now(), **form.cleaned_data
            )
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
    return render(request, "director/participants.html", context)


@directs
def participant_edit(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    participant = get_object_or_404(Participant, tournament=tournament, number=number)
    initial = {
        k: getattr(participant, k) for k in ("number", "name", "club", "federation_id", "declared_rating")
    }
    form = ParticipantForm(request.POST or None, initial=initial)
    if request.method == "POST":
        try:
            if "delete" in request.POST:
                participant_delete(participant=participant, user=request.user, now=timezone.now())
                messages.success(request, _("Removed: %(p)s.") % {"p": participant})
                return redirect("director:participants", slug=tournament.slug)
            if form.is_valid():
                participant_save(
                    tournament=tournament,
                    user=request.user,
                    participant=participant,
                    now=timezone.now(),
                    **form.cleaned_data,
                )
                messages.success(request, _("Saved."))
                return redirect("director:participants", slug=tournament.slug)
        except UserError as exc:
            form.add_error(None, str(exc))
    context = nav(tournament, active="participants") | {"form": form, "participant": participant}
    return render(request, "director/participant_edit.html", context)


def _posted_mapping(request: HttpRequest, width: int) -> tuple[list[str], bool] | None:
    """The column mapping the director chose on the preview (None when the form carried none)."""
    if "col-0" not in request.POST:
        return None
    return [request.POST.get(f"col-{i}", "") for i in range(width)], "header" in request.POST


@directs
def participants_upload(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Step 1: upload; step 2: the preview — how each column is read (the director may change it) and every
    line's problems; step 3 (POST confirm, with the mapping previewed): import."""
    key = PREVIEW_KEY.format(tournament.pk)
    form = ImportForm()
    preview = None
    registered = tournament.participants.values_list("number", flat=True)
    if request.method == "POST" and ("confirm" in request.POST or "apply" in request.POST):
        stored = request.session.get(key)
        if stored is None:
            messages.error(request, _("The preview has expired: upload the file again."))
            return redirect("director:participants_import", slug=tournament.slug)
        rows = [(line, cells) for line, cells in stored["rows"]]
        width = max(len(cells) for _, cells in rows)
        posted = _posted_mapping(request, width)
        unchanged = posted is None or (posted[0] == stored["mapping"] and posted[1] == stored["header"])
        ready = any(not d["errors"] for d in stored["lines"])
        if "confirm" in request.POST and unchanged and ready:
            request.session.pop(key, None)
            lines = [ImportLine.from_dict(d) for d in stored["lines"]]
            try:
                added = participants_import(
                    tournament=tournament,
                    lines=lines,
                    user=request.user,
                    replace=stored["replace"],
                    now=timezone.now(),
                )
            except UserError as exc:
                fail(request, exc)
                return redirect("director:participants_import", slug=tournament.slug)
            messages.success(
                request,
                ngettext("%(n)s participant registered.", "%(n)s participants registered.", added)
                % {"n": added},
            )
            return redirect("director:participants", slug=tournament.slug)
        if "confirm" in request.POST:
            messages.warning(
                request, _("The columns were changed: check the lines below, then register them.")
            )
        mapping, header = posted if posted is not None else (stored["mapping"], stored["header"])
        try:
            preview = preview_rows(
                rows, mapping=mapping, header=header, registered=registered, replace=stored["replace"]
            )
        except UserError as exc:
            fail(request, exc)
            return redirect("director:participants_import", slug=tournament.slug)
        stored |= {
            "mapping": list(preview.mapping),
            "header": preview.header,
            "lines": [line.to_dict() for line in preview.lines],
        }
        request.session[key] = stored
    elif request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            replace = form.cleaned_data["replace"]
            try:
                rows = read_rows(filename=upload.name, content=upload.read(FILE_MAX + 1))
                preview = preview_rows(rows, registered=registered, replace=replace)
            except UserError as exc:
                form.add_error("file", str(exc))
            else:
                request.session[key] = {
                    "rows": [[line, list(cells)] for line, cells in rows],
                    "replace": replace,
                    "mapping": list(preview.mapping),
                    "header": preview.header,
                    "lines": [line.to_dict() for line in preview.lines],
                }
    context = nav(tournament, active="participants") | {
        "form": form,
        "preview": preview,
        "roles": [(r, role_label(r)) for r in ("", *ROLES)],
    }
    return render(request, "director/participants_import.html", context)


@directs
def pins(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The PIN list to print and hand out (each participant confirms rows at the table with his PIN)."""
    if request.method == "POST":
        try:
            n = pins_assign(
                tournament=tournament,
                user=request.user,
                everyone="everyone" in request.POST,
                now=timezone.now(),
                reason=request.POST.get("reason", "")[:500],
            )
        except UserError as exc:
            fail(request, exc)
        else:
            messages.success(request, ngettext("%(n)s PIN made.", "%(n)s PINs made.", n) % {"n": n})
        return redirect("director:pins", slug=tournament.slug)
    strikes = {s.number: s for s in pin_strikes(tournament)}
    context = nav(tournament, active="participants") | {
        "participants": tournament.participants.order_by("number"),
        "pdfs": [PIN_SLIPS_PULKA if tournament.plays_pulkas else PIN_SLIPS],  # results.exporters
        "pin_locks": [s for s in strikes.values() if s.locked],
        "pin_strikes": [s for s in strikes.values() if not s.locked],
        "pin_back": "pins",
        "ceiling": CEILING,
        "per_client": PER_CLIENT,
        "under_way": tournament.status == TournamentStatus.RUNNING,
    }
    return render(request, "director/pins.html", context)


@require_POST
@directs
def pin_unlock(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The director clears a participant's wrong PINs (the lock, and every address's count on him)."""
    try:
        cleared = unlock(
            tournament=tournament, number=request.POST.get("number"), user=request.user, now=timezone.now()
        )
    except UserError as exc:
        fail(request, exc)
    else:
        messages.success(request, _("Participant %(n)s can enter his PIN again.") % {"n": cleared.number})
    back = request.POST.get("back")
    if back in ("dashboard", "pulka_rounds"):
        return redirect(f"director:{back}", slug=tournament.slug)
    return redirect("director:pins", slug=tournament.slug)
