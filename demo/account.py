"""The demo director of ``seed_demo`` and ``seed_pulka_demo``, and the rule that keeps its published password off
a server.

In development (``PREFERANS_DEV=1``) the demo director is a superuser whose password the README publishes. Outside
development the demo commands refuse, unless told ``--production``: the demo events are then made for a public
showcase and the demo director has no usable password until one is set with ``manage.py changepassword demo``.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.management.base import CommandError, CommandParser

DEMO_USER, DEMO_PASSWORD = "demo", "demo-director"
PRODUCTION_FLAG = "--production"


def add_production_flag(parser: CommandParser) -> None:
    parser.add_argument(
        PRODUCTION_FLAG,
        action="store_true",
        help="outside development: make the demo events anyway, with no usable password for the demo director",
    )


def production(command: str, options: dict[str, object]) -> bool:
    """Whether the demo is made for a server; refuses a server that did not ask for it."""
    if getattr(settings, "PREFERANS_DEV", False):
        return False
    if not options.get("production"):
        raise CommandError(
            f"{command} is for development: it creates the director «{DEMO_USER}» with the password published in "
            f"the README, and this is not a development set-up (PREFERANS_DEV=1 is not set). On a development "
            f"machine run python3 dev.py run. To show the demo events on a server anyway, add {PRODUCTION_FLAG}: "
            f"the demo director then gets no usable password (set one with manage.py changepassword {DEMO_USER})."
        )
    return True


def demo_director(*, production: bool) -> AbstractBaseUser:
    """The demo director's account, created if missing; on a server never with the published password."""
    user, created = get_user_model().objects.get_or_create(
        username=DEMO_USER, defaults={"is_staff": not production, "is_superuser": not production}
    )
    if created and not production:
        user.set_password(DEMO_PASSWORD)
        user.save()
    elif production and (created or user.check_password(DEMO_PASSWORD)):
        # A development database moved to a server does not keep the published password either.
        user.set_unusable_password()
        user.save()
    return user


def login_words(*, production: bool) -> str:
    if production:
        return f"demo director {DEMO_USER}: no password until manage.py changepassword {DEMO_USER}"
    return f"director login {DEMO_USER} / {DEMO_PASSWORD}"
