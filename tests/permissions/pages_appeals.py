"""Who may open the pages of rulings, appeals and corrections, the committee's and the players' ones too."""

from __future__ import annotations

from typing import Any

from tests.permissions.page import Page, director_writes, garbage, slug
from tests.permissions.world import (
    COMMITTEE,
    COMMITTEE_OR_DIRECTOR,
    DIRECTOR_ONLY,
    PLAYER,
    PLAYER_LOGIN,
    PLAYER_ONLY,
    PUBLIC,
    World,
)


def appeal(w: World) -> dict[str, Any]:
    return {"slug": w.slug, "number": w.appeal}


def at_the_round_board(w: World, **fields: Any) -> dict[str, Any]:
    """A form about the first round's board at table 1 (``world.World.round_board``)."""
    return {"session": 1, "round": 1, "board": w.round_board, **fields}


PAGES: dict[str, Page] = {
    "appeals:list": Page(COMMITTEE_OR_DIRECTOR, kwargs=slug),
    "appeals:appeal-new": director_writes(slug, lambda w: at_the_round_board(w, participant=1, claim="x")),
    "appeals:appeal": Page(COMMITTEE_OR_DIRECTOR, kwargs=appeal),
    "appeals:appeal-form": Page(COMMITTEE_OR_DIRECTOR, kwargs=appeal),
    # Committee members may only sign (test_committee_members_may_only_sign); directors do every step.
    "appeals:appeal-action": Page(
        COMMITTEE_OR_DIRECTOR,
        "P",
        writes_as=COMMITTEE,
        kwargs=lambda w: {"slug": w.slug, "number": w.decided, "action": "sign"},
        post=lambda w: {"member": w.member},
    ),
    "appeals:ruling-new": director_writes(slug, lambda w: at_the_round_board(w, kind="wrong_hand", table=1)),
    "appeals:ruling": director_writes(
        lambda w: {"slug": w.slug, "pk": w.ruling}, lambda w: {"action": "dismiss", "ruling": "x"}
    ),
    "appeals:correction-new": director_writes(
        slug, lambda w: at_the_round_board(w, kind="entry", table=1, description="x")
    ),
    "appeals:correction": director_writes(
        lambda w: {"slug": w.slug, "pk": w.correction}, lambda w: {"action": "refuse", "note": "x"}
    ),
    "appeals:audit": Page(DIRECTOR_ONLY, kwargs=slug),
    "appeals:settings": director_writes(
        slug, lambda w: {"action": "member", "name": "Intruder", "username": "nobody"}
    ),
    "appeals:player": Page(PLAYER_LOGIN, "GP", kwargs=slug, post=garbage),
    "appeals:player-appeal": Page(
        PLAYER_ONLY, "GP", kwargs=appeal, post=lambda w: {"action": "withdraw"}, writes_as=PLAYER
    ),
    "appeals:player-logout": Page(PUBLIC, "P", kwargs=slug),
}
