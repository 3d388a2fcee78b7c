"""Settings for the test suite: the project's settings, with a fast password hasher.

Django's default hasher costs about 0.4 s a password by design; tests create and log in users all the time,
and nothing in them depends on the hash being slow.
"""

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
