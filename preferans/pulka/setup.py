"""The parameters of a pulka, fixed before play (pulka §2.2, Code 5.4.4).

:func:`make_pulka_rules` turns a variant and the bundle's override keys, plus the pulka's own key
``raspasy_exit``, into :class:`~preferans.game.Rules` and the exit ladder, with the pulka's limits: no
``pool_weight`` (λ follows from the closing rule, P-1), whole numbers only (P-25), no amnesty in Rostov (fn46).
Raspasy progression is allowed in every variant as the organisers' agreed option: Code 3.7.4 is general («по
предварительной договоренности между игроками, цена за одну взятку может увеличиваться»). In Rostov, whose
raspasy are written in whists (3.7.2.2), the step multiplies the whist price of a trick as it multiplies the
mountain price elsewhere — the software's reading, since the examples of 3.7.4.1–3.7.4.2 count «в гору» (P-9 of
the shared pulka-spec refused it; issue 28 R9). Pure Python: no Django import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from preferans.game import Rules, RulesError, make_rules
from preferans.game.seats import table_seats

__all__ = ["TIEBREAKS", "Compensation", "PulkaSetup", "SetupError", "make_pulka_rules", "row_dealer_label"]

TIEBREAKS: tuple[str, ...] = ("raspasy_won", "raspasy_tricks", "remizes", "misere_tricks")
"""The organisers' secondary criteria of Code 4.1.3, as pulka §9 defines them."""

_WHOLE_KEYS = (
    "price_6",
    "price_7",
    "price_8",
    "price_9",
    "price_10",
    "misere_price",
    "whist_mult",
    "remiz_mult",
    "consolation",
    "raspasy_price",
    "raspasy_zero_pool",
    "progression_cap",
)


class SetupError(ValueError):
    """A parameter of the pulka breaks pulka §2.2 or §11.1; ``field`` names it."""

    def __init__(self, field: str, message: str, code: str = "setup", **params: object) -> None:
        self.field = field
        self.code = code
        self.params: dict[str, object] = dict(params)
        super().__init__(f"{field}: {message}")


@dataclass(frozen=True)
class Compensation:
    """Proposal 2 of 004-III: a player writes himself x vists for a deal with a positive result, else y."""

    x: int
    y: int


def make_pulka_rules(
    variant: str, overrides: Mapping[str, object] | None = None
) -> tuple[Rules, tuple[int, ...]]:
    """The per-deal rules and the raspasy exit ladder of a pulka (pulka §2.2)."""
    given = dict(overrides or {})
    raw_exit = given.pop("raspasy_exit", [6])
    if "pool_weight" in given:
        raise SetupError(
            "rules.pool_weight",
            "a pulka has no pool_weight: a pool point is worth 1 mountain point with help (Sochi, Rostov) and 2 "
            "with the Leningrad closing rule (pulka P-1)",
            code="pool_weight",
        )
    try:
        rules = make_rules(variant, given)
    except RulesError as exc:
        raise SetupError(
            "rules" if variant in ("sochi", "leningrad", "rostov") else "variant", str(exc)
        ) from exc
    for key in _WHOLE_KEYS:
        value = getattr(rules, "consolation_amount" if key == "consolation" else key)
        if key in given and isinstance(value, Fraction) and value.denominator != 1:
            raise SetupError(
                f"rules.{key}", f"{given[key]!r} — the sheet holds whole numbers (pulka P-25)", code="whole"
            )
    return rules, _exit_ladder(raw_exit)


def _exit_ladder(raw: object) -> tuple[int, ...]:
    if (
        not isinstance(raw, list)
        or not raw
        or any(isinstance(v, bool) or not isinstance(v, int) or not 6 <= v <= 10 for v in raw)
    ):
        raise SetupError(
            "rules.raspasy_exit",
            f"{raw!r} — a non-empty list of contract levels 6 to 10, such as [6] or [7, 8, 9, 10] (Code 3.7.8)",
            code="raspasy_exit",
        )
    return tuple(raw)


def row_dealer_label(players: int, dealer: str, first_hand: str) -> str:
    """The row's dealer label from a deal's dealer and first hand (see :meth:`PulkaSetup.row_dealer`)."""
    return dealer if players == 4 else first_hand


@dataclass(frozen=True)
class PulkaSetup:
    """Everything fixed before the first deal (pulka §2.2). Build it with :meth:`create`, which checks it."""

    rules: Rules
    raspasy_exit: tuple[int, ...]
    seats: tuple[str, ...]  # N, E, S or N, E, S, W
    pool: int  # the target T
    first_dealer: str
    max_deals: int | None = None
    compensation: Compensation | None = None
    tiebreaks: tuple[str, ...] = ()
    advance: int | None = None  # Olympic: 1 or 2

    @classmethod
    def create(
        cls,
        *,
        variant: str,
        players: int,
        pool: int,
        first_dealer: str,
        rules: Mapping[str, object] | None = None,
        max_deals: int | None = None,
        compensation: Compensation | None = None,
        tiebreaks: Sequence[str] = (),
        advance: int | None = None,
    ) -> PulkaSetup:
        if players not in (3, 4):
            raise SetupError(
                "players", f"a pulka has 3 or 4 players, not {players} (Code 1.2; pulka P-16)", "players"
            )
        seats = table_seats(players)
        if isinstance(pool, bool) or not isinstance(pool, int) or pool < 1:
            raise SetupError(
                "pool", f"{pool!r} — the pool target is a whole number 1 or more (Code 4.2.2)", "pool"
            )
        if max_deals is not None and (
            isinstance(max_deals, bool) or not isinstance(max_deals, int) or max_deals < 1
        ):
            raise SetupError(
                "max_deals", f"{max_deals!r} — the deal limit is a whole number 1 or more", "max_deals"
            )
        if first_dealer not in seats:
            raise SetupError(
                "first_dealer",
                f"{first_dealer!r} — the first dealer is one of the seats {', '.join(seats)}",
                "first_dealer",
            )
        unknown = [name for name in tiebreaks if name not in TIEBREAKS]
        if unknown or len(set(tiebreaks)) != len(tiebreaks):
            raise SetupError(
                "tiebreaks",
                f"{list(tiebreaks)!r} — distinct names from {', '.join(TIEBREAKS)} (Code 4.1.3)",
                "tiebreaks",
            )
        if advance is not None and advance not in (1, 2):
            raise SetupError("olympic.advance", f"{advance!r} — 1, or 2 by regulation (004-II)", "advance")
        pulka_rules, ladder = make_pulka_rules(variant, rules)
        return cls(
            rules=pulka_rules,
            raspasy_exit=ladder,
            seats=seats,
            pool=pool,
            first_dealer=first_dealer,
            max_deals=max_deals,
            compensation=compensation,
            tiebreaks=tuple(tiebreaks),
            advance=advance,
        )

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def weight(self) -> Fraction:
        """λ: 1 with help (Sochi, Rostov), 2 with the Leningrad closing rule (P-1)."""
        return self.rules.pool_weight

    @property
    def helps(self) -> bool:
        """Sochi and Rostov cap the pool and help; Leningrad writes every pool entry in full (Code 4.2.3.3)."""
        return self.rules.variant != "leningrad"

    def dealer(self, deal: int) -> str:
        """The dealer of deal ``deal`` (1-based): the deal passes to the left after every deal (P-11)."""
        start = self.seats.index(self.first_dealer)
        return self.seats[(start + deal - 1) % len(self.seats)]

    def first_hand(self, deal: int) -> str:
        """The player on the dealer's left (Code 3.3.2; P-23)."""
        dealer = self.dealer(deal)
        return self.seats[(self.seats.index(dealer) + 1) % len(self.seats)]

    def row_dealer(self, deal: int) -> str:
        """The ``dealer`` a protocol row of deal ``deal`` is read with (``preferans.game.rows``): the real dealer
        at 4 players (he sits out); at 3 players the row's label marks the first hand (P-23, D-T1)."""
        return row_dealer_label(self.players, self.dealer(deal), self.first_hand(deal))

    def exit_minimum(self, chain: int) -> int:
        """The lowest contract level after ``chain`` (≥ 1) raspasy in a row (pulka §6)."""
        return self.raspasy_exit[min(chain, len(self.raspasy_exit)) - 1]
