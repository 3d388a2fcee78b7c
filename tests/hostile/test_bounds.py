"""Issue 18: every number and text that enters has a bound, checked once in the service layer, and a parser
that refuses size and depth before it works. One test per finding; each failed on the code before the fix."""

from __future__ import annotations

import copy
import json
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from appeals.form_fields import RowField
from appeals.forms import CommentForm
from events.participants import participant_save
from preferans.bundle.bounds import LONG_TEXT_MAX, strip_controls
from preferans.bundle.document import BundleInvalid, load_json, parse_bundle
from preferans.numbers import NumberFormatError, parse_fraction
from tests import golden
from tests.api.helpers import client_for, event  # noqa: F401
from tests.hostile.xlsx_bomb import many_rows_xlsx
from tests.table.factory import legal_row
from tournaments.errors import UserError
from tournaments.models import Participant
from tournaments.participant_file import read_participants_file, read_rows
from ui.fields import JSONObjectField

pytestmark = pytest.mark.django_db
BUNDLE = json.loads(golden.text("small_bundle.json"))


def bundle(**changes):
    data = copy.deepcopy(BUNDLE)
    for path, value in changes.items():
        node = data
        keys = path.split("__")
        for key in keys[:-1]:
            node = node[int(key)] if key.isdigit() else node[key]
        node[int(keys[-1]) if keys[-1].isdigit() else keys[-1]] = value
    return data


# -- participant numbers: the director's form, the service, the import preview ----------------------------


@pytest.mark.parametrize("number", ["2147483648", str(10**30), "10000"])
def test_the_director_form_refuses_a_number_past_9999(tournament, dclient, number):
    url = reverse("director:participants", kwargs={"slug": tournament.slug})
    response = dclient.post(url, {"number": number, "name": "Огромный"})
    assert response.status_code == 200 and "9999" in response.content.decode()
    assert not Participant.objects.filter(name="Огромный").exists()


def test_the_service_refuses_a_number_past_9999_and_strips_control_characters(tournament, director):
    with pytest.raises(UserError, match="1 to 9999"):
        participant_save(
            tournament=tournament, user=director, number=2147483648, name="X", now=timezone.now()
        )
    p = participant_save(
        tournament=tournament,
        user=director,
        number=9999,
        name="Ива\x00нов\tИван\u202e",
        club="Со\x07чи",
        now=timezone.now(),
    )
    assert (p.name, p.club) == ("Иванов Иван", "Сочи")


def test_the_import_preview_refuses_huge_and_endless_numbers(tournament):
    content = f"2147483648;Первый\n9999;Третий\n{'9' * 5000};Второй\n".encode()
    preview = read_participants_file(filename="a.csv", content=content)
    assert [bool(line.errors) for line in preview.lines] == [True, False, True]
    assert "9999" in preview.lines[0].errors[0] and len(preview.lines[2].errors[0]) < 200


def test_the_import_refuses_a_club_too_long_instead_of_cutting_it(tournament):
    preview = read_participants_file(filename="a.csv", content=f"1;Иванов;{'К' * 201}\n".encode())
    assert preview.lines[0].errors == ("the club is longer than 200 characters",)


def test_a_large_movement_page_is_never_built_from_a_huge_number(tournament, dclient):
    """The movement page counted up to the largest number (set(range(1, n + 1))): killed at 23 GB."""
    dclient.post(
        reverse("director:participants", kwargs={"slug": tournament.slug}),
        {"number": "2147483648", "name": "Огромный"},
    )
    assert max(tournament.participants.values_list("number", flat=True)) <= 9999


# -- uploads ----------------------------------------------------------------------------------------------


def test_an_upload_over_2_mb_is_refused_with_the_bound(tournament, dclient):
    url = reverse("director:participants_import", kwargs={"slug": tournament.slug})
    big = ("1;Иванов Иван;Клуб\n" * 120_000).encode()  # about 2.6 MB
    response = dclient.post(url, {"file": SimpleUploadedFile("big.csv", big)})
    assert response.status_code == 200 and "2 МБ" in response.content.decode()
    with pytest.raises(UserError, match="2 (MB|МБ)"):
        read_rows(filename="big.csv", content=big)


def test_an_xlsx_of_a_million_rows_is_refused_at_once():
    """158 KB zipped, a million rows: before, every row was parsed (over a minute) before the 2,000-row check."""
    content = many_rows_xlsx(1_000_000)
    started = time.monotonic()
    with pytest.raises(UserError, match="MB"):
        read_rows(filename="many.xlsx", content=content)
    assert time.monotonic() - started < 5


# -- the rules field --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [("[" * 100_000 + "]" * 100_000, "20 levels"), ('{"whist_price": ' + "9" * 5000 + "}", "30 digits")],
)
def test_the_rules_field_refuses_deep_json_and_endless_numbers(text, message):
    field = JSONObjectField(max_length=1_000_000)
    with pytest.raises(Exception, match=message):
        field.clean(text)


def test_the_tournament_settings_page_answers_deep_rules_with_a_message(tournament, dclient):
    url = reverse("director:settings", kwargs={"slug": tournament.slug})
    response = dclient.post(url, {"name": "X", "variant": "sochi", "rules": "[" * 5000 + "]" * 5000})
    assert response.status_code == 200 and "20 уровней" in response.content.decode()


# -- the API ----------------------------------------------------------------------------------------------


def _error(response, status, code):
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["error"]["code"] == code and body["error"]["message"]
    return body["error"]["message"]


def test_the_api_refuses_deep_json_before_decoding_it(event):  # noqa: F811
    body = '{"board": ' + "[" * 100_000 + "]" * 100_000 + "}"
    response = client_for("player1").generic("POST", "/api/results/", body, content_type="application/json")
    assert "20" in _error(response, 400, "parse_error")


def test_the_api_refuses_a_5000_digit_number(event):  # noqa: F811
    body = '{"board": ' + "9" * 5000 + "}"
    response = client_for("player1").generic("POST", "/api/results/", body, content_type="application/json")
    assert "longer than 30 digits" in _error(response, 400, "parse_error")


@pytest.mark.parametrize("kind", ["application/json", "application/x-www-form-urlencoded"])
def test_the_api_answers_a_too_large_body_in_its_own_shape(event, kind):  # noqa: F811
    body = (
        '{"board": 1, "x": "' + "a" * 3_000_000 + '"}'
        if kind == "application/json"
        else "a=" + "b" * 3_000_000
    )
    response = client_for("player1").generic("POST", "/api/results/", body, content_type=kind)
    _error(response, 413, "too_large")


def test_the_api_refuses_out_of_range_integers(event, director):  # noqa: F811
    c = client_for("director", director=director)
    for field, value in (
        ("session", 2**40),
        ("table", 501),
        ("round", 1000),
        ("board", 10000),
        ("room", 100),
    ):
        body = {"session": 1, "round": 1, "table": 1, "board": 1, **legal_row(4, "N"), field: value}
        response = c.post("/api/results/", body, format="json")
        assert response.status_code == 400, (field, response.content[:200])
        assert response.json()["error"]["details"][0] == {
            "field": field,
            "code": "max_value",
            "message": response.json()["error"]["details"][0]["message"],
        }


# -- the bundle -------------------------------------------------------------------------------------------


def test_a_bundle_nested_past_20_levels_is_refused():
    with pytest.raises(BundleInvalid, match="20 levels"):
        load_json('{"format": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(BundleInvalid, match="20 levels"):
        parse_bundle(bundle(tournament__rules={"x": json.loads("[" * 30 + "]" * 30)}))


def test_a_bundle_number_of_5000_digits_is_refused():
    with pytest.raises(BundleInvalid, match="30 digits"):
        load_json('{"version": ' + "9" * 5000 + "}")
    with pytest.raises(NumberFormatError, match="30 digits"):
        parse_fraction("9" * 5000)


def test_a_movement_of_a_million_tables_is_refused_at_once():
    started = time.monotonic()
    with pytest.raises(BundleInvalid, match="at most 500"):
        parse_bundle(bundle(sessions__0__movement={"scheme": "basic", "tables": 1_000_000}))
    assert time.monotonic() - started < 2


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"participants__0__name": "И" * 201}, "longer than 200"),
        ({"tournament__name": "x" * 201}, "longer than 200"),
        ({"participants__0__name": "Иванов\x07"}, "control character"),
        ({"participants__0__number": 2**40}, "at most 9999"),
        ({"sessions__0__results__0__table": 2**40}, "at most 500"),
        ({"sessions__0__results__0__board": 10**5}, "at most 9999"),
        (
            {"sessions__0__penalties": [{"participant": 1, "matchpoints": "-1", "reason": "x" * 1001}]},
            "longer than 1000",
        ),
    ],
)
def test_the_bundle_refuses_values_past_its_bounds(change, message):
    with pytest.raises(BundleInvalid, match=message):
        parse_bundle(bundle(**change))


# -- appeals and control characters -----------------------------------------------------------------------


def test_appeal_texts_are_bounded_with_a_message():
    form = CommentForm(data={"comment": "я" * (LONG_TEXT_MAX + 1)})
    assert not form.is_valid() and str(LONG_TEXT_MAX) in str(form.errors["comment"])
    form = CommentForm(data={"comment": "строка\r\nдругая\x07\x1b"})
    assert form.is_valid() and form.cleaned_data["comment"] == "строка\nдругая"


def test_an_appeal_row_nested_deep_is_refused_not_crashed():
    with pytest.raises(Exception, match="nested too deep"):
        RowField(required=False).clean("[" * 100_000 + "]" * 100_000)


def test_one_helper_strips_control_characters():
    assert strip_controls("a\tb\nc\x00d\u202ee") == "a b cde"
    assert strip_controls("a\r\nb\x07", lines=True) == "a\nb"


def test_a_huge_stored_number_does_not_build_the_range_up_to_it(db, director):
    """A number stored before the bounds (or by hand in the database) must not make the movement page build
    ``set(range(1, number + 1))``: the gaps are named from the numbers themselves."""
    from django.utils import timezone

    from duplicate.rounds import registered_count
    from tournaments.errors import UserError
    from tournaments.models import Participant
    from tournaments.services.event import tournament_create

    t = tournament_create(name="Huge", user=director, slug="huge", now=timezone.now())
    Participant.objects.bulk_create([Participant(tournament=t, number=n, name=f"P{n}") for n in (1, 2, 4)])
    Participant.objects.create(
        tournament=t, number=2_147_483_647, name="Huge"
    )  # bypasses the services' bounds
    with pytest.raises(UserError) as caught:
        registered_count(t)
    assert "3, 5, 6, 7, 8, 9, 10, 11, 12, 13…" in caught.value.message
