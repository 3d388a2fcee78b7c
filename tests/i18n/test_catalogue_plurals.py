"""Every Russian catalogue entry counts with Django's plural forms and speaks of a player without a gender.

A number put into a sentence next to a noun it counts needs ngettext / ``blocktranslate count``: one Russian
string cannot say «1 тур», «2 тура» and «5 туров» (nor English «1 round» and «2 rounds»). Every plural entry has
the three Russian forms, and each, with n = 1, 2, 5 and 21, passes tests/plurals.py. A past-tense verb right
after a placeholder takes the player's gender («%(name)s подтвердил»), which the product does not know.
"""

from __future__ import annotations

import re

import pytest

from tests.i18n.catalogues import Entry, all_entries, in_use
from tests.plurals import (
    ENGLISH,
    FORM_OF,
    LABELS,
    category,
    english_wrong_forms,
    gendered_past,
    plural_labels,
    wrong_forms,
)

ENTRIES = in_use(all_entries())  # the entries the code still says
PLACEHOLDER = re.compile(r"%\((?P<name>[a-z_0-9]+)\)[sd]|%[sd]|\{[a-z_0-9]*\}")
FOLLOWED = re.compile(
    r"(?P<before>[A-Za-zА-Яа-яЁё№#]+)?[\s\xa0]*(?:%\([a-z_0-9]+\)[sd]|%[sd]|\{[a-z_0-9]*\})"
    r"[\s\xa0]+(?:[а-яё]+(?:ых|их|ые|ие|ого|его|ой)[\s\xa0]+)?"  # «%(m)s неверных попыток»
    r"(?P<noun>[A-Za-zА-Яа-яЁё]+)"
)
ENGLISH_NOUNS = {form for pair in ENGLISH.values() for form in pair}
ENGLISH_LABELS = {sg for sg, _ in ENGLISH.values()} | {"no"}
SAMPLES = (1, 2, 5, 21)
# Plural form index of a sample in Russian (nplurals=3: one, few, many).
INDEX = {"one": 0, "few": 1, "many": 2}


def counted(text: str, nouns: set[str], labels: set[str]) -> list[str]:
    """«%(n)s участников»: a placeholder followed by a noun it counts (not «стол %(t)s тура», a label)."""
    out = []
    for m in FOLLOWED.finditer(text):
        noun, before = m.group("noun").lower(), (m.group("before") or "").lower()
        if noun in nouns and before not in labels:
            out.append(m.group(0))
    return out


# Numbers that take one plural category only, by the rules: the same Russian form is right for each of them.
BOUNDED = {
    "At a %(n)s-player table the hands of board %(b)s are in other pockets.": "3 or 4 players a table (§1)",
    "%(n)s players per table": "3 or 4 (§1): «3 игрока», «4 игрока»",
    "The movement is for tables of %(movement)s players, the tournament for tables of %(tournament)s.": "3 or 4",
    "%(level)s tricks": "a contract's level, 6 to 10: «6 взяток» … «10 взяток»",
    # «для %(seats)s результат аннулирован»: the noun begins the next clause, the seats are named
    "Play completed with a wrong hand: the non-offenders keep their result (it did not depend on the opponents' "
    "play); the result is annulled for %(seats)s, who get the artificial result A- (40 %% of the top; a side "
    "partly at fault: A, 50 %%) (§11.3 C with §11.2 B1: the book does not say what an annulled offender gets; "
    "this is the software's reading).": "not a count",
    "Play completed with a wrong hand: the non-offenders keep their result (it did not depend on the opponents' "
    "play); the result is annulled for %(seats)s, who get the least favourable result: 0 %% of the top (a side "
    "partly at fault: the average) (§11.3 C, §11.2 B2).": "not a count",
}


def test_a_counted_placeholder_takes_plural_forms() -> None:
    """«%(n)s участников» in a plain entry is wrong for n = 1, 2, 21: it must be a plural entry. (A label form,
    «участников: %(n)s», fits every number.)"""
    problems = []
    for entry in ENTRIES:
        if entry.plural or not entry.fields.get("msgstr") or entry.msgid in BOUNDED:
            continue
        found = counted(entry.fields["msgstr"], set(FORM_OF), LABELS)
        if found:
            problems.append(f"{entry.where()}: {found}")
    assert not problems, "\n".join(problems)


def test_every_entry_of_this_part_is_said_by_the_code() -> None:
    """The plural forms written for issue 30 are the ones the code asks for (no msgid typed differently)."""
    ours = [e for e in all_entries() if e.path.parts[-4] == "plurals"]
    assert len(ours) > 40
    used = {id(e) for e in in_use(ours)}
    assert [e.msgid for e in ours if id(e) not in used] == []


def counters(entry: Entry) -> tuple[set[str], bool]:
    """The placeholders the plural counts — those next to a word that changes between the English singular and
    plural («%(n)s round» / «%(n)s rounds») — and whether they label a list («table %(t)s» / «tables %(t)s»)."""
    one, many = entry.msgid.split(), entry.fields["msgid_plural"].split()
    names, listed = set(), False
    if len(one) == len(many):
        for i, (a, b) in enumerate(zip(one, many, strict=True)):
            if a == b:
                continue
            for j in (i - 1, i + 1):  # «%(n)s round» counts; else «table %(t)s» labels a list
                if j == i - 1 and (a[0] in "(«" or one[j][-1] in ",.:;)»"):
                    continue  # «round %(n)s (table %(t)s)»: %(n)s belongs to «round»
                m = PLACEHOLDER.fullmatch(one[j].strip("(),.:;«»")) if 0 <= j < len(one) else None
                if m and m.group("name"):
                    names.add(m.group("name"))
                    listed = listed or j == i + 1
                    break
    return names, listed


def fill(text: str, n: int | str, names: set[str]) -> str:
    """The counted placeholders as ``n``, any other as 7 (a count of its own is then checked as «many»)."""
    return PLACEHOLDER.sub(lambda m: str(n) if not names or m.group("name") in names else "7", text)


def test_every_plural_entry_has_three_right_forms() -> None:
    plurals = [e for e in ENTRIES if e.plural]
    assert len(plurals) > 40
    problems = []
    for entry in plurals:
        forms = entry.forms()
        # three forms (the main catalogue keeps Django's fourth, for fractions, after them)
        if len(forms) not in (3, 4) or not all(forms):
            problems.append(f"{entry.where()}: {len(forms)} forms")
            continue
        names, listed = counters(entry)
        if listed:  # a list's label: one item takes the singular, several the plural (tournaments.numbers)
            for form, items in ((forms[0], "3"), (forms[1], "3, 5"), (forms[2], "3, 5")):
                found = plural_labels(fill(form, items, names)) + wrong_forms(fill(form, items, names))
                problems += [f"{entry.where()} list {items}: {f}" for f in found]
            continue
        for n in SAMPLES:
            ru = fill(forms[INDEX[category(n)]], n, names)
            en = fill(entry.msgid if n == 1 else entry.fields["msgid_plural"], n, names)
            found = wrong_forms(ru) + plural_labels(ru) + english_wrong_forms(en)
            problems += [f"{entry.where()} n={n}: {f}" for f in found]
    assert not problems, "\n".join(problems)


def test_no_past_tense_after_a_name() -> None:
    problems = []
    for entry in ENTRIES:
        for key, text in entry.fields.items():
            if key.startswith("msgstr"):
                problems += [f"{entry.where()}: {f}" for f in gendered_past(text)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("Предлагается для 21 участников", "21 участников"),
        ("2 туры", "2 туры"),
        ("4 игроков за столом", "4 игроков"),
        ("5 тура", "5 тура"),
        ("12 тура", "12 тура"),
        ("21 минут", "21 минут"),
        ("за 1 столами", "1 столами"),
        ("заблокирован после 21 неверных попыток", "21 попыток"),
    ],
)
def test_the_checker_finds_a_wrong_form(text: str, bad: str) -> None:
    assert [f.phrase for f in wrong_forms(text)] == [bad]


@pytest.mark.parametrize(
    "text",
    [
        "1 тур, 2 тура, 5 туров, 11 туров, 21 тур, 22 тура, 25 туров",
        "в 2 турах, из 21 тура, по 5 сдач, не хватает 2 результатов",
        "Стол 5 тура 2 · сдача 3 тура 1",
        "туры 1–3, столы 2 и 5, столы 1, 2, 3; 1,5 минуты; 2-й тур",
    ],
)
def test_the_checker_accepts_right_forms(text: str) -> None:
    assert wrong_forms(text) + plural_labels(text) == []


def test_the_checker_finds_a_plural_label_and_a_gender() -> None:
    assert [f.phrase for f in plural_labels("Введите результаты тура 2 (столы 2).")] == ["столы 2"]
    assert [f.phrase for f in gendered_past("%(name)s подтвердил сдачи")] == ["%(name)s подтвердил"]
    assert gendered_past("%(name)s: подтверждены сдачи %(boards)s") == []
    assert [f.phrase for f in gendered_past("%(p)s дисквалифицирован.")] == ["%(p)s дисквалифицирован"]
    assert gendered_past("Участник %(p)s не играл; карта %(card)s записана") == []
    assert [f.phrase for f in english_wrong_forms("for 1 participants at 2 table")] == [
        "1 participants",
        "2 table",
    ]
