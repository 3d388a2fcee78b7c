"""Who may open the director's application."""

from __future__ import annotations

from tests.permissions.page import (
    Page,
    board,
    director_writes,
    garbage,
    player_1,
    s1,
    slug,
    tournament_form,
)
from tests.permissions.world import DIRECTOR_ONLY, LOGIN, USER


def end_round_4_knowingly(w):  # type: ignore[no-untyped-def]
    """Round 4's rows are not all in: the director ticks «I know» (the token of its gaps) to end it."""
    from duplicate.gaps import round_gaps
    from tournaments.models import Round

    rnd = Round.objects.get(session__tournament__slug=w.slug, session__number=1, number=4)
    return {"acknowledged": round_gaps(rnd).token}


PAGES: dict[str, Page] = {
    "director:index": Page(LOGIN),
    # Any account may create an event (and so direct it): accounts are made by the administrators.
    "director:create": Page(LOGIN, "GP", post=tournament_form, writes_as=USER),
    "director:dashboard": Page(DIRECTOR_ONLY, kwargs=slug),
    "director:settings": director_writes(slug, tournament_form),
    "director:directors": director_writes(slug, lambda w: {"username": "nobody"}, methods="P"),
    "director:add_session": director_writes(slug, methods="P"),
    "director:participants": director_writes(slug, lambda w: {"number": 99, "name": "X"}),
    "director:participants_import": Page(DIRECTOR_ONLY, "GP", kwargs=slug, post=garbage),
    "director:pins": director_writes(slug, lambda w: {"everyone": "1", "reason": "потеряны листки"}),
    # Clearing a participant's wrong PINs (issue 29): audited, so the director's POST writes.
    "director:pin_unlock": director_writes(slug, lambda w: {"number": 1}, methods="P"),
    "director:participant": director_writes(player_1, lambda w: {"number": 1, "name": "Renamed"}),
    # The world's event has results, so even the director's draw is refused (tested in
    # tests/tournaments/test_random_initial_seating.py); here: nobody else may open or post it.
    "director:draw": Page(DIRECTOR_ONLY, "GP", kwargs=slug, post=lambda w: {"seed": 7}),
    "director:sanctions": director_writes(
        slug, lambda w: {"action": "disqualify", "d-participant": 2, "d-approved_by": "ОТ", "d-reason": "x"}
    ),
    "director:sanction_delete": director_writes(
        lambda w: {"slug": w.slug, "pk": w.sanction}, lambda w: {"reason": "x"}, methods="P"
    ),
    "director:standings": Page(DIRECTOR_ONLY, kwargs=slug),
    "director:rescore": director_writes(slug, methods="P"),
    "director:publication": director_writes(slug, lambda w: {"action": "withdraw", "reason": "x"}),
    "director:audit": Page(DIRECTOR_ONLY, kwargs=slug),
    "director:session_dashboard": Page(DIRECTOR_ONLY, kwargs=s1),
    "director:movement": Page(
        DIRECTOR_ONLY, "GP", kwargs=s1, post=lambda w: {"scheme": "basic", "tables": 5}
    ),
    "director:seating": Page(DIRECTOR_ONLY, kwargs=s1),
    "director:start_round": Page(DIRECTOR_ONLY, "P", kwargs=lambda w: s1(w, number=5)),
    "director:end_round": director_writes(lambda w: s1(w, number=4), end_round_4_knowingly, methods="P"),
    "director:handover": Page(DIRECTOR_ONLY, kwargs=lambda w: s1(w, number=1)),
    "director:table_round": Page(DIRECTOR_ONLY, kwargs=lambda w: s1(w, round=1, table=1)),
    "director:board_entry": director_writes(
        lambda w: s1(w, round=1, table=1, board=w.round_board), lambda w: {"kind": "delete", "reason": "x"}
    ),
    # What a table owes in a round (issue 28): nobody but the director may post them; what the director's POST
    # does is tested in tests/tournaments/test_duplicate_partials.py and tests/appeals/test_rule_11_6_late_board.py.
    "director:missing_row": Page(
        DIRECTOR_ONLY, "P", kwargs=lambda w: s1(w, round=1, table=1, board=w.round_board), post=garbage
    ),
    "director:late_board": Page(DIRECTOR_ONLY, "P", kwargs=lambda w: s1(w, round=1, table=1), post=garbage),
    "director:duplication": Page(DIRECTOR_ONLY, "P", kwargs=lambda w: s1(w, round=1, table=1), post=garbage),
    "director:boards": Page(DIRECTOR_ONLY, kwargs=s1),
    "director:board_detail": director_writes(board, lambda w: {"foul": "1", "note": "x"}),
    "director:board_layout": Page(DIRECTOR_ONLY, "GP", kwargs=board, post=garbage),
    "director:board_fouled": Page(DIRECTOR_ONLY, "GP", kwargs=board, post=garbage),
    # the double-dummy analysis of the session's boards: a POST naming a board analyses that one board
    "director:analysis": director_writes(s1, lambda w: {"action": "start", "board": w.round_board}),
    "director:penalties": director_writes(s1, lambda w: {"participant": 1, "deduct": "2", "kind": "12.2.1"}),
    "director:penalty_delete": director_writes(
        lambda w: s1(w, pk=w.penalty), lambda w: {"reason": "x"}, methods="P"
    ),
}
