"""Settings for the test suite: the project's settings in development mode, with a fast password hasher.

The suite runs in development mode (``PREFERANS_DEV=1``: the committed development key, loopback hosts, the demo
commands); servers and commands the tests start inherit it through the environment. A test that checks the
production rules gives its subprocess an environment of its own (tests/hostile/test_production.py).

Django's default hasher costs about 0.4 s a password by design; tests create and log in users all the time,
and nothing in them depends on the hash being slow.
"""

import os

os.environ.setdefault("PREFERANS_DEV", "1")

from config.settings import *  # noqa: E402, F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
