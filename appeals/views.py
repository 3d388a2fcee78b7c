"""Pages of rulings, appeals and corrections. Views read, check permission and call the services."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from appeals import forms as f
from appeals import services as svc
from appeals.models import Appeal, AppealMember, CommitteeMember, Correction, Irregularity, ScoreChange
from boards.models import Board
from preferans.cards.deck import Suit, parse_hand, sort_cards
from preferans.duplicate.deadlines import check_correction, correction_deadline, filing_deadline
from preferans.game.seats import table_seats
from scoring.models import Result
from tournaments.models import AuditEntry, Participant, Session, Tournament
from tournaments.permissions import can_direct

PLAYER_KEY = "appeals.player.{}"
LOGIN_TRIES = 10
LOGIN_WINDOW = 15 * 60


# --- helpers -----------------------------------------------------------------------------------------------


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def _guard_director(request: HttpRequest, t: Tournament) -> HttpResponseBase | None:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not can_direct(request.user, t):
        raise PermissionDenied
    return None


def _is_committee(user: Any, t: Tournament) -> bool:
    return bool(
        getattr(user, "is_authenticated", False)
        and CommitteeMember.objects.filter(tournament=t, user=user).exists()
    )


def _run(request: HttpRequest, call: Callable[[], Any], ok: str) -> bool:
    """Call a service; show its refusal as an error message. True when it went through."""
    try:
        call()
    except svc.AppealsError as exc:
        messages.error(request, exc.message)
        return False
    messages.success(request, ok)
    return True


def _session(t: Tournament, number: int) -> Session | None:
    return t.sessions.filter(number=number).first()


def layout_rows(board: Board | None) -> list[tuple[str, list[tuple[str, str]]]]:
    """A board's hands as (seat, [(suit symbol, ranks), …]) for Appendix B's diagram, prikup last."""
    if board is None or not board.hands:
        return []
    out = []
    for seat in ("N", "W", "E", "S"):
        text = board.hands.get(seat)
        if not text:
            continue
        cards = sort_cards(parse_hand(text))
        out.append(
            (
                seat,
                [
                    (suit.symbol, " ".join(c.rank.text for c in cards if c.suit is suit) or "—")
                    for suit in Suit
                ],
            )
        )
    return out


def _prikup_symbols(board: Board | None) -> list[str]:
    from preferans.cards.deck import parse_card

    return [parse_card(c).symbol_text for c in (board.prikup if board else [])]


def _prikup_seat(board: Board | None) -> str:
    """The pocket that holds the prikup: the one without a hand (the dealer's at a 4-player table, W at 3)."""
    if board is None:
        return "W"
    return next((s for s in ("N", "E", "S", "W") if s not in board.hands), "W")


def _names(t: Tournament, seats: dict[str, int]) -> list[tuple[str, int, str]]:
    people = {p.number: p.name for p in Participant.objects.filter(tournament=t, number__in=seats.values())}
    return [(seat, n, people.get(n, "")) for seat, n in seats.items()]


# --- the director's dashboard -------------------------------------------------------------------------------


def appeal_list(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    if not (can_direct(request.user, t) or _is_committee(request.user, t)):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())  # type: ignore[return-value]
        raise PermissionDenied
    conf = svc.settings_for(t)
    now = timezone.now()
    sessions = [
        {
            "session": s,
            "deadline": filing_deadline(s.ended_at, conf.filing_minutes),
            "open": s.ended_at is None or now <= filing_deadline(s.ended_at, conf.filing_minutes),  # type: ignore[operator]
        }
        for s in t.sessions.all()
    ]
    corr = check_correction(
        now=now,
        publication=t.publication,
        official_at=t.official_at,
        minutes=t.correction_minutes,
        arithmetic=False,
    )
    context = {
        "tournament": t,
        "is_director": can_direct(request.user, t),
        "conf": conf,
        "sessions": sessions,
        "correction_deadline": correction_deadline(t.official_at, t.correction_minutes),
        "correction_open": bool(corr),
        "appeals": Appeal.objects.filter(tournament=t).select_related("appellant", "session"),
        "rulings": Irregularity.objects.filter(tournament=t).select_related("session")[:200],
        "corrections": Correction.objects.filter(tournament=t).select_related("session", "requested_by"),
        "open": svc.open_matters(t),
    }
    return render(request, "appeals/list.html", context)


# --- appeals -------------------------------------------------------------------------------------------------


def appeal_new(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    if (deny := _guard_director(request, t)) is not None:
        return deny  # type: ignore[return-value]
    form = f.DirectorAppealForm(request.POST or None, tournament=t)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        session = _session(t, d["session"])
        appellant = Participant.objects.filter(tournament=t, number=d["participant"]).first()
        if session is None:
            form.add_error("session", _("No such session."))
        elif appellant is None:
            form.add_error("participant", _("No such participant."))
        else:
            now = timezone.now()
            result: dict[str, Appeal] = {}
            if "notice" in request.POST:

                def call() -> None:
                    result["a"] = svc.appeal_notice(
                        session=session, appellant=appellant, round=d["round"], board=d["board"], ruling=d["ruling"],
                        user=request.user, now=now, late_note=d["late_note"],
                    )  # fmt: skip

                ok = _run(request, call, _("Notice recorded."))
            else:

                def call() -> None:
                    result["a"] = svc.appeal_file(
                        session=session, appellant=appellant, round=d["round"], board=d["board"], claim=d["claim"],
                        bidding=d["bidding"], play=d["play"], ruling=d["ruling"], via=Appeal.Via.DIRECTOR,
                        late_note=d["late_note"], user=request.user, now=now,
                    )  # fmt: skip

                ok = _run(request, call, _("Appeal filed."))
            if ok:
                return redirect("appeals:appeal", slug=t.slug, number=result["a"].number)
    return render(request, "appeals/appeal_new.html", {"tournament": t, "form": form})


def appeal_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    t = _tournament(slug)
    is_director = can_direct(request.user, t)
    if not (is_director or _is_committee(request.user, t)):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())  # type: ignore[return-value]
        raise PermissionDenied
    appeal = get_object_or_404(
        Appeal.objects.select_related("appellant", "session", "ruling"), tournament=t, number=number
    )
    board = Board.objects.filter(session=appeal.session, number=appeal.board_number).first()
    seats = [s for s in table_seats(t.players_per_table) if s in appeal.seats]
    result = Result.objects.filter(
        session=appeal.session, room=appeal.room, board_number=appeal.board_number,
        round_number=appeal.round_number, table_number=appeal.table_number,
    ).first()  # fmt: skip
    change_entries = ScoreChange.objects.filter(appeal=appeal, audit_entry__isnull=False).values(
        "audit_entry"
    )
    audit = AuditEntry.objects.filter(
        Q(data__appeal=appeal.pk) | Q(pk__in=change_entries), tournament=t
    ).order_by("at", "id")
    own_member = (
        CommitteeMember.objects.filter(tournament=t, user=request.user).first()
        if request.user.is_authenticated
        else None
    )
    context = {
        "tournament": t,
        "appeal": appeal,
        "is_director": is_director,
        "own_member": own_member,
        "board": board,
        "layout": layout_rows(board),
        "prikup": _prikup_symbols(board),
        "prikup_seat": _prikup_seat(board),
        "people": _names(t, appeal.seats),
        "result": result,
        "panel": appeal.panel.select_related("member"),
        "changes": appeal.changes.select_related("audit_entry", "participant"),
        "ruling_changes": appeal.ruling.changes.all() if appeal.ruling else [],
        "audit": audit,
        "comment_form": f.CommentForm(initial={"comment": appeal.director_comment}),
        "hear_form": f.HearForm(
            tournament=t, initial={"members": CommitteeMember.objects.filter(tournament=t)}
        ),
        "decide_form": f.DecideForm(seats=seats, initial=_decision_initial(appeal)),
        "sign_form": f.SignForm(appeal=appeal),
        "note_form": f.NoteForm(),
        "seats": seats,
        "pdf_available": _pdf_available(),
        **_steps(appeal),
    }
    return render(request, "appeals/appeal_detail.html", context)


def _decision_initial(appeal: Appeal) -> dict[str, Any]:
    """The decision form as last recorded (outcome, text, grades or vists, penalty)."""
    initial: dict[str, Any] = {"outcome": appeal.outcome or "upheld", "decision": appeal.decision}
    for change in appeal.changes.exclude(status=ScoreChange.Status.DROPPED).select_related("participant"):
        if change.kind in (ScoreChange.Kind.ARTIFICIAL, ScoreChange.Kind.ASSIGNED):
            initial["kind"] = change.kind
            prefix = "grade" if change.kind == ScoreChange.Kind.ARTIFICIAL else "vists"
            initial.update({f"{prefix}_{seat}": value for seat, value in change.values.items()})
        elif change.kind == ScoreChange.Kind.PENALTY and change.participant is not None:
            initial.update(
                penalty_participant=change.participant.number, penalty_matchpoints=change.matchpoints
            )
    return initial


MAIN_PATH = [
    Appeal.Status.FILED,
    Appeal.Status.COMMENTED,
    Appeal.Status.HEARD,
    Appeal.Status.DECIDED,
    Appeal.Status.APPLIED,
    Appeal.Status.CLOSED,
]


def _steps(appeal: Appeal) -> dict[str, Any]:
    steps = [(s.value, s.label) for s in MAIN_PATH]
    codes = [s.value for s in MAIN_PATH]
    done = codes[: codes.index(appeal.status)] if appeal.status in codes else []
    return {"steps": steps, "done": done}


@require_POST
def appeal_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    t = _tournament(slug)
    appeal = get_object_or_404(Appeal, tournament=t, number=number)
    is_director = can_direct(request.user, t)
    member = (
        CommitteeMember.objects.filter(tournament=t, user=request.user).first()
        if request.user.is_authenticated
        else None
    )
    if not is_director and not (action == "sign" and member is not None):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())  # type: ignore[return-value]
        raise PermissionDenied
    now = timezone.now()
    user = request.user
    back = redirect("appeals:appeal", slug=t.slug, number=appeal.number)
    if action == "comment":
        form = f.CommentForm(request.POST)
        if form.is_valid():
            _run(request, lambda: svc.appeal_comment(appeal=appeal, comment=form.cleaned_data["comment"],
                 notice_at=form.cleaned_data["notice_at"], user=user, now=now), _("Comment recorded."))  # fmt: skip
        else:
            messages.error(request, _("Write the director's comment."))
    elif action == "hear":
        form = f.HearForm(request.POST, tournament=t)
        if form.is_valid():
            _run(request, lambda: svc.appeal_hear(appeal=appeal, members=list(form.cleaned_data["members"]),
                 notes=form.cleaned_data["notes"], user=user, now=now), _("Hearing recorded."))  # fmt: skip
        else:
            messages.error(request, _("Choose the committee members who hear the appeal."))
    elif action == "decide":
        seats = [s for s in table_seats(t.players_per_table) if s in appeal.seats]
        form = f.DecideForm(request.POST, seats=seats)
        if form.is_valid():
            _run(request, lambda: svc.appeal_decide(appeal=appeal, outcome=form.cleaned_data["outcome"],
                 decision=form.cleaned_data["decision"], adjustment=form.adjustment(), user=user, now=now),
                 _("Decision recorded. The committee members sign it next."))  # fmt: skip
        else:
            messages.error(request, _("Choose the outcome and write the decision."))
    elif action == "sign":
        if is_director:
            form = f.SignForm(request.POST, appeal=appeal)
            chosen = form.cleaned_data["member"] if form.is_valid() else None
        else:
            chosen = member
        if chosen is None:
            messages.error(request, _("Choose who signs."))
        else:
            _run(request, lambda: svc.appeal_sign(appeal=appeal, member=chosen, user=user, now=now),
                 _("Signed by %(name)s.") % {"name": chosen.name})  # fmt: skip
    elif action == "apply":
        _run(request, lambda: svc.appeal_apply(appeal=appeal, user=user, now=now),
             _("Decision applied; the standings are recomputed."))  # fmt: skip
    elif action == "close":
        _run(request, lambda: svc.appeal_close(appeal=appeal, user=user, now=now), _("Appeal closed."))
    elif action == "withdraw":
        _run(request, lambda: svc.appeal_withdraw(appeal=appeal, user=user, now=now), _("Appeal withdrawn."))
    elif action == "admit":
        form = f.NoteForm(request.POST)
        note = form.cleaned_data["note"] if form.is_valid() else ""
        _run(request, lambda: svc.appeal_admit(appeal=appeal, note=note, user=user, now=now),
             _("Late appeal admitted."))  # fmt: skip
    else:
        raise PermissionDenied
    return back


def appeal_form(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Appendix B filled in, to print (HTML); the PDF when the results package provides it."""
    t = _tournament(slug)
    if not (can_direct(request.user, t) or _is_committee(request.user, t)):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())  # type: ignore[return-value]
        raise PermissionDenied
    appeal = get_object_or_404(Appeal.objects.select_related("appellant"), tournament=t, number=number)
    if request.GET.get("format") == "pdf" and _pdf_available():
        pdf = _appeal_pdf(appeal, lang=request.LANGUAGE_CODE)
        if pdf is not None:
            response = HttpResponse(pdf, content_type="application/pdf")
            response["Content-Disposition"] = f'inline; filename="appeal-{appeal.number}.pdf"'
            return response
    board = Board.objects.filter(session=appeal.session, number=appeal.board_number).first()
    return render(
        request,
        "appeals/appeal_form.html",
        {
            "tournament": t,
            "appeal": appeal,
            "layout": layout_rows(board),
            "prikup": _prikup_symbols(board),
            "people": _names(t, appeal.seats),
            "panel": appeal.panel.select_related("member"),
        },  # fmt: skip
    )


def _pdf_available() -> bool:
    try:
        from results import pdf_appeal  # noqa: F401
    except ImportError:
        return False
    return True


def _appeal_pdf(appeal: Appeal, *, lang: str) -> bytes | None:
    """Call the results package's Appendix B renderer with whatever fields its data class declares."""
    import dataclasses

    try:
        from results.pdf_appeal import AppealFormData, appeal_form_pdf
    except ImportError:
        return None
    board = Board.objects.filter(session=appeal.session, number=appeal.board_number).first()
    panel = list(appeal.panel.select_related("member"))
    people = {seat: f"№ {n} {name}".strip() for seat, n, name in _names(appeal.tournament, appeal.seats)}
    known: dict[str, Any] = {
        "tournament": appeal.tournament.name,
        "appellant": str(appeal.appellant),
        "round": appeal.round_number,
        "board": appeal.board_number,
        "layout": {
            "number": board.number,
            "set": board.set_number,
            "dealer": board.dealer,
            "hands": board.hands,
            "prikup": board.prikup,
        }
        if board is not None and board.hands
        else None,  # fmt: skip
        "participants": people,
        # Bidding is kept as free text: one line per round of calls, calls in the order W, N, E, S.
        "bidding": [line.split()[:4] for line in appeal.bidding.splitlines() if line.strip()],
        "play": appeal.play,
        "claim": appeal.claim,
        "director_comment": appeal.director_comment,
        "committee_decision": (f"{appeal.get_outcome_display()}. " if appeal.outcome else "")
        + appeal.decision,
        "committee_members": [m.member.name for m in panel],
        "signed_by": [m.member.name for m in panel if m.signed_at],
        "date": timezone.localtime(appeal.decided_at or appeal.filed_at or timezone.now()).date(),
    }
    try:
        names = {x.name for x in dataclasses.fields(AppealFormData)}
        data = AppealFormData(**{k: v for k, v in known.items() if k in names})
        return appeal_form_pdf(data, lang=lang)
    except Exception:  # noqa: BLE001 - the printable HTML form remains available
        return None


# --- irregularities ------------------------------------------------------------------------------------------


def ruling_new(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    if (deny := _guard_director(request, t)) is not None:
        return deny  # type: ignore[return-value]
    form = f.IrregularityForm(request.POST or None, initial=request.GET.dict() or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        session = _session(t, d["session"])
        facts = form.facts()
        ok = session is not None
        if session is None:
            form.add_error("session", _("No such session."))
        if ok and d["kind"] in ("fouled", "missing_card") and any(form.played_fields().values()):
            played = _played_layout(t, session, d.get("board"), form)
            ok = played is not None
            if played:
                facts["played"] = played
        if ok:
            made: dict[str, Irregularity] = {}

            def call() -> None:
                made["i"] = svc.irregularity_record(
                    session=session, kind=d["kind"], round=d["round"], table=d["table"], board=d.get("board"),
                    fault=form.fault(), facts=facts, description=d["description"], user=request.user,
                    now=timezone.now(),
                )  # fmt: skip

            if _run(request, call, _("Irregularity recorded. Check the proposed remedy and confirm it.")):
                return redirect("appeals:ruling", slug=t.slug, pk=made["i"].pk)
    return render(request, "appeals/ruling_new.html", {"tournament": t, "form": form})


def _played_layout(
    t: Tournament, session: Any, board_number: int | None, form: f.IrregularityForm
) -> dict[str, Any] | None:
    from boards.forms import LayoutEntryForm
    from preferans.cards.deal import Seat
    from preferans.cards.deck import format_hand

    board = Board.objects.filter(session=session, number=board_number).first() if board_number else None
    if board is None:
        form.add_error("board", _("Give the board whose layout was played."))
        return None
    layout = LayoutEntryForm(form.played_fields(), dealer=Seat(board.dealer), players=t.players_per_table,
                             number=board.number, exact_counts=False)  # fmt: skip
    if not layout.is_valid():
        for errors in layout.errors.values():
            for e in errors:
                form.add_error(None, e)
        return None
    played = layout.cleaned_data["played"]
    return {
        "hands": {seat.value: format_hand(cards) for seat, cards in played.hands.items()},
        "prikup": [c.notation for c in played.prikup],
    }


def ruling_detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    t = _tournament(slug)
    if (deny := _guard_director(request, t)) is not None:
        return deny  # type: ignore[return-value]
    irr = get_object_or_404(Irregularity.objects.select_related("session"), tournament=t, pk=pk)
    seats = [s for s in table_seats(t.players_per_table) if s in irr.seats]
    if request.method == "POST":
        now = timezone.now()
        action = request.POST.get("action")
        if action == "revise":
            form = f.ReviseForm(request.POST, seats=seats)
            if form.is_valid():
                _run(request, lambda: svc.irregularity_revise(irregularity=irr, fault=form.fault(), facts=form.facts(),
                     user=request.user, now=now), _("Remedy revised."))  # fmt: skip
        elif action in ("apply", "dismiss"):
            form = f.RulingForm(request.POST)
            text = form.cleaned_data["ruling"] if form.is_valid() else ""
            if action == "apply":
                _run(request, lambda: svc.irregularity_apply(irregularity=irr, ruling=text, user=request.user, now=now),
                     _("Ruling applied; the standings are recomputed."))  # fmt: skip
            else:
                _run(request, lambda: svc.irregularity_dismiss(irregularity=irr, ruling=text or _("No action."),
                     user=request.user, now=now), _("Closed without action."))  # fmt: skip
        return redirect("appeals:ruling", slug=t.slug, pk=irr.pk)
    initial = {f"fault_{s}": irr.fault.get(s, "") for s in seats}
    initial["remedy"] = irr.facts.get("remedy", "")
    initial.update({f"vists_{s}": (irr.facts.get("assigned") or {}).get(s, "") for s in seats})
    entries = ScoreChange.objects.filter(irregularity=irr, audit_entry__isnull=False).values("audit_entry")
    context = {
        "tournament": t,
        "irr": irr,
        "people": _names(t, irr.seats),
        "changes": irr.changes.select_related("audit_entry", "participant"),
        "revise_form": f.ReviseForm(seats=seats, initial=initial),
        "ruling_form": f.RulingForm(initial={"ruling": irr.ruling or irr.proposal.get("text", "")}),
        "audit": AuditEntry.objects.filter(
            Q(data__irregularity=irr.pk) | Q(pk__in=entries), tournament=t
        ).order_by("at", "id"),
        "appeals": irr.appeals.all(),
    }
    return render(request, "appeals/ruling_detail.html", context)


# --- corrections ---------------------------------------------------------------------------------------------


def correction_new(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    if (deny := _guard_director(request, t)) is not None:
        return deny  # type: ignore[return-value]
    form = f.CorrectionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        session = _session(t, d["session"])
        if session is None:
            form.add_error("session", _("No such session."))
        else:
            made: dict[str, Correction] = {}

            def call() -> None:
                made["c"] = svc.correction_request(
                    session=session, kind=d["kind"], board=d["board"], round=d["round"], table=d["table"],
                    description=d["description"], late_note=d["late_note"], user=request.user, now=timezone.now(),
                )  # fmt: skip

            if _run(request, call, _("Correction recorded.")):
                return redirect("appeals:correction", slug=t.slug, pk=made["c"].pk)
    return render(request, "appeals/correction_new.html", {"tournament": t, "form": form})


def correction_detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    t = _tournament(slug)
    if (deny := _guard_director(request, t)) is not None:
        return deny  # type: ignore[return-value]
    c = get_object_or_404(Correction.objects.select_related("session", "requested_by"), tournament=t, pk=pk)
    result = Result.objects.filter(
        session=c.session, room=c.room, board_number=c.board_number, round_number=c.round_number,
        table_number=c.table_number,
    ).first()  # fmt: skip
    seats = list(result.seats()) if result else list(table_seats(t.players_per_table))
    if request.method == "POST":
        now = timezone.now()
        if request.POST.get("action") == "refuse":
            form = f.NoteForm(request.POST)
            note = form.cleaned_data["note"] if form.is_valid() else ""
            _run(request, lambda: svc.correction_refuse(correction=c, reason=note, user=request.user, now=now),
                 _("Correction refused."))  # fmt: skip
        else:
            form = f.CorrectionApplyForm(request.POST, seats=seats)
            if form.is_valid():
                row = form.cleaned_data["row"] or None
                if result is not None and row == result.row:
                    row = None
                new_seats = form.seat_numbers()
                if result is not None and new_seats == result.seats():
                    new_seats = None
                if row is not None and new_seats is None and result is not None:
                    new_seats = result.seats()
                _run(request, lambda: svc.correction_apply(correction=c, row=row, seats=new_seats, user=request.user,
                     now=now), _("Result corrected; the standings are recomputed."))  # fmt: skip
            else:
                messages.error(request, _("The corrected row is not valid JSON."))
        return redirect("appeals:correction", slug=t.slug, pk=c.pk)
    initial: dict[str, Any] = {"row": result.row if result else {}}
    if result:
        initial.update({f"seat_{s}": n for s, n in result.seats().items()})
    context = {
        "tournament": t,
        "c": c,
        "result": result,
        "apply_form": f.CorrectionApplyForm(seats=seats, initial=initial),
        "note_form": f.NoteForm(),
        "changes": c.changes.select_related("audit_entry"),
    }
    return render(request, "appeals/correction_detail.html", context)


# --- audit trail and settings --------------------------------------------------------------------------------


def audit_trail(request: HttpRequest, slug: str) -> HttpResponse:
    """Every audit entry of the tournament (the director sees all), filterable, each linked to its reason."""
    t = _tournament(slug)
    if (deny := _guard_director(request, t)) is not None:
        return deny  # type: ignore[return-value]
    entries = AuditEntry.objects.filter(tournament=t).select_related("user").order_by("-at", "-id")
    what = request.GET.get("what", "")
    if what:
        entries = entries.filter(action__startswith=what)
    board = request.GET.get("board", "")
    if board.isdigit():
        entries = entries.filter(
            Q(data__after__board=int(board)) | Q(data__before__board=int(board)) | Q(data__board=int(board))
        )
    entries = list(entries[:500])
    links = {
        c.audit_entry_id: c
        for c in ScoreChange.objects.filter(audit_entry__in=[e.pk for e in entries]).select_related(
            "appeal", "irregularity", "correction"
        )
    }
    rows = [(e, links.get(e.pk)) for e in entries]
    kinds = ["result.", "penalty.", "appeal.", "irregularity.", "correction.", "committee.", "appeals."]
    return render(
        request,
        "appeals/audit.html",
        {"tournament": t, "rows": rows, "what": what, "board": board, "kinds": kinds},
    )


def appeal_settings(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    if (deny := _guard_director(request, t)) is not None:
        return deny  # type: ignore[return-value]
    conf = svc.settings_for(t)
    now = timezone.now()
    settings_form = f.SettingsForm(
        initial={
            "filing_minutes": conf.filing_minutes,
            "correction_minutes": t.correction_minutes,
            "notice_required": conf.notice_required,
            "online_filing": conf.online_filing,
        }  # fmt: skip
    )
    member_form = f.MemberForm()
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "settings":
            settings_form = f.SettingsForm(request.POST)
            if settings_form.is_valid():
                _run(request, lambda: svc.settings_update(tournament=t, user=request.user, now=now,
                     **settings_form.cleaned_data), _("Deadlines saved."))  # fmt: skip
                return redirect("appeals:settings", slug=t.slug)
        elif action == "member":
            member_form = f.MemberForm(request.POST)
            if member_form.is_valid() and _run(
                request, lambda: svc.committee_add(tournament=t, user=request.user, now=now, **member_form.cleaned_data),
                _("Member added."),
            ):  # fmt: skip
                return redirect("appeals:settings", slug=t.slug)
        elif action == "remove":
            member = get_object_or_404(CommitteeMember, tournament=t, pk=request.POST.get("member"))
            _run(
                request,
                lambda: svc.committee_remove(member=member, user=request.user, now=now),
                _("Member removed."),
            )
            return redirect("appeals:settings", slug=t.slug)
    context = {
        "tournament": t,
        "settings_form": settings_form,
        "member_form": member_form,
        "members": CommitteeMember.objects.filter(tournament=t).select_related("participant", "user"),
    }
    return render(request, "appeals/settings.html", context)


# --- the player's pages ----------------------------------------------------------------------------------------


def _player(request: HttpRequest, t: Tournament) -> Participant | None:
    pk = request.session.get(PLAYER_KEY.format(t.pk))
    return Participant.objects.filter(tournament=t, pk=pk).first() if pk else None


def _played_deals(p: Participant) -> list[tuple[str, str]]:
    """The deals a participant played, newest first, as form choices ``"session-round-board-table"``."""
    rows = (
        Result.objects.filter(
            Q(seat_n=p) | Q(seat_e=p) | Q(seat_s=p) | Q(seat_w=p), session__tournament=p.tournament
        )
        .select_related("session")
        .order_by("-session__number", "-round_number", "-board_number")
    )
    return [
        (
            f"{r.session.number}-{r.round_number}-{r.board_number}-{r.table_number}",
            _("Session %(s)s, round %(r)s, board %(b)s (table %(t)s)")
            % {"s": r.session.number, "r": r.round_number, "b": r.board_number, "t": r.table_number},
        )
        for r in rows
    ]


def player_home(request: HttpRequest, slug: str) -> HttpResponse:
    """Players identify with number and PIN, file an appeal or a correction request, and see what changed."""
    t = _tournament(slug)
    player = _player(request, t)
    if player is None:
        form = f.PlayerLoginForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            key = f"appeals-login:{t.pk}:{request.META.get('REMOTE_ADDR', '')}"
            tries = cache.get(key, 0)
            p = Participant.objects.filter(tournament=t, number=form.cleaned_data["number"]).first()
            if tries >= LOGIN_TRIES:
                form.add_error(None, _("Too many attempts. Ask the director."))
            elif p is None or not p.pin or p.pin != form.cleaned_data["pin"]:
                cache.set(key, tries + 1, LOGIN_WINDOW)
                form.add_error(None, _("Number or PIN is wrong."))
            else:
                request.session.cycle_key()
                request.session[PLAYER_KEY.format(t.pk)] = p.pk
                return redirect("appeals:player", slug=t.slug)
        return render(request, "appeals/player_login.html", {"tournament": t, "form": form})
    conf = svc.settings_for(t)
    deals = _played_deals(player)
    appeal_form = f.PlayerAppealForm(
        request.POST if request.POST.get("action") == "appeal" else None, deals=deals
    )
    corr_form = f.PlayerCorrectionForm(
        request.POST if request.POST.get("action") == "correction" else None, deals=deals
    )
    if request.method == "POST":
        now = timezone.now()
        action = request.POST.get("action")
        if action == "appeal" and appeal_form.is_valid():
            s, r, b, table = appeal_form.deal_key()
            session = _session(t, s)
            made: dict[str, Appeal] = {}

            def call() -> None:
                made["a"] = svc.appeal_file(
                    session=session, appellant=player, round=r, board=b, table=table,
                    claim=appeal_form.cleaned_data["claim"], bidding=appeal_form.cleaned_data["bidding"],
                    play=appeal_form.cleaned_data["play"], via=Appeal.Via.PLAYER, now=now,
                )  # fmt: skip

            if session is not None and _run(request, call, _("Appeal sent to the director.")):
                a = made["a"]
                if a.status == Appeal.Status.REFUSED:
                    messages.error(request, a.refusal)
                return redirect("appeals:player-appeal", slug=t.slug, number=a.number)
        elif action == "correction" and corr_form.is_valid():
            s, r, b, table = (int(x) for x in corr_form.cleaned_data["deal"].split("-"))
            session = _session(t, s)
            made_c: dict[str, Correction] = {}

            def call_c() -> None:
                made_c["c"] = svc.correction_request(
                    session=session, board=b, round=r, table=table, participant=player,
                    description=corr_form.cleaned_data["description"], now=now,
                )  # fmt: skip

            if session is not None and _run(request, call_c, _("Correction request sent to the director.")):
                if made_c["c"].status == Correction.Status.REFUSED:
                    messages.error(request, made_c["c"].refusal)
                return redirect(reverse("appeals:player", kwargs={"slug": t.slug}) + "#changes")
    context = {
        "tournament": t,
        "player": player,
        "conf": conf,
        "appeal_form": appeal_form,
        "corr_form": corr_form,
        "appeals": Appeal.objects.filter(tournament=t, appellant=player),
        "corrections": Correction.objects.filter(tournament=t, requested_by=player),
        "changes": svc.changes_for_participant(player),
        "deadlines": [(s, filing_deadline(s.ended_at, conf.filing_minutes)) for s in t.sessions.all()],
    }
    return render(request, "appeals/player.html", context)


def player_appeal(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    t = _tournament(slug)
    player = _player(request, t)
    if player is None:
        return redirect("appeals:player", slug=t.slug)
    appeal = get_object_or_404(Appeal, tournament=t, number=number, appellant=player)
    if request.method == "POST" and request.POST.get("action") == "withdraw":
        _run(request, lambda: svc.appeal_withdraw(appeal=appeal, actor=f"participant {player.number}", now=timezone.now()),
             _("Appeal withdrawn."))  # fmt: skip
        return redirect("appeals:player-appeal", slug=t.slug, number=appeal.number)
    context = {
        "tournament": t,
        "player": player,
        "appeal": appeal,
        "people": _names(t, appeal.seats),
        "panel": AppealMember.objects.filter(appeal=appeal).select_related("member"),
        "changes": appeal.changes.filter(status=ScoreChange.Status.APPLIED),
        "can_withdraw": appeal.status
        in (Appeal.Status.NOTICE, Appeal.Status.FILED, Appeal.Status.COMMENTED, Appeal.Status.HEARD),
    }
    return render(request, "appeals/player_appeal.html", context)


@require_POST
def player_logout(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    request.session.pop(PLAYER_KEY.format(t.pk), None)
    return redirect("appeals:player", slug=t.slug)
