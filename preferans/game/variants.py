"""Variant profiles: Sochi («сочинка»), Leningrad («ленинградка»), Rostov («ростов»), and overrides (spec §5).

A :class:`Rules` value holds every parameter of spec §5. :func:`make_rules` starts from a variant's defaults
and applies the bundle's ``rules`` overrides; an unknown key or value is a :class:`RulesError` that names the
key, never silently ignored (formats.md §2). The key names are documented in ``docs/rules-keys.md``.
Pure Python: no Django import.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from preferans.numbers import NumberFormatError, format_fraction, parse_fraction

from .contracts import LEVELS

__all__ = [
    "OVERRIDE_KEYS",
    "VARIANTS",
    "ConsolationBasis",
    "Progression",
    "RaspasyMode",
    "Responsibility",
    "Rules",
    "RulesError",
    "WhistMode",
    "describe_rules",
    "make_rules",
    "rules_to_overrides",
]

VARIANTS: tuple[str, ...] = ("sochi", "leningrad", "rostov")


class RulesError(ValueError):
    """Unknown variant, unknown override key or a bad value; the message names the key."""


class WhistMode(StrEnum):
    GREEDY = (
        "greedy"  # «жлобский» (Code 3.8.13): the lone whister books both hands; the passer only consolation
    )
    GENTLEMAN = "gentleman"  # «джентльменский» (Code 3.8.14): trick whists split when the declarer fails
    ODESSA = "odessa"  # seed 004 «Одесская финка», greedy whist: the lone whister plays his own hand only


class Responsibility(StrEnum):
    RESPONSIBLE = "responsible"  # «ответственный» (3.8.11): price per missing whist trick
    HALF = "half"  # «полуответственный» (3.8.12): half the price per missing whist trick


class RaspasyMode(StrEnum):
    MOUNTAIN = "mountain"  # Sochi/Leningrad (3.7.2.1): tricks to the mountain
    WHISTS = "whists"  # Rostov (3.7.2.2): the min-trick player writes whists on the others


class Progression(StrEnum):
    NONE = "none"
    ARITHMETIC = "arithmetic"  # 1-2-3 × base (3.7.4.1)
    GEOMETRIC = "geometric"  # 1-2-4 × base (3.7.4.2)


class ConsolationBasis(StrEnum):
    PRICE = "price"  # c = contract price p per undertrick (fn54)
    WHIST = "whist"  # c = whist price per trick (fn36 «стоимость взятки»; the Leningrad "all-doubled" option)
    FIXED = "fixed"  # c = a fixed number of vists per undertrick (Rostov: 10, or 15 by agreement)


@dataclass(frozen=True)
class Rules:
    """Every parameter of spec §5 for one event. Build it with :func:`make_rules`."""

    variant: str
    pool_weight: Fraction  # λ: a pool point is worth −λ mountain points in the settlement (D-C1, D-C3)
    price_6: Fraction
    price_7: Fraction
    price_8: Fraction
    price_9: Fraction
    price_10: Fraction
    misere_price: Fraction
    whist_mult: Fraction  # whist per trick w = whist_mult × p (Leningrad 2: D-L1)
    remiz_mult: Fraction  # declarer's mountain per undertrick = remiz_mult × p (all-doubled option 2: D-L2)
    consolation: ConsolationBasis
    consolation_amount: Fraction  # used when consolation is FIXED
    whist_responsibility: Responsibility
    whist_mode: WhistMode
    raspasy_mode: RaspasyMode
    raspasy_price: Fraction  # mountain points (Sochi 1, Leningrad 2) or vists (Rostov 5) per trick
    raspasy_zero_pool: Fraction | None  # pool for a zero-trick raspasy hand; None = the trick price r
    dealer_zero_bonus: bool  # 4-player dealer with zero raspasy tricks books the zero-trick pool (D-P2, D-P3)
    amnesty: bool  # raspasy amnesty, vist-neutral (D-P5)
    progression: Progression  # raspasy progression (D-P1)
    progression_cap: int  # highest raspasy step

    # -- derived prices ---------------------------------------------------------------------------------
    def price(self, level: int) -> Fraction:
        """Price p of a trick contract of this level: to the pool if made (Code 2.2.2)."""
        prices = {6: self.price_6, 7: self.price_7, 8: self.price_8, 9: self.price_9, 10: self.price_10}
        return prices[level]

    def whist_price(self, level: int) -> Fraction:
        """w: whists written per whist trick."""
        return self.whist_mult * self.price(level)

    def remiz_unit(self, level: int) -> Fraction:
        """The declarer's mountain per undertrick."""
        return self.remiz_mult * self.price(level)

    def consolation_unit(self, level: int) -> Fraction:
        """c: whists each non-declarer writes per actual undertrick («консоляция»)."""
        if self.consolation is ConsolationBasis.PRICE:
            return self.price(level)
        if self.consolation is ConsolationBasis.WHIST:
            return self.whist_price(level)
        return self.consolation_amount

    def whist_remiz_unit(self, level: int) -> Fraction:
        """rp: a whister's mountain per missing whist trick."""
        if self.whist_responsibility is Responsibility.RESPONSIBLE:
            return self.price(level)
        return self.price(level) / 2

    def misere_remiz_unit(self) -> Fraction:
        """Mountain per trick of a failed misère (10, or 20 in the all-doubled profile)."""
        return self.remiz_mult * self.misere_price

    def raspasy_trick_price(self, step: int = 1) -> Fraction:
        """r: the raspasy price of one trick at this progression step (step 1 = no progression)."""
        if self.progression is Progression.ARITHMETIC:
            return self.raspasy_price * step
        if self.progression is Progression.GEOMETRIC:
            return self.raspasy_price * Fraction(2 ** (step - 1))
        return self.raspasy_price

    def raspasy_zero_bonus(self, step: int = 1) -> Fraction:
        """Pool written by a hand that took no trick on raspasy."""
        if self.raspasy_zero_pool is None:
            return self.raspasy_trick_price(step)
        return self.raspasy_zero_pool


def _f(value: int) -> Fraction:
    return Fraction(value)


_DEFAULTS: dict[str, Rules] = {
    "sochi": Rules(
        variant="sochi",
        pool_weight=_f(1),
        price_6=_f(2),
        price_7=_f(4),
        price_8=_f(6),
        price_9=_f(8),
        price_10=_f(10),
        misere_price=_f(10),
        whist_mult=_f(1),
        remiz_mult=_f(1),
        consolation=ConsolationBasis.PRICE,
        consolation_amount=_f(0),
        whist_responsibility=Responsibility.RESPONSIBLE,
        whist_mode=WhistMode.GREEDY,
        raspasy_mode=RaspasyMode.MOUNTAIN,
        raspasy_price=_f(1),
        raspasy_zero_pool=None,
        dealer_zero_bonus=True,
        amnesty=True,
        progression=Progression.NONE,
        progression_cap=3,
    ),
}
_DEFAULTS["leningrad"] = dataclasses.replace(
    _DEFAULTS["sochi"],
    variant="leningrad",
    pool_weight=_f(2),
    whist_mult=_f(2),
    whist_responsibility=Responsibility.HALF,
    whist_mode=WhistMode.GENTLEMAN,
    raspasy_price=_f(2),
)
_DEFAULTS["rostov"] = dataclasses.replace(
    _DEFAULTS["sochi"],
    variant="rostov",
    consolation=ConsolationBasis.FIXED,
    consolation_amount=_f(10),
    whist_responsibility=Responsibility.HALF,
    whist_mode=WhistMode.GENTLEMAN,
    raspasy_mode=RaspasyMode.WHISTS,
    raspasy_price=_f(5),
    raspasy_zero_pool=_f(1),
    amnesty=False,
)


# -- override keys --------------------------------------------------------------------------------------
def _positive(key: str, raw: object) -> Fraction:
    value = _number(key, raw)
    if value <= 0:
        raise RulesError(f"rules key {key!r}: {raw!r} must be greater than 0")
    return value


def _number(key: str, raw: object) -> Fraction:
    if isinstance(raw, float):
        raise RulesError(f'rules key {key!r}: {raw!r} — write an integer or a fraction such as "3/2"')
    try:
        return parse_fraction(raw)
    except NumberFormatError as exc:
        raise RulesError(f"rules key {key!r}: {exc}") from exc


def _bool(key: str, raw: object) -> bool:
    if not isinstance(raw, bool):
        raise RulesError(f"rules key {key!r}: {raw!r} must be true or false")
    return raw


def _choice(enum: type[StrEnum]) -> Callable[[str, object], StrEnum]:
    def parse(key: str, raw: object) -> StrEnum:
        allowed = [member.value for member in enum]
        if not isinstance(raw, str) or raw not in allowed:
            raise RulesError(f"rules key {key!r}: {raw!r} is not one of {', '.join(allowed)}")
        return enum(raw)

    return parse


def _cap(key: str, raw: object) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 1:
        raise RulesError(f"rules key {key!r}: {raw!r} must be an integer 1 or more")
    return raw


def _zero_pool(key: str, raw: object) -> Fraction | None:
    if raw == "price":
        return None
    if isinstance(raw, str) and not raw[:1].isdigit():
        raise RulesError(f"rules key {key!r}: {raw!r} is not 'price' or a number")
    value = _number(key, raw)
    if value < 0:
        raise RulesError(f"rules key {key!r}: {raw!r} must not be negative")
    return value


# key → (field, parser). "consolation" is handled apart: it sets two fields.
_PARSERS: dict[str, Callable[[str, object], object]] = {
    "pool_weight": _positive,
    **{f"price_{level}": _positive for level in LEVELS},
    "misere_price": _positive,
    "whist_mult": _positive,
    "remiz_mult": _positive,
    "whist_responsibility": _choice(Responsibility),
    "whist_mode": _choice(WhistMode),
    "raspasy_mode": _choice(RaspasyMode),
    "raspasy_price": _positive,
    "raspasy_zero_pool": _zero_pool,
    "dealer_zero_bonus": _bool,
    "amnesty": _bool,
    "progression": _choice(Progression),
    "progression_cap": _cap,
}

OVERRIDE_KEYS: tuple[str, ...] = (
    "pool_weight",
    *(f"price_{level}" for level in LEVELS),
    "misere_price",
    "whist_mult",
    "remiz_mult",
    "consolation",
    "whist_responsibility",
    "whist_mode",
    "raspasy_mode",
    "raspasy_price",
    "raspasy_zero_pool",
    "dealer_zero_bonus",
    "amnesty",
    "progression",
    "progression_cap",
)
"""Every key a bundle's ``rules`` object may hold, in documentation order (docs/rules-keys.md)."""


def _apply_consolation(raw: object) -> dict[str, object]:
    if raw in ("price", "whist"):
        assert isinstance(raw, str)
        return {"consolation": ConsolationBasis(raw), "consolation_amount": Fraction(0)}
    if isinstance(raw, str) and not raw[:1].isdigit():
        raise RulesError(f"rules key 'consolation': {raw!r} is not 'price', 'whist' or a number of vists")
    return {"consolation": ConsolationBasis.FIXED, "consolation_amount": _positive("consolation", raw)}


def make_rules(variant: str, overrides: Mapping[str, object] | None = None) -> Rules:
    """The rules of a variant (``sochi``, ``leningrad``, ``rostov``) with the bundle's overrides applied."""
    if variant not in _DEFAULTS:
        raise RulesError(f"unknown variant {variant!r} — use one of {', '.join(VARIANTS)}")
    changes: dict[str, object] = {}
    for key, raw in (overrides or {}).items():
        if key == "consolation":
            changes.update(_apply_consolation(raw))
        elif key in _PARSERS:
            changes[key] = _PARSERS[key](key, raw)
        else:
            raise RulesError(f"unknown rules key {key!r} — the keys are: {', '.join(OVERRIDE_KEYS)}")
    rules = dataclasses.replace(_DEFAULTS[variant], **changes)  # type: ignore[arg-type]
    if rules.amnesty and rules.raspasy_mode is RaspasyMode.WHISTS:
        raise RulesError(
            "rules key 'amnesty': amnesty exists only for mountain raspasy (raspasy_mode 'mountain'); "
            "Rostov raspasy has none (Code fn46)"
        )
    return rules


# -- describing rules -----------------------------------------------------------------------------------
def _plain(value: Fraction) -> int | str:
    return value.numerator if value.denominator == 1 else format_fraction(value)


def describe_rules(rules: Rules) -> dict[str, object]:
    """Every override key with its value in ``rules`` (JSON-ready: ints, fraction strings, names, bools),
    plus ``variant``. Feeding the result minus ``variant`` to :func:`make_rules` gives the same rules."""
    described: dict[str, object] = {"variant": rules.variant}
    for key in OVERRIDE_KEYS:
        described[key] = _key_value(rules, key)
    return described


def _key_value(rules: Rules, key: str) -> object:
    if key == "consolation":
        if rules.consolation is ConsolationBasis.FIXED:
            return _plain(rules.consolation_amount)
        return rules.consolation.value
    if key == "raspasy_zero_pool":
        return "price" if rules.raspasy_zero_pool is None else _plain(rules.raspasy_zero_pool)
    value = getattr(rules, key)
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, Fraction):
        return _plain(value)
    return value


def rules_to_overrides(rules: Rules) -> dict[str, object]:
    """The smallest override dict that turns the variant's defaults into ``rules``."""
    defaults = _DEFAULTS[rules.variant]
    return {
        key: _key_value(rules, key)
        for key in OVERRIDE_KEYS
        if _key_value(rules, key) != _key_value(defaults, key)
    }
