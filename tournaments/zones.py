"""The time zones an event may be held in: every time shown to people about it (deadlines, refusals, pages,
printed results) is in the event's zone.

The list is curated (the zones of Russia and its neighbours where the game is played, then UTC) so that the
settings page names each in the page's language; an empty choice is the site's ``TIME_ZONE``. The stored value
is the IANA name, checked against the system's zone database.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo

from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

ZONES: tuple[tuple[str, Promise], ...] = (
    ("Europe/Kaliningrad", _("Kaliningrad (UTC+2)")),
    ("Europe/Moscow", _("Moscow (UTC+3)")),
    ("Europe/Samara", _("Samara (UTC+4)")),
    ("Asia/Yekaterinburg", _("Yekaterinburg (UTC+5)")),
    ("Asia/Omsk", _("Omsk (UTC+6)")),
    ("Asia/Novosibirsk", _("Novosibirsk (UTC+7)")),
    ("Asia/Krasnoyarsk", _("Krasnoyarsk (UTC+7)")),
    ("Asia/Irkutsk", _("Irkutsk (UTC+8)")),
    ("Asia/Yakutsk", _("Yakutsk (UTC+9)")),
    ("Asia/Vladivostok", _("Vladivostok (UTC+10)")),
    ("Asia/Magadan", _("Magadan (UTC+11)")),
    ("Asia/Kamchatka", _("Petropavlovsk-Kamchatsky (UTC+12)")),
    ("Europe/Minsk", _("Minsk (UTC+3)")),
    ("Europe/Kyiv", _("Kyiv (UTC+2, summer +3)")),
    ("Europe/Riga", _("Riga (UTC+2, summer +3)")),
    ("Asia/Almaty", _("Almaty (UTC+5)")),
    ("Asia/Tbilisi", _("Tbilisi (UTC+4)")),
    ("Europe/Berlin", _("Berlin (UTC+1, summer +2)")),
    ("UTC", _("UTC")),
)
NAMES = frozenset(name for name, _label in ZONES)
MAX_LENGTH = 64


def zone(name: str) -> dt.tzinfo:
    """The zone called ``name`` (empty: the site's ``TIME_ZONE``, read each time: a setting may change in a
    test). ``ZoneInfo`` keeps its own cache."""
    return zoneinfo.ZoneInfo(name or settings.TIME_ZONE)


def choices() -> list[tuple[str, object]]:
    """The settings page's choices: the site's zone first (empty value), then the curated list."""
    site = dict(ZONES).get(settings.TIME_ZONE, settings.TIME_ZONE)
    return [("", _("As the site: %(zone)s") % {"zone": site}), *ZONES]


def is_known(name: str) -> bool:
    """An event's zone is empty (the site's) or one of the curated zones present in the zone database."""
    if not name:
        return True
    if name not in NAMES:
        return False
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return False
    return True
