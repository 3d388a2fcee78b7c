"""A pure checker of the plural forms and the grammatical gender of the Russian (and English) words on a page.

Russian counts a noun by the last digits of the number: 1, 21, 101 take the singular («1 тур», «21 игрок»);
2–4, 22–24 the genitive singular («2 тура»); 0, 5–20, 25–30 … the genitive plural («5 туров»); 11–14 always
the genitive plural («11 туров», «12 туров»). In an oblique case («в 2 турах», «из 21 тура») the number keeps
the case of the phrase, so only the forms that are wrong in every case are reported: a plural after 1 or 21, a
nominative or a singular case other than the genitive after 2–4, any singular after 5–20.

``wrong_forms(text)`` reports «<number> <noun>» that disagree; ``plural_labels(text)`` reports a plural noun
that labels a single number («столы 2», «за столами 2»: a list of one, or a count written as a label);
``english_wrong_forms(text)`` does the same for English («1 tables», «2 table»).
``gendered_past(text)`` reports a placeholder (``%(name)s``, ``{name}``) followed by a past-tense verb, which
takes the person's gender («%(name)s подтвердил»): the product does not know the gender of its players.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Each noun the product counts: its singular and plural in the six cases (nominative, genitive, dative,
# accusative, instrumental, prepositional). Animate nouns have the genitive as their accusative.
NOUNS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "тур": (
        ("тур", "тура", "туру", "тур", "туром", "туре"),
        ("туры", "туров", "турам", "туры", "турами", "турах"),
    ),
    "игрок": (
        ("игрок", "игрока", "игроку", "игрока", "игроком", "игроке"),
        ("игроки", "игроков", "игрокам", "игроков", "игроками", "игроках"),
    ),
    "участник": (
        ("участник", "участника", "участнику", "участника", "участником", "участнике"),
        ("участники", "участников", "участникам", "участников", "участниками", "участниках"),
    ),
    "стол": (
        ("стол", "стола", "столу", "стол", "столом", "столе"),
        ("столы", "столов", "столам", "столы", "столами", "столах"),
    ),
    "сдача": (
        ("сдача", "сдачи", "сдаче", "сдачу", "сдачей", "сдаче"),
        ("сдачи", "сдач", "сдачам", "сдачи", "сдачами", "сдачах"),
    ),
    "раздача": (
        ("раздача", "раздачи", "раздаче", "раздачу", "раздачей", "раздаче"),
        ("раздачи", "раздач", "раздачам", "раздачи", "раздачами", "раздачах"),
    ),
    "минута": (
        ("минута", "минуты", "минуте", "минуту", "минутой", "минуте"),
        ("минуты", "минут", "минутам", "минуты", "минутами", "минутах"),
    ),
    "секунда": (
        ("секунда", "секунды", "секунде", "секунду", "секундой", "секунде"),
        ("секунды", "секунд", "секундам", "секунды", "секундами", "секундах"),
    ),
    "час": (
        ("час", "часа", "часу", "час", "часом", "часе"),
        ("часы", "часов", "часам", "часы", "часами", "часах"),
    ),
    "день": (
        ("день", "дня", "дню", "день", "днём", "дне"),
        ("дни", "дней", "дням", "дни", "днями", "днях"),
    ),
    "место": (
        ("место", "места", "месту", "место", "местом", "месте"),
        ("места", "мест", "местам", "места", "местами", "местах"),
    ),
    "очко": (
        ("очко", "очка", "очку", "очко", "очком", "очке"),
        ("очки", "очков", "очкам", "очки", "очками", "очках"),
    ),
    "вист": (
        ("вист", "виста", "висту", "вист", "вистом", "висте"),
        ("висты", "вистов", "вистам", "висты", "вистами", "вистах"),
    ),
    "комплект": (
        ("комплект", "комплекта", "комплекту", "комплект", "комплектом", "комплекте"),
        ("комплекты", "комплектов", "комплектам", "комплекты", "комплектами", "комплектах"),
    ),
    "пулька": (
        ("пулька", "пульки", "пульке", "пульку", "пулькой", "пульке"),
        ("пульки", "пулек", "пулькам", "пульки", "пульками", "пульках"),
    ),
    "партия": (
        ("партия", "партии", "партии", "партию", "партией", "партии"),
        ("партии", "партий", "партиям", "партии", "партиями", "партиях"),
    ),
    "круг": (
        ("круг", "круга", "кругу", "круг", "кругом", "круге"),
        ("круги", "кругов", "кругам", "круги", "кругами", "кругах"),
    ),
    "пара": (
        ("пара", "пары", "паре", "пару", "парой", "паре"),
        ("пары", "пар", "парам", "пары", "парами", "парах"),
    ),
    "взятка": (
        ("взятка", "взятки", "взятке", "взятку", "взяткой", "взятке"),
        ("взятки", "взяток", "взяткам", "взятки", "взятками", "взятках"),
    ),
    "балл": (
        ("балл", "балла", "баллу", "балл", "баллом", "балле"),
        ("баллы", "баллов", "баллам", "баллы", "баллами", "баллах"),
    ),
    "матчбалл": (
        ("матчбалл", "матчбалла", "матчбаллу", "матчбалл", "матчбаллом", "матчбалле"),
        ("матчбаллы", "матчбаллов", "матчбаллам", "матчбаллы", "матчбаллами", "матчбаллах"),
    ),
    "штраф": (
        ("штраф", "штрафа", "штрафу", "штраф", "штрафом", "штрафе"),
        ("штрафы", "штрафов", "штрафам", "штрафы", "штрафами", "штрафах"),
    ),
    "результат": (
        ("результат", "результата", "результату", "результат", "результатом", "результате"),
        ("результаты", "результатов", "результатам", "результаты", "результатами", "результатах"),
    ),
    "карта": (
        ("карта", "карты", "карте", "карту", "картой", "карте"),
        ("карты", "карт", "картам", "карты", "картами", "картах"),
    ),
    "раз": (
        ("раз", "раза", "разу", "раз", "разом", "разе"),
        ("разы", "раз", "разам", "разы", "разами", "разах"),
    ),
    "турнир": (
        ("турнир", "турнира", "турниру", "турнир", "турниром", "турнире"),
        ("турниры", "турниров", "турнирам", "турниры", "турнирами", "турнирах"),
    ),
    "сессия": (
        ("сессия", "сессии", "сессии", "сессию", "сессией", "сессии"),
        ("сессии", "сессий", "сессиям", "сессии", "сессиями", "сессиях"),
    ),
    "апелляция": (
        ("апелляция", "апелляции", "апелляции", "апелляцию", "апелляцией", "апелляции"),
        ("апелляции", "апелляций", "апелляциям", "апелляции", "апелляциями", "апелляциях"),
    ),
    "голос": (
        ("голос", "голоса", "голосу", "голос", "голосом", "голосе"),
        ("голоса", "голосов", "голосам", "голоса", "голосами", "голосах"),
    ),
    "строка": (
        ("строка", "строки", "строке", "строку", "строкой", "строке"),
        ("строки", "строк", "строкам", "строки", "строками", "строках"),
    ),
    "знак": (
        ("знак", "знака", "знаку", "знак", "знаком", "знаке"),
        ("знаки", "знаков", "знакам", "знаки", "знаками", "знаках"),
    ),
    "символ": (
        ("символ", "символа", "символу", "символ", "символом", "символе"),
        ("символы", "символов", "символам", "символы", "символами", "символах"),
    ),
    "цифра": (
        ("цифра", "цифры", "цифре", "цифру", "цифрой", "цифре"),
        ("цифры", "цифр", "цифрам", "цифры", "цифрами", "цифрах"),
    ),
    "уровень": (
        ("уровень", "уровня", "уровню", "уровень", "уровнем", "уровне"),
        ("уровни", "уровней", "уровням", "уровни", "уровнями", "уровнях"),
    ),
    "член": (
        ("член", "члена", "члену", "члена", "членом", "члене"),
        ("члены", "членов", "членам", "членов", "членами", "членах"),
    ),
    "попытка": (
        ("попытка", "попытки", "попытке", "попытку", "попыткой", "попытке"),
        ("попытки", "попыток", "попыткам", "попытки", "попытками", "попытках"),
    ),
    "зал": (
        ("зал", "зала", "залу", "зал", "залом", "зале"),
        ("залы", "залов", "залам", "залы", "залами", "залах"),
    ),
    "исправление": (
        ("исправление", "исправления", "исправлению", "исправление", "исправлением", "исправлении"),
        ("исправления", "исправлений", "исправлениям", "исправления", "исправлениями", "исправлениях"),
    ),
    "решение": (
        ("решение", "решения", "решению", "решение", "решением", "решении"),
        ("решения", "решений", "решениям", "решения", "решениями", "решениях"),
    ),
    "предложение": (
        ("предложение", "предложения", "предложению", "предложение", "предложением", "предложении"),
        ("предложения", "предложений", "предложениям", "предложения", "предложениями", "предложениях"),
    ),
    "значение": (
        ("значение", "значения", "значению", "значение", "значением", "значении"),
        ("значения", "значений", "значениям", "значения", "значениями", "значениях"),
    ),
}

# English nouns the product counts: singular and plural.
ENGLISH = {
    w: (w, w + "s")
    for w in [
        "round",
        "table",
        "player",
        "participant",
        "board",
        "deal",
        "minute",
        "second",
        "hour",
        "day",
        "point",
        "whist",
        "set",
        "pulka",
        "pair",
        "trick",
        "result",
        "card",
        "event",
        "session",
        "appeal",
        "line",
        "row",
        "character",
        "digit",
        "level",
        "member",
        "attempt",
        "room",
        "correction",
        "ruling",
        "proposal",
        "value",
        "vote",
        "seat",
    ]
}

ONE, FEW, MANY = "one", "few", "many"


def category(n: int) -> str:
    """Russian plural category of a whole number (CLDR: one / few / many)."""
    if n % 10 == 1 and n % 100 != 11:
        return ONE
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return FEW
    return MANY


def _wrong_after() -> dict[str, dict[str, set[str]]]:
    """For each category, the forms that are wrong after a number of it, by noun."""
    out: dict[str, dict[str, set[str]]] = {ONE: {}, FEW: {}, MANY: {}}
    for lemma, (sg, pl) in NOUNS.items():
        every = set(sg) | set(pl)
        oblique_pl = {pl[1], pl[2], pl[4], pl[5]}  # genitive (also the animate accusative), dative, …
        out[ONE][lemma] = set(pl) - set(sg)
        out[FEW][lemma] = every - ({sg[1]} | oblique_pl)
        out[MANY][lemma] = every - oblique_pl
    return out


WRONG = _wrong_after()
FORM_OF = {form: lemma for lemma, (sg, pl) in NOUNS.items() for form in (*sg, *pl)}
SINGULAR = {form for sg, _ in NOUNS.values() for form in sg}
PLURAL_ONLY = {form for _, pl in NOUNS.values() for form in pl} - SINGULAR
# A number right after one of these words is a label («стол 5», «№ 3»), not a count of the next noun.
LABELS = set(FORM_OF) | {"№", "#", "номер", "номера", "номером", "n", "e", "s", "w"}

WORD = r"[A-Za-zА-Яа-яЁё]+"
# A whole number (not a decimal, not the first of a range «1–5», not an ordinal «2-й»).
ADJECTIVE = r"[а-яё]+(?:ых|их|ые|ие|ого|его|ой)"  # plural or oblique: «21 неверных попыток»
NUMBER = re.compile(
    rf"(?<![\d.,])(?P<n>\d{{1,6}})(?!\d|[.,]\d|\s?[–—-])[\s\xa0]+(?:{ADJECTIVE}[\s\xa0]+)?(?P<noun>[A-Za-zА-Яа-яЁё]+)"
)
LABEL = re.compile(
    r"(?<![\w-])(?P<noun>[А-Яа-яЁё]+)[\s\xa0]+(?P<n>\d{1,6})(?![\dA-Za-zА-Яа-яЁё]|\s+\d|[.,]\d|\s?[–—-]\s?\d|\s?,\s?\d|\s+и\s+\d)"
)
# After a preposition or a word that governs a case («из 21 тура», «в 2 турах», «не хватает 2 результатов»)
# any case of the right number is allowed; elsewhere the number is the subject or the object («2 тура»).
GOVERNORS = set(
    [
        "в",
        "во",
        "на",
        "о",
        "об",
        "при",
        "по",
        "к",
        "ко",
        "с",
        "со",
        "за",
        "над",
        "под",
        "перед",
        "между",
        "из",
        "для",
        "до",
        "от",
        "у",
        "без",
        "после",
        "кроме",
        "среди",
        "вместо",
        "около",
        "свыше",
        "более",
        "менее",
        "больше",
        "меньше",
        "нет",
        "хватает",
        "не",
        "всего",
        "лишь",
        "только",
        "через",
        "каждые",
        "каждый",
        "примерно",
        "почти",
        "зарегистрировать",
        "разыграть",
        "выдать",
        "позже",
        "позднее",
        "раньше",
        "длиннее",
        "короче",
        "дольше",
        "течение",
    ]
)


@dataclass(frozen=True)
class Finding:
    phrase: str
    why: str
    context: str

    def __str__(self) -> str:
        return f"«{self.phrase}» ({self.why}) in «{self.context}»"


def _context(text: str, start: int, end: int) -> str:
    return " ".join(text[max(0, start - 40) : end + 40].split())


def _word_before(text: str, at: int) -> str:
    m = re.search(r"([A-Za-zА-Яа-яЁё№#]+)[\s\xa0]*$", text[max(0, at - 40) : at])
    return m.group(1).lower() if m else ""


def _strict(lemma: str, cat: str) -> set[str]:
    """The forms that count the noun as a subject or an object: «1 тур», «2 тура», «5 туров»."""
    sg, pl = NOUNS[lemma]
    return {ONE: {sg[0], sg[3]}, FEW: {sg[1], sg[3]} if sg[3] == pl[1] else {sg[1]}, MANY: {pl[1]}}[cat]


def wrong_forms(text: str) -> list[Finding]:
    """Every «<number> <Russian noun>» whose form is wrong for the number."""
    out = []
    for m in NUMBER.finditer(text):
        noun = m.group("noun").lower()
        lemma = FORM_OF.get(noun)
        if lemma is None or m.group("noun")[0].isupper():
            continue  # «… 21 Сдачи»: a capital begins a heading or a cell, not a counted noun
        if re.match(r"[\s\xa0]+\d", text[m.end() :]):
            continue  # «14 тур 1 · стол 2»: the noun labels the number after it
        before = _word_before(text, m.start())
        if before in LABELS:
            continue  # «стол 5 тура 2»: 5 numbers the table
        n = int(m.group("n"))
        cat = category(n)
        wrong = noun in WRONG[cat][lemma] if before in GOVERNORS else noun not in _strict(lemma, cat)
        if wrong:
            phrase = f"{m.group('n')} {m.group('noun')}"
            out.append(Finding(phrase, f"{n} is «{cat}»", _context(text, m.start("n"), m.end())))
    return out


def plural_labels(text: str) -> list[Finding]:
    """A plural noun that labels one number («столы 2», «за столами 2»): the label of a list of one."""
    out = []
    for m in LABEL.finditer(text):
        noun = m.group("noun").lower()
        after = re.match(r"[\s\xa0]+([А-Яа-яЁё]+)", text[m.end() :])
        if after and after.group(1).lower() in FORM_OF:
            continue  # «в турах 2 стола»: the number counts the next noun
        if noun in PLURAL_ONLY:
            phrase = f"{m.group('noun')} {m.group('n')}"
            out.append(Finding(phrase, "a plural before one number", _context(text, m.start(), m.end())))
    return out


ENGLISH_NUMBER = re.compile(r"(?<![\d,.:/–—-])(?P<n>\d{1,6})(?![\d,.:/–—-])[\s\xa0]+(?P<noun>[A-Za-z]+)\b")


def english_wrong_forms(text: str) -> list[Finding]:
    """«1 tables» or «2 table» in English."""
    out = []
    singular = {sg for sg, _ in ENGLISH.values()}
    plural = {pl for _, pl in ENGLISH.values()}
    for m in ENGLISH_NUMBER.finditer(text):
        noun, n = m.group("noun").lower(), int(m.group("n"))
        start = m.start()
        before = text[max(0, start - 12) : start].split()
        if m.group("noun")[0].isupper() or re.match(r"[\s\xa0]+\d", text[m.end() :]):
            continue  # «2 Round 1.1»: a heading; «4 round 1 · table 2»: the noun labels the number after it
        if text[max(0, start - 1) : start] == "§" or (before and before[-1][:1].isupper()):
            continue  # «§10 ruling»; «Игрок 1 deals first», «Table 2 rounds»: the number belongs to a label
        if before and before[-1].lower().strip("(") in {s for s in singular} | {"no.", "#"}:
            continue  # «table 2 rounds»: 2 labels the table
        if (n == 1 and noun in plural) or (n != 1 and noun in singular and noun + "s" in plural):
            out.append(Finding(m.group(0), "English number", _context(text, m.start(), m.end())))
    return out


# A past-tense verb takes the gender of its subject: «подтвердил» / «подтвердила».
PAST = re.compile(r"^[а-яё]+(?:л|ла|ло|ли|ёл|ёс)(?:ся|сь)?(?:\(а\))?$")
# A short passive participle takes the gender too: «%(p)s дисквалифицирован», «%(p)s отстранён».
PARTICIPLE = re.compile(r"^[а-яё]{4,}(?:ован|ён|ен|ан|ян)$")
PERSONS = {"name", "names", "p", "player", "who", "person", "participant", "member"}  # placeholders of people
NOT_VERBS = {
    "стол",
    "зал",
    "балл",
    "матчбалл",
    "угол",
    "пол",
    "символ",
    "протокол",
    "финал",
    "интервал",
    "сигнал",
    "или",
    "числа",
    "была",
    "было",
    "были",
    "пулька",
    "стола",
    "зала",
    "балла",
    "числе",
    "нуль",
    "итого",
    "много",
    "мало",
    "ещё",
}
PLACEHOLDER_THEN_WORD = re.compile(
    r"(?P<before>[А-Яа-яЁё]+)?[\s\xa0]*(%\((?P<a>[a-z_0-9]+)\)[sd]|\{(?P<b>[a-z_0-9]+)\})[\s\xa0]+(?:не[\s\xa0]+)?(?P<w>[а-яё()]+)"
)


def gendered_past(text: str) -> list[Finding]:
    """A placeholder followed by a past-tense verb of one gender («%(name)s подтвердил», «%(name)s участвовал(а)»)."""
    out = []
    for m in PLACEHOLDER_THEN_WORD.finditer(text):
        word = m.group("w")
        if (m.group("before") or "").lower() in FORM_OF:
            continue  # «Участник %(p)s не играл», «Тур %(n)s начался»: the verb agrees with the noun
        person = (m.group("a") or m.group("b") or "") in PERSONS
        shaped = PAST.match(word) or (person and PARTICIPLE.match(word))
        if word.endswith("(а)") or (shaped and word not in NOT_VERBS and word not in FORM_OF):
            out.append(Finding(m.group(0), "a past tense after a name", _context(text, m.start(), m.end())))
    return out


def all_findings(text: str) -> list[Finding]:
    """Every wrong Russian form and every English one on a rendered page."""
    return wrong_forms(text) + plural_labels(text) + english_wrong_forms(text)
