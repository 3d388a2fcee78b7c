"""Seeding ratings for a new club (issue 28): «Рассадить первый тур по рейтингу» seeds by a rating, and a new club
must be able to give one. A person's federation or club rating (declared, kept apart from the computed one), the
rating column of the participants list and of the register's file (one header rule for both), and the order the
seeding reads the ratings in. The book (004 Part III, «Игроки с самым высоким рейтингом занимают первый стол»)
does not say whose rating seeds the first round: every rule below is the software's choice, named so."""

from __future__ import annotations

import datetime as dt
import io
import json
from decimal import Decimal
from fractions import Fraction as F

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook

from events.bundles import BundleInvalid, export_bundle, import_bundle
from events.participants import participants_import
from players.models import Person, RatingEntry
from players.services.ratings import register_ratings, seeding_ratings
from players.services.register import merge, person_save
from players.services.register_file import apply_import, plan_import, read_file
from pulkas.models import PulkaRound
from tests.html import english_phrases, visible_text
from tests.publishing import played_event, publish_to
from tests.pulkas.factory import pulka_event
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Publication, Tournament
from tournaments.participant_columns import HEADERS, ROLES, header_role
from tournaments.participant_file import ImportLine, preview_rows, read_participants_file

pytestmark = pytest.mark.django_db
NOW = dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC)
RU = {"Accept-Language": "ru"}
EN = {"Accept-Language": "en"}


@pytest.fixture
def staff(client):
    user = get_user_model().objects.create_user("staff", password="x", is_staff=True)
    client.force_login(user)
    return user


def xlsx(rows):
    wb = Workbook()
    for row in rows:
        wb.active.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


# -- 1. a person's declared rating -------------------------------------------------------------------------------
def test_the_person_form_keeps_a_federation_or_club_rating_apart_from_the_computed_one(client, staff):
    """Software's choice: a declared rating is a number from 0 to 4000 with at most two decimals, with its source
    as text; it is the person's own field, never a RatingEntry (the computed rating's history)."""
    url = reverse("players:register_new")
    form = {"name": "Иванов Иван", "declared_rating": "1650,5", "declared_rating_source": "ФСП, 01.12.2026"}
    page = client.post(url, form, headers=RU)
    assert page.status_code == 302, visible_text(page.content)
    person = Person.objects.get()
    assert (person.declared_rating, person.declared_rating_source) == (Decimal("1650.5"), "ФСП, 01.12.2026")
    assert not RatingEntry.objects.exists()  # kept apart from the computed rating
    edit = client.get(reverse("players:register_person", args=[person.pk]), headers=RU)
    text = visible_text(edit.content)
    assert "Рейтинг федерации или клуба" in text and "Источник рейтинга" in text
    assert english_phrases(text, person.name) == []
    public = visible_text(client.get(reverse("players:person", args=[person.pk]), headers=RU).content)
    assert "Рейтинг федерации или клуба: 1650,5" in public and "ФСП, 01.12.2026" in public
    for bad in ("4000,01", "-1", "много", "1" * 30):
        page = client.post(
            reverse("players:register_person", args=[person.pk]), {**form, "declared_rating": bad}
        )
        assert page.status_code == 200 and "declared_rating" in page.context["form"].errors
    person.refresh_from_db()
    assert person.declared_rating == Decimal("1650.5")  # nothing half-saved
    with pytest.raises(UserError) as caught:  # the service bounds it too, whatever channel calls it
        person_save(person=person, name="Иванов Иван", declared_rating=Decimal(4001), user=staff)
    assert "4000" in caught.value.message
    person_save(
        person=person, name="Иванов Иван", declared_rating=None, declared_rating_source="x", user=staff
    )
    person.refresh_from_db()
    assert (person.declared_rating, person.declared_rating_source) == (None, "")  # no source without a rating


# -- 2. the participants list's rating column ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("header", "role"),
    [
        ("Рейтинг", "rating"),
        ("Рейтинг федерации или клуба", "rating"),
        ("рейтинг клуба", "rating"),
        ("Rating", "rating"),
        ("Club rating", "rating"),
        ("Federation rating", "rating"),
        ("Рейтинг-лист ID", "federation_id"),  # the rating list's number is still the federation number
        ("Город", "club"),  # a participant has one club field, often a city
    ],
)
def test_the_participants_list_recognises_the_rating_column_in_russian_and_english(header, role):
    """Software's choice: a rating is read by its header (or the director's choice), never by position."""
    assert header_role(header) == role


def test_the_preview_shows_the_rating_and_names_a_bad_one():
    content = "№;ФИО;Клуб;Рейтинг\n1;Иванов;Сочи;1 650\n2;Петров;;1600,25\n3;Сидоров;;4500\n4;Орлов;;\n5;Ким;;１６００\n"
    preview = read_participants_file(filename="a.csv", content=content.encode())
    assert preview.mapping == ("number", "name", "club", "rating")
    assert [(line.name, line.rating, line.ok) for line in preview.lines] == [
        ("Иванов", "1650", True),
        ("Петров", "1600.25", True),
        ("Сидоров", "", False),
        ("Орлов", "", True),
        ("Ким", "", False),  # digits of another script are refused, not guessed
    ]
    assert "4500" in preview.lines[2].errors[0]
    # Without a header a fifth column is not taken for a rating (number, name, club, federation id only).
    plain = preview_rows([(1, ["1", "Иванов", "Сочи", "F-1", "1650"])])
    assert plain.mapping == ("number", "name", "club", "federation_id", "")


def test_the_import_gives_the_rating_to_the_linked_person_and_keeps_it_on_the_participant(client, director):
    """Software's choice: the list's rating is kept on the participant (this event's list) and, when he is linked
    to a person of the register (by federation number), replaces that person's declared rating, the event's name
    as the source; audited in the event's log."""
    known = Person.objects.create(name="Иванов Иван", federation_id="F-1", declared_rating=Decimal(1400))
    t = pulka_event(director, "compensation", 0, 3, name="Клубный вечер", now=NOW)
    # He is of the register's staff too: the person the register holds is linked at once, not only proposed
    # (issue 29; a stranger's list never writes a person's rating: tests/hostile/test_register_links.py).
    director.is_staff = True
    director.save(update_fields=["is_staff"])
    client.force_login(director)
    url = reverse("director:participants_import", kwargs={"slug": t.slug})
    content = "ФИО;Номер ФСП;Рейтинг\nИванов Иван;F-1;1650\nПетров Пётр;;1600\nСидоров;;\n"
    page = client.post(url, {"file": SimpleUploadedFile("список.csv", content.encode("cp1251"))}, headers=RU)
    text = visible_text(page.content)
    assert "Рейтинг федерации или клуба" in text and "1650" in text and "1600" in text
    assert english_phrases(text, t.name) == []
    assert client.post(url, {"confirm": "1"}, headers=RU).status_code == 302
    got = list(
        t.participants.order_by("number").values_list("name", "declared_rating", "person__federation_id")
    )
    assert got == [
        ("Иванов Иван", Decimal(1650), "F-1"),
        ("Петров Пётр", Decimal(1600), None),
        ("Сидоров", None, None),
    ]
    known.refresh_from_db()
    assert (known.declared_rating, known.declared_rating_source) == (Decimal(1650), "Клубный вечер")
    entry = AuditEntry.objects.get(tournament=t, action="persons.rating")
    assert entry.data == {"numbers": [1]}


# -- 3. the register's import reads by headers, as the participants list does -------------------------------------
REFUSED = [  # a club's list as it was refused: «Клуб» read by position as the federation number
    ["№", "Фамилия Имя Отчество", "Город", "Клуб", "Рейтинг"],
    [1, "Иванов Иван Иванович", "Сочи", "Спартак", 1650],
    [2, "Петров Пётр", "Сочи", "Спартак", 1600.5],
    [3, "Сидоров Сидор", "Адлер", "Динамо", None],
]


def test_the_file_that_was_refused_is_read_by_its_headers():
    """«Клуб» is the club, not the federation number; «№» is nobody's federation number; the rating is read."""
    plan = plan_import(read_file(filename="клуб.xlsx", content=xlsx(REFUSED)))
    assert [(p.name, p.club, p.city, p.federation_id, p.rating, p.action) for p in plan] == [
        ("Иванов Иван Иванович", "Спартак", "Сочи", "", "1650", "new"),
        ("Петров Пётр", "Спартак", "Сочи", "", "1600.5", "new"),
        ("Сидоров Сидор", "Динамо", "Адлер", "", "", "new"),
    ]
    assert apply_import([p.to_list() for p in plan], user=None) == {"new": 3, "update": 0, "same": 0}
    assert sorted(Person.objects.values_list("name", "club", "city", "federation_id", "declared_rating")) == [
        ("Иванов Иван Иванович", "Спартак", "Сочи", "", Decimal(1650)),
        ("Петров Пётр", "Спартак", "Сочи", "", Decimal("1600.5")),
        ("Сидоров Сидор", "Динамо", "Адлер", "", None),
    ]


def test_one_header_rule_for_the_participants_list_and_the_register():
    """Every header the participants list knows means the same in the register's file, but «Город», which the
    register keeps apart (a person has a club and a city) and the list reads as the club."""
    from players.services.register_file import ROLES as REGISTER_ROLES

    for role, names in HEADERS.items():
        for name in names:
            in_list, in_register = header_role(name, ROLES), header_role(name, REGISTER_ROLES)
            if role == "city":
                assert (in_list, in_register) == ("club", "city"), name
            else:
                assert in_list == (role if role in ROLES else None), name
                assert in_register == (role if role in REGISTER_ROLES else None), name


def test_a_bad_rating_refuses_the_register_file_naming_row_and_column():
    rows = [["ФИО", "Клуб", "Рейтинг"], ["Иванов", "", "1650"], ["Петров", "", "4001"]]
    with pytest.raises(UserError) as caught:
        plan_import(read_file(filename="a.xlsx", content=xlsx(rows)))
    assert caught.value.message.startswith("Row 3, column «federation or club rating»: ")
    assert not Person.objects.exists()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_register_export_carries_the_rating_and_imports_unchanged(client, staff, lang):
    """Software's choice: a row without a rating leaves the person's as it is (a file never erases a rating)."""
    Person.objects.create(
        name="A", federation_id="1", declared_rating=Decimal("1700.5"), declared_rating_source="ФСП"
    )
    Person.objects.create(name="B", federation_id="2")
    body = client.get(
        reverse("players:register_export", args=["csv"]), headers={"Accept-Language": lang}
    ).content
    plan = plan_import(read_file(filename="r.csv", content=body))
    assert [(p.name, p.rating, p.rating_source, p.action) for p in plan] == [
        ("A", "1700.5", "ФСП", "same"),
        ("B", "", "", "same"),
    ]
    apply_import([p.to_list() for p in plan_import([(1, ["A", "", "", "1", "", ""])])], user=staff)
    assert Person.objects.get(name="A").declared_rating == Decimal("1700.5")
    apply_import([p.to_list() for p in plan_import([(1, ["A", "", "", "1", "1710", "клуб"])])], user=staff)
    a = Person.objects.get(name="A")
    assert (a.declared_rating, a.declared_rating_source) == (Decimal(1710), "клуб")


def test_the_register_import_page_previews_the_rating(client, staff):
    upload = io.BytesIO(xlsx(REFUSED))
    upload.name = "клуб.xlsx"
    page = client.post(reverse("players:register_import"), {"file": upload}, headers=RU)
    text = visible_text(page.content)
    assert page.status_code == 200 and "Спартак" in text and "1600,50" in text
    assert "Рейтинг федерации или клуба" in text and english_phrases(text) == []


# -- 4. «Рассадить первый тур по рейтингу» ---------------------------------------------------------------------------
def test_a_new_club_with_imported_ratings_is_seeded_by_them(client, director):
    """«Игроки с самым высоким рейтингом занимают первый стол» (004 Part III): a new club, nobody ever rated by the
    register, imports its list with its own ratings; the director seats the first round by rating and table 1
    gets the three highest of the list."""
    t = pulka_event(director, "compensation", 0, 3, name="Новый клуб", now=NOW)
    client.force_login(director)
    url = reverse("director:participants_import", kwargs={"slug": t.slug})
    ratings = {
        "Алексеев": 1510,
        "Борисова": 1720,
        "Воронцов": 1490,
        "Григорьева": 1800,
        "Дмитриев": 1650,
        "Егорова": 1300,
    }
    content = "ФИО;Клуб;Рейтинг клуба\n" + "".join(f"{n};Клуб;{r}\n" for n, r in ratings.items())
    client.post(url, {"file": SimpleUploadedFile("список.csv", content.encode())}, headers=RU)
    assert client.post(url, {"confirm": "1"}, headers=RU).status_code == 302
    assert not RatingEntry.objects.exists() and not t.participants.filter(person__isnull=False).exists()
    draw = reverse("director:pulka_draw", kwargs={"slug": t.slug})
    client.post(draw, {"number": 1, "seed": 5, "by_rating": "on"}, headers=RU)
    drawn = PulkaRound.objects.get(tournament=t, number=1)
    tables = [
        sorted(p.name for p in (tb.seat_n, tb.seat_e, tb.seat_s)) for tb in drawn.tables.order_by("number")
    ]
    assert drawn.drawn_by == "rating"
    assert tables == [["Борисова", "Григорьева", "Дмитриев"], ["Алексеев", "Воронцов", "Егорова"]]


def test_the_seeding_rating_is_the_list_then_the_declared_then_the_computed_then_1500(director):
    """Software's choice, the order the seeding reads a player's rating in: the rating of the event's participants
    list, else his person's declared (federation or club) rating, else his rating computed across events, else the
    starting 1500."""
    declared = Person.objects.create(name="D", federation_id="D", declared_rating=Decimal("1600.5"))
    computed = Person.objects.create(name="C", federation_id="C")
    both = Person.objects.create(name="B", federation_id="B", declared_rating=Decimal(1450))
    old = publish_to(
        played_event(director, slug="old", starts_on=dt.date(2026, 11, 1), now=NOW - dt.timedelta(hours=3)),
        Publication.FINAL,
        director,
        NOW,
    )
    for person, after in ((computed, "1540"), (both, "1700")):
        RatingEntry.objects.create(
            person=person,
            tournament=old,
            before="1500",
            after=after,
            played_on=dt.date(2026, 11, 1),
            computed_at=NOW,
        )
    t = pulka_event(director, "compensation", 3, 4, name="Сеанс", persons=[declared, computed, both], now=NOW)
    lines = [ImportLine(1, 4, "Из списка", rating="1900"), ImportLine(2, 5, "Новичок")]
    participants_import(tournament=t, lines=lines, user=director, now=NOW)
    got = seeding_ratings(t.participants.all())
    assert {p.number: got[p.pk] for p in t.participants.all()} == {
        1: (F(3201, 2), "declared"),
        2: (F(1540), "computed"),
        3: (F(1450), "declared"),  # a declared rating comes before a computed one
        4: (F(1900), "list"),
        5: (F(1500), "start"),
    }
    assert register_ratings(t.participants.all()) == {pk: rating for pk, (rating, _s) in got.items()}


def test_a_rating_saved_from_an_older_page_does_not_overwrite_a_newer_one(client, staff):
    """Concurrent edits do not silently overwrite: two pages of one person opened, the second save is refused."""
    person = Person.objects.create(name="Иванов", declared_rating=Decimal(1500))
    url = reverse("players:register_person", args=[person.pk])
    seen = client.get(url).context["form"].initial["seen"]
    form = {"name": "Иванов", "seen": seen}
    assert client.post(url, {**form, "declared_rating": "1600"}, headers=RU).status_code == 302
    page = client.post(url, {**form, "declared_rating": "1700"}, headers=RU)
    assert page.status_code == 200 and "Кто-то другой уже изменил эту персону" in visible_text(page.content)
    person.refresh_from_db()
    assert person.declared_rating == Decimal(1600)


def test_a_merge_keeps_the_duplicates_rating_when_the_person_who_stays_has_none(director):
    """Software's choice: the declared rating goes with the person who stays, as the federation number does."""
    keep = Person.objects.create(name="Иванов")
    drop = Person.objects.create(
        name="Иванов И.", declared_rating=Decimal(1620), declared_rating_source="клуб"
    )
    merge(keep=keep, drop=drop, user=None, reason="один человек", now=NOW)
    keep.refresh_from_db()
    assert (keep.declared_rating, keep.declared_rating_source) == (Decimal(1620), "клуб")


def test_the_director_types_a_participants_rating_and_it_reaches_his_person(client, director):
    """The participant's form has the rating as the list has: bounded, audited, given to his linked person."""
    person = Person.objects.create(name="Иванов", federation_id="F-7")
    t = pulka_event(director, "compensation", 1, 3, name="Вечер", persons=[person], now=NOW)
    client.force_login(director)
    url = reverse("director:participant", args=[t.slug, 1])
    form = {"number": 1, "name": "Иванов", "club": "", "federation_id": "F-7"}
    page = client.post(url, {**form, "declared_rating": "5000"}, headers=RU)
    assert page.status_code == 200 and "declared_rating" in page.context["form"].errors
    assert client.post(url, {**form, "declared_rating": "1725,5"}, headers=RU).status_code == 302
    participant = t.participants.get()
    person.refresh_from_db()
    assert participant.declared_rating == person.declared_rating == Decimal("1725.5")
    entry = AuditEntry.objects.filter(tournament=t, action="participant.update").latest("pk")
    assert (entry.data["before"]["rating"], entry.data["after"]["rating"]) == ("", "1725.5")
    listing = visible_text(client.get(reverse("director:participants", args=[t.slug]), headers=RU).content)
    assert "1725,5" in listing and english_phrases(listing, t.name) == []


def test_a_club_column_wins_over_a_city_read_as_the_club():
    """Software's choice: in a participants list with «Город» and «Клуб», the club is «Клуб» (the city is read as
    the club only when no column is the club)."""
    content = "№;ФИО;Город;Клуб\n1;Иванов;Сочи;Спартак\n".encode()
    preview = read_participants_file(filename="a.csv", content=content)
    assert preview.mapping == ("number", "name", "", "club")
    assert preview.lines[0].club == "Спартак"
    only_city = read_participants_file(filename="a.csv", content="ФИО;Город\nИванов;Сочи\n".encode())
    assert only_city.mapping == ("name", "club")


def test_a_bundle_carries_the_lists_ratings_exactly(director):
    """A backup or an exported event keeps each participant's rating (formats.md §2 «rating»: an integer or a
    decimal string, never a JSON number with decimals); a bad one refuses the bundle and saves nothing."""
    t = pulka_event(director, "compensation", 0, 3, name="Клуб", now=NOW)
    lines = [
        ImportLine(1, 1, "А", rating="1650"),
        ImportLine(2, 2, "Б", rating="1600.5"),
        ImportLine(3, 3, "В"),
    ]
    participants_import(tournament=t, lines=lines, user=director, now=NOW)
    data = json.loads(json.dumps(export_bundle(t)))
    assert [p.get("rating") for p in data["participants"]] == [1650, "1600.5", None]
    copy = import_bundle(data=data, now=NOW, slug="copy")
    assert list(copy.participants.order_by("number").values_list("declared_rating", flat=True)) == [
        Decimal(1650),
        Decimal("1600.5"),
        None,
    ]
    for bad in (1600.5, "4000.01", "1,5", True, "-1", "1650\n", "１６５０"):
        broken = json.loads(json.dumps(data))
        broken["participants"][0]["rating"] = bad
        with pytest.raises(BundleInvalid, match="rating must be a number from 0 to 4000"):
            import_bundle(data=broken, now=NOW, slug="broken")
    assert not Tournament.objects.filter(slug="broken").exists()
