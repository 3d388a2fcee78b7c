"""Several rooms (seed 004 §2 and §5 procedure 2; formats.md §2.1 ``room``).

Seed 004 §2 «Подготовка раскладов»: «При игре в нескольких комнатах … полагается скопировать игранную сдачу в
аналогичные коробки, передающиеся затем в другие комнаты, чтобы там играли на тех же раскладах» — every room plays
the same boards (the same layouts); §5, procedure 2: «Разбить игроков на несколько комнат с простым числом столов».
The shared format (formats.md §2.1) draws the consequence: the rooms are one field, a board-line's comparison group
holds the rows of every room. A row is identified by (room, board, table, round): table 1 of room 1 and table 1 of
room 2 both play board 1 in round 1, and neither row is «a second result» of the other.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from events.bundles import import_bundle, tournament_to_bundle
from preferans.bundle.document import BundleInvalid, parse_bundle, parse_bundle_collect
from preferans.duplicate.session_scoring import score_document
from scoring.errors import ResultConflict
from scoring.models import Result, Standing
from scoring.rescore import rescore_tournament
from scoring.row_command import PlayedRow, RowCommand, RowPlace
from scoring.rows import result_save
from tests.scoring.rooms_fixture import movement_json, played, tricks_at, two_rooms
from tournaments.models import Seating, Table, Tournament

NOW = timezone.now()


def problems(data: dict[str, Any]) -> list[str]:
    return [str(p) for p in parse_bundle_collect(data).problems]


def by_place(out: dict[str, Any], data: dict[str, Any]) -> dict[tuple[int, int, int, int], dict[str, Any]]:
    """score_bundle's results (input order) keyed by the input rows' (room, board, table, round)."""
    rows = data["sessions"][0]["results"]
    return {
        (row.get("room", 1), row["board"], row["table"], row["round"]): res
        for row, res in zip(rows, out["sessions"][0]["results"], strict=True)
    }


# -- rooms are one field ----------------------------------------------------------------------------------------


def test_rule_2_rooms_are_one_field() -> None:
    """Seed §2 «чтобы там играли на тех же раскладах» / §5 procedure 2: every room plays the same boards, and a
    board's line is compared over the rows of every room (one field): 6 rows, top 2·(6 − 1) = 10, and each row's
    matchpoints count the rows of the other room too."""
    data = two_rooms()
    out = score_document(data)
    results = by_place(out, data)
    rows = data["sessions"][0]["results"]
    for board in range(1, 7):
        mine = [(key, res) for key, res in results.items() if key[1] == board]
        assert sorted(key[0] for key, _res in mine) == [1, 1, 1, 2, 2, 2]
        for seat in ("N", "E", "S", "W"):
            line = [Fraction(res["vists"][seat]) for _key, res in mine]
            for _key, res in mine:
                own = Fraction(res["vists"][seat])
                # 2 for each row beaten, 1 for each other row tied, whatever its room
                expected = 2 * sum(v < own for v in line) + sum(v == own for v in line) - 1
                assert Fraction(res["matchpoints"][seat]) == expected
                assert res["top"][seat] == "10"
    # the output names the room of a room-2 row, as the input does
    assert [r.get("room", 1) for r in rows] == [r.get("room", 1) for r in out["sessions"][0]["results"]]
    # standings: everybody played 6 boards against the whole field: max 6 · 10 = 60
    assert {s["max"] for s in out["standings"]} == {"60"}


def test_rule_2_room_two_beats_room_one_on_the_board() -> None:
    """Seed §2: a row of room 2 earns its matchpoints against room 1's rows of the board. Board 1 made with two
    overtricks in room 2 only: its declarer tops the line (10 of 10), which he could not do in his room alone."""
    data = two_rooms()
    for row in data["sessions"][0]["results"]:
        if row["board"] == 1:
            row.update(played(1, 8 if (row.get("room", 1), row["table"]) == (2, 1) else 6))
    results = by_place(score_document(data), data)
    declarer = data["sessions"][0]["results"][0]["declarer"][0]
    top_row = next(res for key, res in results.items() if key[:3] == (2, 1, 1))
    assert top_row["matchpoints"][declarer] == "10" and top_row["top"][declarer] == "10"
    others = [
        res["matchpoints"][declarer] for key, res in results.items() if key[1] == 1 and key[:3] != (2, 1, 1)
    ]
    assert others == ["4"] * 5  # five equal rows share places 2–6: 2·0 + 4 ties = 4


# -- formats.md §2.1: the room keys a row, on every channel -----------------------------------------------------


def _bundle_channel(room_of_second: int) -> str:
    data = two_rooms()
    rows = data["sessions"][0]["results"]
    first = rows[0]
    twin = next(
        r
        for r in rows
        if r.get("room", 1) == 2
        and (r["board"], r["table"], r["round"]) == (first["board"], first["table"], first["round"])
    )
    if room_of_second == 1:
        twin.pop("room")
        twin["seats"] = first["seats"]
    found = problems(data)
    if not found:
        return "stored"
    assert any("a second result for the same board, table and round" in p for p in found), found
    return "refused"


def _write_path(room_of_second: int) -> str:
    session = import_bundle(now=NOW, data=two_rooms(results=False)).sessions.get()
    result_save(
        RowCommand(RowPlace(session=session, board=1, round=1, table=1, room=1), PlayedRow(row=played(1, 6))),
        now=NOW,
    )
    try:
        result_save(
            RowCommand(
                RowPlace(session=session, board=1, round=1, table=1, room=room_of_second),
                PlayedRow(row=played(1, 7)),
            ),
            now=NOW,
        )
    except ResultConflict:
        return "refused"
    return "stored"


def _api(room_of_second: int) -> str:
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    t = import_bundle(now=NOW, data=two_rooms(results=False))
    user = get_user_model().objects.create_user("rooms-director", password="pw-rooms-1")
    t.directors.add(user)
    session = t.sessions.get()
    c = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    c.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    body = {"session": session.pk, "board": 1, "round": 1, "table": 1, **played(1, 6)}
    assert c.post("/api/results/", body, format="json").status_code == 201
    answer = c.post("/api/results/", {**body, "room": room_of_second, **played(1, 7)}, format="json")
    if answer.status_code == 201:
        assert answer.json()["room"] == room_of_second
        return "stored"
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "conflict"
    return "refused"


@pytest.mark.django_db
@pytest.mark.parametrize("channel", [_bundle_channel, _write_path, _api], ids=["bundle", "write path", "api"])
@pytest.mark.parametrize(("room_of_second", "outcome"), [(2, "stored"), (1, "refused")])
def test_formats_2_1_room_keys_a_row(channel, room_of_second: int, outcome: str) -> None:
    """formats.md §2.1 (seed §2, §5 procedure 2): «A row is identified by (room, board, table, round)». Board 1 at
    table 1 in round 1 is stored once in each room; a second row in the same room is refused."""
    assert channel(room_of_second) == outcome


@pytest.mark.django_db
def test_formats_2_1_room_keys_an_idempotent_replay() -> None:
    """A client's key names one row: sent again for table 1 of room 2 it is another row, and is refused."""
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    t = import_bundle(now=NOW, data=two_rooms(results=False))
    user = get_user_model().objects.create_user("rooms-director", password="pw-rooms-1")
    t.directors.add(user)
    c = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    c.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    body = {"session": t.sessions.get().pk, "board": 1, "round": 1, "table": 1, **played(1, 6)}
    assert c.post("/api/results/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1").status_code == 201
    again = c.post("/api/results/", {**body, "room": 2}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert again.status_code == 409 and again.json()["error"]["code"] == "idempotency_key_reused"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"room": 0}, "session 1, board 1, table 1, round 1: room must be a positive integer, not 0"),
        ({"room": "2"}, "session 1, board 1, table 1, round 1: room must be a positive integer, not '2'"),
        (
            {"room": 3},
            "session 1, board 1, room 3, table 1, round 1: room 3 is not in the movement — it has 2 rooms",
        ),
        (
            {"room": 2, "table": 4},
            "session 1, board 1, room 2, table 4, round 1: the movement seats no room 2, table 4",
        ),
        ({"round": 4}, "session 1, board 1, table 1, round 4: the movement seats no table 1 in round 4"),
    ],
)
def test_formats_2_1_room_is_a_room_of_the_movement(change: dict[str, Any], message: str) -> None:
    """formats.md §2 / §2.1: ``room`` is an integer ≥ 1, default 1, and «every result must fit [the movement]
    (its tables, rounds and rooms exist in the movement), or the bundle is refused»."""
    data = two_rooms()
    data["sessions"][0]["results"][0].update(change)
    assert any(p.startswith(message) for p in problems(data)), problems(data)


def test_formats_2_1_room_defaults_to_1_and_is_written_only_when_not_1() -> None:
    data = two_rooms()
    bundle = parse_bundle(data)
    assert Counter(r.room for r in bundle.sessions[0].results) == {1: 18, 2: 18}
    from preferans.bundle.document import bundle_to_dict

    written = bundle_to_dict(bundle)["sessions"][0]["results"]
    assert [r.get("room") for r in written] == [r.get("room") for r in data["sessions"][0]["results"]]
    assert "room" not in written[0] and written[-1]["room"] == 2
    assert parse_bundle(bundle_to_dict(bundle)) == bundle


def test_formats_4_a_movement_with_rooms_pastes_into_a_bundle() -> None:
    """formats.md §4: what the ``movement`` command prints (``rooms``, a ``room`` on every table, ``properties``,
    ``explanation``) is an explicit movement a bundle accepts as it is."""
    data = two_rooms()
    data["sessions"][0]["movement"] = {**movement_json(), "scheme": "explicit", "explanation": ["two rooms"]}
    assert problems(data) == []
    data["sessions"][0]["movement"]["rounds"][0]["tables"][0]["room"] = 0
    assert any("room must be a positive integer" in p for p in problems(data))


# -- the database: rescore, commands -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_rule_2_rescore_with_both_rooms_at_the_same_board_table_and_round() -> None:
    """Seed §2: the two rooms' tables 1 enter board 1 in round 1; the rescore scores them as one field (it used
    to fail with «a second result for the same board, table and round» and leave the standings stale)."""
    t = import_bundle(now=NOW, data=two_rooms(results=False))
    session = t.sessions.get()
    assert sorted(Table.objects.filter(session=session).values_list("room", "number")) == [
        (1, 1),
        (1, 2),
        (1, 3),
        (2, 1),
        (2, 2),
        (2, 3),
    ]
    result_save(
        RowCommand(RowPlace(session=session, board=1, round=1, table=1, room=1), PlayedRow(row=played(1, 6))),
        now=NOW,
    )
    result_save(
        RowCommand(RowPlace(session=session, board=1, round=1, table=1, room=2), PlayedRow(row=played(1, 8))),
        now=NOW,
    )
    rescore_tournament(tournament_id=t.pk)
    one, two = Result.objects.get(room=1), Result.objects.get(room=2)
    declarer = played(1, 6)["declarer"][0]
    assert (one.matchpoints[declarer], two.matchpoints[declarer]) == ("0", "2")
    assert one.top[declarer] == two.top[declarer] == "2"
    winner = getattr(
        Seating.objects.get(session=session, room=2, round_number=1, table_number=1),
        f"seat_{declarer.lower()}",
    )
    assert Standing.objects.get(tournament=t, participant=winner).matchpoints == "2"
    assert Standing.objects.filter(tournament=t).count() == 24


def _command(name: str, *args: str) -> str:
    out = io.StringIO()
    call_command(name, *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.mark.django_db
def test_rule_2_score_import_rescore_and_export_agree_on_two_rooms(tmp_path: Path) -> None:
    """One field across rooms on every path: ``score_bundle`` (pure), ``import_bundle`` + ``rescore`` (the
    database), and ``export_bundle`` → ``score_bundle`` give the same matchpoints and standings."""
    data = two_rooms()
    path = tmp_path / "two_rooms.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    pure = json.loads(_command("score_bundle", str(path)))

    slug = _command("import_bundle", str(path)).strip().splitlines()[-1]
    _command("rescore", slug)
    t = Tournament.objects.get(slug=slug)
    stored = {
        (r.room, r.board_number, r.table_number, r.round_number): (r.matchpoints, r.top)
        for r in Result.objects.filter(session__tournament=t)
    }
    assert {key: (res["matchpoints"], res["top"]) for key, res in by_place(pure, data).items()} == stored
    standings = [
        (s.participant.number, s.matchpoints, s.max, s.percent, s.rank)
        for s in Standing.objects.filter(tournament=t).order_by("position").select_related("participant")
    ]
    assert standings == [
        (s["participant"], s["matchpoints"], s["max"], s["percent"], s["rank"]) for s in pure["standings"]
    ]

    exported = tmp_path / "export.json"
    _command("export_bundle", slug, str(exported))
    back = json.loads(exported.read_text(encoding="utf-8"))
    assert Counter(r.get("room", 1) for r in back["sessions"][0]["results"]) == {1: 18, 2: 18}
    assert json.loads(_command("score_bundle", str(exported))) == pure
    assert tournament_to_bundle(t)["sessions"][0]["movement"] == data["sessions"][0]["movement"]


def test_rule_2_tricks_differ_between_the_rooms() -> None:
    """The fixture itself: the two rooms' rows of a board differ, so a per-room comparison would give other
    numbers than the one-field comparison checked above."""
    assert {tricks_at(1, 1, 1), tricks_at(2, 1, 1)} == {4, 7}
    with pytest.raises(BundleInvalid):
        parse_bundle({**two_rooms(), "sessions": [{"number": 1, "results": [{"board": 1, "room": 0}]}]})


@pytest.mark.django_db
def test_formats_2_1_a_conflict_in_room_2_names_the_room() -> None:
    """A second row for table 1 of room 2 is refused with words that name the room, in Russian and English."""
    from django.utils import translation

    session = import_bundle(now=NOW, data=two_rooms(results=False)).sessions.get()
    result_save(
        RowCommand(RowPlace(session=session, board=1, round=1, table=1, room=2), PlayedRow(row=played(1, 6))),
        now=NOW,
    )
    for language, words in (("ru", "за столом 1 зала 2 в туре 1"), ("en", "at table 1 of room 2 in round 1")):
        with translation.override(language), pytest.raises(ResultConflict) as refused:
            result_save(
                RowCommand(
                    RowPlace(session=session, board=1, round=1, table=1, room=2), PlayedRow(row=played(1, 7))
                ),
                now=NOW,
            )
        assert words in refused.value.message


@pytest.mark.django_db
def test_formats_2_1_the_api_lists_the_rows_of_one_room() -> None:
    """``GET /api/results/?room=2`` lists room 2's rows only; every row says its room."""
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    t = import_bundle(now=NOW, data=two_rooms())
    user = get_user_model().objects.create_user("rooms-director", password="pw-rooms-1")
    t.directors.add(user)
    c = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    c.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    answer = c.get("/api/results/", {"room": 2, "board": 1, "page_size": 100}).json()
    rows = answer["results"] if isinstance(answer, dict) else answer
    assert len(rows) == 3 and {r["room"] for r in rows} == {2}


@pytest.mark.django_db
def test_formats_4_an_explicit_movement_with_rooms_seats_both_rooms_on_import() -> None:
    """The ``movement`` command's output pasted as the explicit movement of a bundle: ``import_bundle`` seats both
    rooms, each with its tables 1…3, and scores the rows as the short form does."""
    data = two_rooms()
    data["sessions"][0]["movement"] = {**movement_json(), "scheme": "explicit"}
    t = import_bundle(now=NOW, data=data)
    session = t.sessions.get()
    assert sorted(Table.objects.filter(session=session).values_list("room", "number")) == [
        (1, 1),
        (1, 2),
        (1, 3),
        (2, 1),
        (2, 2),
        (2, 3),
    ]
    assert session.seatings.filter(room=2).count() == 9
    short = score_document(two_rooms())
    assert [
        (s.participant.number, s.matchpoints)
        for s in Standing.objects.filter(tournament=t).order_by("position").select_related("participant")
    ] == [(s["participant"], s["matchpoints"]) for s in short["standings"]]


@pytest.mark.django_db
def test_rule_11_6_a_board_played_in_another_room_names_that_room() -> None:
    """§11.6 (a player repeats a board) across rooms: the refusal names the other room's table, in Russian."""
    from django.utils import translation

    from tournaments.refusals import ResultRejected

    session = import_bundle(now=NOW, data=two_rooms(results=False)).sessions.get()
    result_save(
        RowCommand(RowPlace(session=session, board=1, round=1, table=1, room=2), PlayedRow(row=played(1, 6))),
        now=NOW,
    )
    there = Seating.objects.get(session=session, room=2, round_number=1, table_number=1)
    here = Seating.objects.get(session=session, room=1, round_number=2, set_number=1)
    seats = {seat: p.number for seat, p in here.seats().items()} | {"N": there.seat_n.number}
    with translation.override("ru"), pytest.raises(ResultRejected) as refused:
        result_save(
            RowCommand(
                RowPlace(session=session, board=1, round=2, table=here.table_number, room=1, seats=seats),
                PlayedRow(row=played(1, 6)),
            ),
            now=NOW,
        )
    assert refused.value.refusals[0].code == "board_played_twice"
    assert f"Участник {there.seat_n.number} уже играл сдачу 1 (стол 1 зала 2, тур 1)" in refused.value.message
