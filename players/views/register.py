"""The register's pages: the list with search, a person's form, merging two persons, the register's file (import
with a preview, export), and an event's link page (its participants and the persons they are or may be).

Who may (players.services.register): the register is site-wide — staff users or the permission
``players.change_person`` edit it; directors of any event may look it up and download it; an event's link page
is for that event's directors (``ui.director_pages.directs``).
"""

from __future__ import annotations

import csv
import functools
import io
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from players.models import Person
from players.services import register
from players.services.points import choose_deciding_series, no_deciding_series
from players.services.register_file import FILE_MAX, apply_import, export_rows, plan_import, read_file
from preferans.bundle.bounds import TEXT_MAX
from tournaments.errors import UserError
from tournaments.models import Participant, Tournament
from tournaments.numbers import participant_number, whole_number
from tournaments.participant_fields import RATING_MAX
from ui.cells import csv_delimiter, safe_text
from ui.director_pages import directs, nav

PLAN_KEY = "players-register-import"
PER_PAGE = 50
# The export's column titles, which the import knows again (players.services.register_file).
TITLES = {
    "ru": ("ФИО", "Клуб", "Город", "Номер ФСП", "Рейтинг федерации или клуба", "Источник рейтинга"),
    "en": ("Name", "Club", "City", "Federation number", "Federation or club rating", "Source of the rating"),
}

View = Callable[..., HttpResponse]


def _guard(check: Callable[[Any], bool]) -> Callable[[View], View]:
    """Login required (anonymous → the login page), then ``check(user)`` (else 403)."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not check(request.user):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapper

    return decorate


sees = _guard(register.can_see_register)
edits = _guard(register.can_edit_register)


class PersonForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=TEXT_MAX)
    club = forms.CharField(label=gettext_lazy("Club"), max_length=TEXT_MAX, required=False)
    city = forms.CharField(label=gettext_lazy("City"), max_length=TEXT_MAX, required=False)
    federation_id = forms.CharField(
        label=gettext_lazy("Federation number"), max_length=register.FEDERATION_ID_MAX, required=False
    )
    declared_rating = forms.DecimalField(
        label=gettext_lazy("Federation or club rating"),
        help_text=gettext_lazy(
            "The rating a federation or a club gives the player, from 0 to 4000; it seeds a first round by "
            "rating before the player's computed rating. Empty: none."
        ),
        min_value=0,
        max_value=RATING_MAX,
        max_digits=6,
        decimal_places=2,
        required=False,
        localize=True,
    )
    declared_rating_source = forms.CharField(
        label=gettext_lazy("Source of the rating"),
        help_text=gettext_lazy("E.g. the federation's rating list of a date, or the club."),
        max_length=TEXT_MAX,
        required=False,
    )
    seen = forms.CharField(widget=forms.HiddenInput, max_length=64, required=False)


class MergeForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Why are they one person?"), max_length=500)


class FileForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("File (.xlsx or .csv)"))


def _context(request: HttpRequest, **extra: Any) -> dict[str, Any]:
    return {"can_edit": register.can_edit_register(request.user), **extra}


@sees
def register_list(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "")[:TEXT_MAX]
    page = Paginator(register.search(query), PER_PAGE).get_page(request.GET.get("page"))
    context = _context(request, page=page, query=query, count=page.paginator.count)
    return render(request, "players/register.html", context)


@edits
def person_edit(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    person = get_object_or_404(Person, pk=pk) if pk is not None else None
    if person is not None and person.merged_into_id is not None:
        return redirect("players:register_person", pk=person.merged_into_id)
    initial = (
        {f: getattr(person, f) for f in PersonForm.base_fields if f != "seen"}
        | {"seen": register.person_version(person)}
        if person
        else {}
    )
    form = PersonForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            saved = register.person_save(person=person, user=request.user, **form.cleaned_data)
        except UserError as exc:
            for detail in exc.details:
                form.add_error(detail.field if detail.field in form.fields else None, detail.message)
            if not exc.details:
                form.add_error(None, exc.message)
        else:
            messages.success(request, _("Saved: %(p)s.") % {"p": saved})
            return redirect("players:register")
    events = (
        person.participations.select_related("tournament").order_by("-tournament__starts_on")
        if person
        else []
    )
    context = _context(
        request, form=form, person=person, events=events, merged=person.merged.all() if person else []
    )
    return render(request, "players/register_person.html", context)


def _person(value: str | None) -> Person | None:
    try:
        return Person.objects.get(pk=int(value or ""))
    except (ValueError, Person.DoesNotExist):
        return None


@edits
def merge(request: HttpRequest) -> HttpResponse:
    """Choose the person who stays and the duplicate (from the list), then confirm with a reason."""
    source = request.POST if request.method == "POST" else request.GET
    keep, drop = _person(source.get("keep")), _person(source.get("drop"))
    if keep is None or drop is None:
        messages.error(request, _("Choose in the list the person who stays and the duplicate."))
        return redirect("players:register")
    form = MergeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            moved = register.merge(
                keep=keep,
                drop=drop,
                user=request.user,
                reason=form.cleaned_data["reason"],
                now=timezone.now(),
            )
        except UserError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Merged into %(p)s; %(n)s records moved.") % {"p": keep, "n": moved})
            return redirect("players:register_person", pk=keep.pk)
    sides = [(_("Stays"), keep), (_("Merged into the one that stays"), drop)]
    context = _context(
        request,
        form=form,
        keep=keep,
        drop=drop,
        sides=[
            (label, p, p.participations.select_related("tournament").order_by("tournament__name"))
            for label, p in sides
        ],
    )
    return render(request, "players/register_merge.html", context)


@edits
def import_file(request: HttpRequest) -> HttpResponse:
    """Step 1: upload; step 2: the preview (what each row does); step 3: import, all or nothing."""
    form = FileForm()
    plan = None
    if request.method == "POST" and "confirm" in request.POST:
        stored = request.session.pop(PLAN_KEY, None)
        if stored is None:
            messages.error(request, _("The preview has expired: upload the file again."))
            return redirect("players:register_import")
        try:
            counts = apply_import(stored, user=request.user)
        except UserError as exc:
            messages.error(request, exc.message)
            return redirect("players:register_import")
        messages.success(
            request, _("Imported: %(new)s new, %(update)s changed, %(same)s unchanged.") % counts
        )
        return redirect("players:register")
    if request.method == "POST":
        form = FileForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                plan = plan_import(read_file(filename=upload.name, content=upload.read(FILE_MAX + 1)))
            except UserError as exc:
                form.add_error("file", exc.message)
            else:
                request.session[PLAN_KEY] = [p.to_list() for p in plan]
    counts = {a: sum(1 for p in plan if p.action == a) for a in ("new", "update", "same")} if plan else {}
    return render(
        request, "players/register_import.html", _context(request, form=form, plan=plan, counts=counts)
    )


def _lang() -> str:
    return "ru" if (get_language() or "ru").startswith("ru") else "en"


def xlsx_bytes(titles: tuple[str, ...], rows: Any) -> bytes:
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell

    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet("register")

    def cells(values: tuple[str, ...]) -> list[Any]:
        out = []
        for value in values:
            cell = WriteOnlyCell(sheet, safe_text(value))
            cell.data_type = "s"  # never a formula
            out.append(cell)
        return out

    sheet.append(cells(titles))
    for row in rows:
        sheet.append(cells(row))
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def csv_bytes(titles: tuple[str, ...], rows: Any, lang: str) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=csv_delimiter(lang), lineterminator="\r\n")
    writer.writerow(titles)
    for row in rows:
        writer.writerow([safe_text(v) for v in row])
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


@sees
def export_file(request: HttpRequest, fmt: str) -> HttpResponse:
    lang = _lang()
    if fmt == "xlsx":
        body = xlsx_bytes(TITLES[lang], export_rows())
        kind = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    elif fmt == "csv":
        body, kind = csv_bytes(TITLES[lang], export_rows(), lang), "text/csv; charset=utf-8"
    else:
        raise Http404
    response = HttpResponse(body, content_type=kind)
    response["Content-Disposition"] = f'attachment; filename="register-{timezone.localdate():%Y-%m-%d}.{fmt}"'
    return response


@directs
def event_links(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The event's participants and their persons: link by federation number, confirm a proposal, make a new
    person, or undo a link."""
    if request.method == "POST":
        now = timezone.now()
        try:
            if "decide" in request.POST:
                raw = str(request.POST.get("series", ""))
                series_id = whole_number(raw, digits=11)
                chosen = (
                    tournament.series_links.filter(series_id=series_id).first()
                    if series_id is not None
                    else None
                )
                choose_deciding_series(
                    tournament=tournament,
                    series=chosen.series if chosen else None,
                    user=request.user,
                    now=now,
                )
                messages.success(request, _("Saved."))
            elif "by_number" in request.POST:
                report = register.link_event(tournament, now=now, user=request.user)
                messages.success(
                    request,
                    _(
                        "Linked by federation number: %(linked)s; new persons: %(created)s; proposed to the "
                        "register's staff: %(proposed)s."
                    )
                    % {"linked": report.linked, "created": report.created, "proposed": report.proposed},
                )
            else:
                participant = get_object_or_404(
                    Participant,
                    tournament=tournament,
                    number=participant_number(request.POST.get("participant", "")) or 0,
                )
                if "new" in request.POST:
                    register.link_new(participant=participant, user=request.user, now=now)
                elif "unlink" in request.POST:
                    register.unlink(participant=participant, user=request.user, now=now)
                else:
                    person = _person(request.POST.get("person"))
                    if person is None:
                        raise Http404
                    if not register.link(participant=participant, person=person, user=request.user, now=now):
                        messages.info(request, _("Proposed: the register's staff confirm the link."))
                messages.success(request, _("Saved: %(p)s.") % {"p": participant})
        except UserError as exc:
            messages.error(request, exc.message)
        return redirect("players:event_links", slug=tournament.slug)
    rows = register.link_rows(tournament)
    context = nav(tournament, active="participants") | {
        "rows": rows,
        "open": sum(1 for r in rows if r.person is None),
        "with_number": sum(
            1 for r in rows if r.person is None and r.awaiting is None and r.participant.federation_id
        ),
        "can_see_register": register.can_see_register(request.user),
        "series_links": list(tournament.series_links.select_related("series").order_by("pk")),
        "no_deciding_series": no_deciding_series(tournament),
    }
    return render(request, "players/register_event.html", context)
