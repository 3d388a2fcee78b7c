import pytest
from django.test import Client


@pytest.fixture
def dclient(director):
    c = Client(HTTP_ACCEPT_LANGUAGE="ru")
    c.force_login(director)
    return c
