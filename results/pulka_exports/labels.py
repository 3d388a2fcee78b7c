"""The words of the pulka files (xlsx, csv, pdf) in the file's language, as an explicit ru/en table.

Like :mod:`results.labels` (which the shared ones come from: place, number, name, club, page, the publication
stamp), so that a file is in the tournament's language whatever language the director's browser uses and never
depends on the state of the ``.po`` catalogues.
"""

from __future__ import annotations

from typing import Final

from boards.pdf.text import lang_of
from results.labels import labels as result_labels
from ui.pulka_shapes import SheetLabels

__all__ = ["LABELS", "form_name", "pulka_labels", "sheet_labels"]

LABELS: Final[dict[str, dict[str, str]]] = {
    "ru": {
        "rating_table": "Рейтинговая таблица",
        "standings": "Итоговая таблица",
        "standings_sheet": "Итоги",
        "bracket": "Сетка олимпийской системы",
        "seating": "Рассадка",
        "seating_of": "Рассадка на тур {n}",
        "seating_final": "Рассадка на финал",
        "by_table": "По столам",
        "by_name": "По фамилиям: кто где сидит",
        "sheets": "Пульки тура {n}",
        "round_n": "Тур {n}",
        "round_sheet": "Тур {n}",
        "deals_sheet": "Тур {n} — сдачи",
        "final": "Финал",
        "round": "Тур",
        "table": "Стол",
        "table_n": "Стол {n}",
        "seat": "Позиция",
        "deals": "Сдач",
        "deal": "Сдача",
        "dealer": "Сдаёт",
        "contract": "Игра",
        "rating": "Рейтинг",
        "rating_before": "Рейтинг до тура",
        "total": "Сумма",
        "vists": "Висты",
        "whole_vists": "Целые висты",
        "rounding": "Как округлены целые висты (Кодекс 4.2.12)",
        "column": "Компенсационная графа",
        "settlement": "Итог по сдачам",
        "place_at_table": "Место за столом",
        "state": "Состояние",
        "went_on": "Прошёл дальше",
        "yes": "да",
        "lucky": "лучший из выбывших, не по правилам",
        "tied": "равенство на границе прохода",
        "winner": "победитель",
        "reached": "Дошёл до",
        "reached_final": "финала",
        "out_in": "выбыл в туре {n}",
        "cut": "Отсев",
        "cut_out": "не прошёл отсев",
        "cut_line": "Отсев после тура {n}: игроки ниже черты дальше не играли",
        "bye": "без стола",
        "byes": "Без стола",
        "players": "Игроки",
        "not_played": "—",
        "pool": "окончена: пуля закрыта",
        "deal_limit": "окончена: лимит сдач",
        "stopped": "остановлена: лимит времени",
        "in_progress": "играется",
        "not_started": "не начата",
        "seated_by_rating": "по рейтингу турнира: лучшие — за первым столом; при равенстве и позиции за столом — жребий",
        "seated_by_swiss": "по швейцарской системе: как можно меньше повторных встреч, затем как можно ближе к рейтингу "
        "турнира; позиции за столом — жребий",
        "seated_by_lot": "жребием",
        "no_rounds": "Рассадки первого тура ещё нет.",
        "no_round": "Такого тура нет.",
        "not_olympic": "Сетка есть только у олимпийской системы.",
        "not_pulka": "Этот турнир играется не пульками.",
        "legend": "→ прошёл дальше; ★ победитель; в каждом столе: позиция, игрок, висты, место за столом",
        "form_olympic": "Олимпийская система",
        "form_compensation": "Компенсационная система",
        "form_swiss": "Швейцарская система с отсевом",
        "rating_per_deal": "Рейтинг тура — висты игрока в пульке, делённые на число её сдач.",
        "rating_vists": "Рейтинг тура — висты игрока в пульке.",
        "compression": "Выше {t} он сжимается (делится на {d}).",
        "order_rule": "Место определяет сумма рейтингов, при равенстве — сумма вистов. Тур без стола — средний рейтинг тура.",
        "olympic_rule": "Сначала места финального стола, затем выбывшие — по туру выбывания (позже выбывшие "
        "выше), внутри тура — по рейтингу в нём.",
    },
    "en": {
        "rating_table": "Rating table",
        "standings": "Standings",
        "standings_sheet": "Standings",
        "bracket": "Olympic bracket",
        "seating": "Seating",
        "seating_of": "Seating for round {n}",
        "seating_final": "Seating for the final",
        "by_table": "By table",
        "by_name": "By name: who sits where",
        "sheets": "Pulka sheets of round {n}",
        "round_n": "Round {n}",
        "round_sheet": "Round {n}",
        "deals_sheet": "Round {n} deals",
        "final": "Final",
        "round": "Round",
        "table": "Table",
        "table_n": "Table {n}",
        "seat": "Seat",
        "deals": "Deals",
        "deal": "Deal",
        "dealer": "Dealer",
        "contract": "Played",
        "rating": "Rating",
        "rating_before": "Rating before the round",
        "total": "Total",
        "vists": "Vists",
        "whole_vists": "Whole vists",
        "rounding": "How the whole vists were rounded (Code 4.2.12)",
        "column": "Compensation column",
        "settlement": "Sum of the deals",
        "place_at_table": "Place at the table",
        "state": "State",
        "went_on": "Went on",
        "yes": "yes",
        "lucky": "lucky loser, not from the book",
        "tied": "tied at the cut",
        "winner": "winner",
        "reached": "Reached",
        "reached_final": "the final",
        "out_in": "out in round {n}",
        "cut": "Cut",
        "cut_out": "did not make the cut",
        "cut_line": "Cut after round {n}: the players below did not go on",
        "bye": "bye",
        "byes": "Bye",
        "players": "Players",
        "not_played": "—",
        "pool": "ended: pool",
        "deal_limit": "ended: deal limit",
        "stopped": "stopped: time limit",
        "in_progress": "playing",
        "not_started": "not started",
        "seated_by_rating": "by the tournament rating: the top-rated at table 1; equal ratings and seats by lot",
        "seated_by_swiss": "by the Swiss: the fewest repeated meetings, then the closest to the tournament rating; "
        "seats by lot",
        "seated_by_lot": "by lot",
        "no_rounds": "No round has been drawn yet.",
        "no_round": "There is no such round.",
        "not_olympic": "Only an Olympic event has a bracket.",
        "not_pulka": "This tournament is not played in pulkas.",
        "legend": "→ went on; ★ winner; in each table: seat, player, vists, place at the table",
        "form_olympic": "Olympic form",
        "form_compensation": "Compensation form",
        "form_swiss": "Swiss rounds with cuts",
        "rating_per_deal": "A round's rating is the player's vists in the pulka divided by its number of deals.",
        "rating_vists": "A round's rating is the player's vists in the pulka.",
        "compression": "Above {t} it is compressed (divided by {d}).",
        "order_rule": "The total of the ratings decides the place, then the total vists. A bye counts the round's average rating.",
        "olympic_rule": "The final table first, then the others by the round they went out in (latest first), "
        "within a round by their rating there.",
    },
}

_SHEET: Final[dict[str, dict[str, str]]] = {
    "ru": {
        "sheet": "пулька",
        "pool": "пуля",
        "mountain": "гора",
        "whists": "висты",
        "help": "помощь",
        "write_off": "списано с горы",
        "raspasy": "распасы",
        "raspasy_step": "шаг распасов",
        "pool_target": "пуля до",
        "deal": "Сдача",
        "dealer": "Сдаёт",
        "contract": "Игра",
        "result": "Результат",
        "total": "Итого",
        "player": "Игрок",
        "closing": "Закрытие",
        "vists": "Висты",
        "whole_vists": "Целые висты",
        "rank": "Место",
        "misere": "мизер",
        "no_trump": "БК",
        "no_play": "только записи судьи",
        "in_progress": "игра не окончена: итоги предварительные",
        "rounding_off": "Целые висты по Кодексу 4.2.12: %(seat)s списывает с горы одно очко, "
        "каждый из остальных пишет на него висты: по %(whists)s.",
        "rounding_on": "Целые висты по Кодексу 4.2.12: %(seat)s приписывает на гору одно очко и пишет "
        "на каждого из остальных висты: по %(whists)s.",
        "rounding_none": "Целые висты по Кодексу 4.2.12: точные висты целые, округлять не понадобилось.",
        "lang": "ru",
    },
    "en": {
        "sheet": "pulka",
        "pool": "pool",
        "mountain": "mountain",
        "whists": "whists",
        "help": "help",
        "write_off": "written off the mountain",
        "raspasy": "raspasy",
        "raspasy_step": "raspasy step",
        "pool_target": "pool to",
        "deal": "Deal",
        "dealer": "Dealer",
        "contract": "Played",
        "result": "Result",
        "total": "Total",
        "player": "Player",
        "closing": "Closing",
        "vists": "Vists",
        "whole_vists": "Whole vists",
        "rank": "Place",
        "misere": "misère",
        "no_trump": "NT",
        "no_play": "entries only",
        "in_progress": "the game is not over: the figures are provisional",
        "rounding_off": "Whole vists by Code 4.2.12: %(seat)s writes one point off his mountain, and each of "
        "the others writes %(whists)s whists on him.",
        "rounding_on": "Whole vists by Code 4.2.12: %(seat)s adds one point to his mountain and writes "
        "%(whists)s whists on each of the others.",
        "rounding_none": "Whole vists by Code 4.2.12: the exact vists are whole, nothing was rounded.",
        "lang": "en",
    },
}


def pulka_labels(lang: str) -> dict[str, str]:
    """The pulka files' words with the shared results words under them (place, number, name, club, …)."""
    code = lang_of(lang)
    return {**result_labels(code), **LABELS[code]}


def sheet_labels(lang: str) -> SheetLabels:
    return SheetLabels(**_SHEET[lang_of(lang)])


def form_name(form: str, lang: str) -> str:
    return LABELS[lang_of(lang)].get(f"form_{form}", form)
