"""Events for the results tests: the demo (4-player, one session running) and a finished 3-player event with
two sessions, an assigned and an artificial result and penalties."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.utils import timezone

from demo.duplicate_event import demo_bundle
from events.bundles import import_bundle
from preferans.cards.board_form import board_to_dict
from preferans.cards.deal import deal_boards
from preferans.game import make_rules
from preferans.game.simulate import random_row
from preferans.movements import build_movement
from tests.publishing import end_every_round, publish_to
from tournaments.models import Publication, Session, Tournament


def three_player_bundle(seed: int = 7) -> dict[str, Any]:
    """15 participants on 5 three-player tables, basic movement, two sessions fully played."""
    rng = random.Random(seed)
    players, per_set = 3, 3
    spec = {"scheme": "basic", "tables": 5}
    movement = build_movement(spec, per_table=players, deals_per_set=per_set)
    rules = make_rules("leningrad")
    sessions = []
    for number in (1, 2):
        boards = deal_boards(rng, sets=movement.sets, per_set=per_set, players=players)
        dealer_of = {b.number: b.dealer.value for b in boards}
        results: list[dict[str, Any]] = []
        for rnd, ta in movement.seatings():
            seats = {line.value: p for line, p in ta.seats}
            for board in movement.boards_of_set(ta.set):
                row = random_row(rng, rules=rules, players=players, dealer=dealer_of[board])
                results.append(
                    {"board": board, "round": rnd.number, "table": ta.table, "seats": seats, **row}
                )
        if number == 1:
            r = results[4]
            results[4] = {k: r[k] for k in ("board", "round", "table", "seats")} | {
                "adjusted": {"N": "A+", "E": "A-", "S": "A"}
            }
        else:
            r = results[7]
            results[7] = {k: r[k] for k in ("board", "round", "table", "seats")} | {
                "assigned": {"N": "10", "E": "-4", "S": "-6"}
            }
        sessions.append(
            {
                "number": number,
                "movement": spec,
                "boards": [board_to_dict(b) for b in boards],
                "results": results,
                "penalties": [{"participant": 3 + number, "matchpoints": "-3", "reason": "12.2.1 lateness"}],
            }
        )
    return {
        "format": "duplicate-preferans-bundle",
        "version": 1,
        "tournament": {
            "name": "Three Cup",
            "variant": "leningrad",
            "players_per_table": players,
            "deals_per_set": per_set,
            "rules": {},
            "scoring": {"unequal_results": "neuberg", "artificial": {"A-": 40, "A": 50, "A+": 60}},
        },
        "participants": [{"number": n, "name": f"Player {n}", "club": "Club"} for n in range(1, 16)],
        "sessions": sessions,
    }


@pytest.fixture
def demo(db, director) -> Tournament:
    t = import_bundle(data=demo_bundle(), user=director, slug="demo", now=timezone.now())
    Session.objects.filter(tournament=t).update(status=Session.Status.RUNNING)
    return publish_to(t, Publication.PROVISIONAL, director, timezone.now())


@pytest.fixture
def three(db, director) -> Tournament:
    now = timezone.now()
    t = import_bundle(data=three_player_bundle(), user=director, slug="three", now=now)
    t.language = "en"
    t.save(update_fields=["language"])
    end_every_round(t, director, now)  # both sessions played: the director ended their rounds
    return publish_to(t, Publication.OFFICIAL, director, now)


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    """Generated files go to a temporary folder, not the project's media/."""
    settings.MEDIA_ROOT = tmp_path / "media"
