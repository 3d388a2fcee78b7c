"""Labels of printed and downloaded results (xlsx, csv, pdf) in the tournament's language.

Kept here as an explicit ru/en table (as ``boards/pdf/diagram.py`` does) so that generated files never depend
on the state of the ``.po`` catalogues, and so that a file is in the tournament's language whatever language
the director's browser uses.
"""

from __future__ import annotations

from typing import Final

from boards.pdf.text import lang_of

LABELS: Final[dict[str, dict[str, str]]] = {
    "ru": {
        "standings": "Итоговая таблица",
        "standings_sheet": "Итоги",
        "protocols": "Протоколы",
        "protocol": "Протокол",
        "cards": "Личные карточки",
        "card": "Личная карточка",
        "cards_sheet": "Карточки",
        "session_totals": "Итоги по сессиям",
        "frequencies": "Частоты",
        "table_cards": "Карточки столов",
        "table_card": "Карточка стола",
        "row_of_sets": "Ряд комплектов судьи",
        "cost_table": "Таблица стоимости игр",
        "place": "Место",
        "disqualified": "дискв.",
        "number": "№",
        "participant": "Участник",
        "name": "Фамилия, имя",
        "club": "Клуб",
        "federation_id": "Номер в федерации",
        "mp": "МП",
        "matchpoints": "Матчпункты",
        "max": "Макс",
        "percent": "%",
        "session": "Сессия",
        "round": "Тур",
        "board": "Сдача",
        "set": "Комплект",
        "sets_n": "комплектов",
        "place_in_row": "Место в ряду",
        "table": "Стол",
        "room": "Зал",
        "room_table": "Зал/стол",
        "seat": "Позиция",
        "opponents": "Соперники",
        "contract": "Контракт",
        "declarer": "Разыгрывающий",
        "first_whister": "1-й вистующий",
        "second_whister": "2-й вистующий",
        "declarer_short": "Разыгр.",
        "first_whister_short": "1-й вист.",
        "second_whister_short": "2-й вист.",
        "position": "Поз.",
        "tricks": "Взятки",
        "vists": "Висты",
        "count": "Кол-во",
        "line": "Линия",
        "dealer": "Сдающий",
        "penalties": "Штрафы",
        "penalty": "Штраф",
        "total": "Итого",
        "raspasy": "распасы",
        "misere": "мизер",
        "artificial": "искусств.",
        "assigned": "оценочный",
        "pass": "пас",
        "not_played": "не сыграна",
        "page": "стр.",
        "generated": "Сформировано",
        "status_draft": "НЕ ОПУБЛИКОВАНО",
        "status_provisional": "ПРЕДВАРИТЕЛЬНЫЕ РЕЗУЛЬТАТЫ",
        "status_official": "ОФИЦИАЛЬНЫЕ РЕЗУЛЬТАТЫ",
        "status_final": "ОКОНЧАТЕЛЬНЫЕ РЕЗУЛЬТАТЫ",
        "variant_sochi": "Сочинка",
        "variant_leningrad": "Ленинградка",
        "variant_rostov": "Ростовка",
        "players_n": "игроков за столом",
        "continued": "продолжение",
        "rounds_of": "Туры",
        "rounds_n": "туров",
        "running_percent": "Процент по турам",
        "no_results": "Результатов пока нет.",
        "stays": "остаётся",
        "rest": "отдых",
        "then": "После тура",
        "take_set": "Комплект: место в ряду судьи",
        "last_round": "последний тур",
        "scan_to_enter": "Ввод протокола: отсканируйте код или откройте адрес",
        "table_code": "Код стола",
        "card_rules": (
            "Игрок N берёт комплект из указанного места ряда у судьи и после тура возвращает его туда же. "
            "После тура каждый переходит, как указано: «3S–2W» — S стола 3 идёт за стол 2 на позицию W; "
            "«P» — отдых в следующем туре."
        ),
        "row_rules": (
            "Комплекты лежат в ряд, комплект 1 на месте 1. Z — комплект этого места в туре не играется; число — "
            "стол(ы), которые его берут. Перед каждым следующим туром первый комплект ряда переносится в конец "
            "(остальные сдвигаются влево), и только затем объявляется начало тура."
        ),
        "resting_back": "Отдыхающие и куда они садятся",
        "cost_note": (
            "«a / b»: a — тому, кто записывает, b — каждому другому участнику (включая сдающего за столом из 4). "
            "Результат сдачи — сумма строк, которые к ней относятся."
        ),
        "cost_contract": "Контракт",
        "cost_price": "Цена",
        "cost_made": "Сыгран: разыгр. / каждому",
        "cost_whist": "Вист за взятку",
        "cost_undertrick": "Недобор (гора): разыгр. / каждому",
        "cost_consolation": "Консоляция за недобор",
        "cost_missing_whist": "Недобор виста: вистующий / каждому",
        "cost_half": "Полвиста",
        "cost_pool_weight": "вес пули λ",
        "per_trick": "за взятку",
        "raspasy_mountain": "Распасы: каждая взятка (после амнистии)",
        "raspasy_zero": "Распасы: рука без взяток пишет в пулю",
        "raspasy_whists": "Распасы: меньше всех взявший пишет вистов за каждую взятку на каждого другого",
        "raspasy_pool": "Распасы: пуля за ноль взяток и пуля сдающего за столом из 4",
        "rules_overrides": "Особые договорённости",
        "standard_tables": "Стандартные таблицы вариантов",
        "layout": "Расклад",
        "session_over_layout": "Расклад публикуется после окончания сессии.",
        "adjusted_note": "искусств. — искусственный присуждённый результат (% от макс); "
        "оценочный — присуждённые висты",
        "running": "идёт",
        "finished": "окончена",
    },
    "en": {
        "standings": "Standings",
        "standings_sheet": "Standings",
        "protocols": "Protocols",
        "protocol": "Protocol",
        "cards": "Personal score cards",
        "card": "Personal score card",
        "cards_sheet": "Score cards",
        "session_totals": "Session totals",
        "frequencies": "Frequencies",
        "table_cards": "Table cards",
        "table_card": "Table card",
        "row_of_sets": "Director's row of sets",
        "cost_table": "Table of game costs",
        "place": "Place",
        "disqualified": "disq.",
        "number": "No.",
        "participant": "Participant",
        "name": "Name",
        "club": "Club",
        "federation_id": "Federation id",
        "mp": "MP",
        "matchpoints": "Matchpoints",
        "max": "Max",
        "percent": "%",
        "session": "Session",
        "round": "Round",
        "board": "Board",
        "set": "Set",
        "sets_n": "sets",
        "place_in_row": "Place in the row",
        "table": "Table",
        "room": "Room",
        "room_table": "Room/table",
        "seat": "Seat",
        "opponents": "Opponents",
        "contract": "Contract",
        "declarer": "Declarer",
        "first_whister": "First whister",
        "second_whister": "Second whister",
        "declarer_short": "Declarer",
        "first_whister_short": "1st whister",
        "second_whister_short": "2nd whister",
        "position": "Pos.",
        "tricks": "Tricks",
        "vists": "Vists",
        "count": "Count",
        "line": "Line",
        "dealer": "Dealer",
        "penalties": "Penalties",
        "penalty": "Penalty",
        "total": "Total",
        "raspasy": "raspasy",
        "misere": "misère",
        "artificial": "artificial",
        "assigned": "assigned",
        "pass": "pass",
        "not_played": "not played",
        "page": "page",
        "generated": "Generated",
        "status_draft": "NOT PUBLISHED",
        "status_provisional": "PROVISIONAL RESULTS",
        "status_official": "OFFICIAL RESULTS",
        "status_final": "FINAL RESULTS",
        "variant_sochi": "Sochi",
        "variant_leningrad": "Leningrad",
        "variant_rostov": "Rostov",
        "players_n": "players per table",
        "continued": "continued",
        "rounds_of": "Rounds",
        "rounds_n": "rounds",
        "running_percent": "Percentage by round",
        "no_results": "No results yet.",
        "stays": "stays",
        "rest": "rest",
        "then": "After the round",
        "take_set": "Set: place in the director's row",
        "last_round": "last round",
        "scan_to_enter": "Protocol entry: scan the code or open",
        "table_code": "Table code",
        "card_rules": (
            "The player at N takes the set from the given place of the director's row and puts it back there "
            "after the round. After each round everyone moves as shown: “3S–2W” = the S of table 3 goes to "
            "table 2, seat W; “P” = rests next round."
        ),
        "row_rules": (
            "Sets lie in a row, set 1 at place 1. Z = the set at that place is not played this round; a number = "
            "the table(s) that take it. Before each next round move the first set of the row to the end (shift "
            "the others left), then announce the start of the round."
        ),
        "resting_back": "Resting players and where they sit next",
        "cost_note": (
            "“a / b”: a to the player who books it, b to each other participant (the 4-player dealer included). "
            "A deal's result is the sum of the lines that apply."
        ),
        "cost_contract": "Contract",
        "cost_price": "Price",
        "cost_made": "Made: declarer / each",
        "cost_whist": "Whist per trick",
        "cost_undertrick": "Undertrick (mountain): declarer / each",
        "cost_consolation": "Consolation per undertrick",
        "cost_missing_whist": "Missing whist trick: whister / each",
        "cost_half": "Half-whist",
        "cost_pool_weight": "pool weight λ",
        "per_trick": "per trick",
        "raspasy_mountain": "Raspasy: each trick taken (after amnesty)",
        "raspasy_zero": "Raspasy: a hand with no trick books the pool",
        "raspasy_whists": "Raspasy: the hand with fewest tricks writes vists per trick on each other hand",
        "raspasy_pool": "Raspasy: the zero-trick pool point and the 4-player dealer's pool point",
        "rules_overrides": "Special agreements",
        "standard_tables": "Standard tables of the variants",
        "layout": "Layout",
        "session_over_layout": "The layout is published once the session is over.",
        "adjusted_note": "artificial = artificial adjusted result (% of the top); assigned = assigned vists",
        "running": "running",
        "finished": "finished",
    },
}

SUITS: Final = {"S": "♠", "C": "♣", "D": "♦", "H": "♥", "NT": "БК"}
SUITS_EN: Final = {"S": "♠", "C": "♣", "D": "♦", "H": "♥", "NT": "NT"}


def labels(lang: str) -> dict[str, str]:
    return LABELS[lang_of(lang)]


def contract_text(code: str | None, lang: str = "ru") -> str:
    """A protocol's contract code as printed: ``"6D"`` → ``"6♦"``, ``"MIS"`` → ``"мизер"``, ``"-"`` (all passed)
    → ``"распасы"`` — on every page and file alike (a bare «—» read as a missing contract)."""
    if not code:
        return ""
    if code == "-":
        return labels(lang)["raspasy"]
    if code == "MIS":
        return labels(lang)["misere"]
    suits = SUITS if lang_of(lang) == "ru" else SUITS_EN
    for strain, symbol in suits.items():
        if code.endswith(strain) and code[: -len(strain)].isdigit():
            return f"{code[: -len(strain)]}{symbol}"
    return code
