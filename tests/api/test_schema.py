"""The OpenAPI 3 schema, the docs page, and schemathesis: no generated request gets a 500."""

from __future__ import annotations

import pytest
import yaml
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client

from tests.api.helpers import client_for
from tests.table.factory import make_event

pytestmark = pytest.mark.django_db


def test_the_schema_is_openapi_3_and_lists_the_api():
    response = Client().get("/api/schema/")
    assert response.status_code == 200
    schema = yaml.safe_load(response.content)
    assert schema["openapi"].startswith("3.")
    paths = schema["paths"]
    for path in (
        "/api/results/",
        "/api/results/{id}/confirm/",
        "/api/results/{id}/dispute/",
        "/api/boards/",
        "/api/tournaments/{slug}/standings/",
        "/api/penalties/",
        "/api/adjustments/",
        "/api/seatings/",
    ):
        assert path in paths
    assert "playerAuth" in schema["components"]["securitySchemes"]
    assert "Error" in schema["components"]["schemas"]


def test_the_docs_page_is_readable_without_javascript():
    response = Client().get("/api/docs/", headers={"accept-language": "en"})
    assert response.status_code == 200
    body = response.content.decode()
    assert "/api/results/{id}/confirm/" in body and "Idempotency-Key" in body and "<script" not in body


schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, settings  # noqa: E402

from config.wsgi import application  # noqa: E402

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)


@pytest.fixture
def fuzz_db(director, settings):  # noqa: F811
    # Requests go straight to the WSGI handler: keep the test's connection open (as Django's test client does).
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "100000/min", "user": "100000/min", "player": "100000/min"},
    }
    make_event(director=director)
    yield {
        "anonymous": {},
        "director": {
            "Authorization": client_for("director", director=director)._credentials["HTTP_AUTHORIZATION"]
        },
        "player": {"Authorization": "Player TAB1TT:1:1001"},
    }
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


def _call(case, headers):
    cache.clear()  # the PIN and code counters must not turn every later request into a 429
    response = case.call(headers=headers)
    assert response.status_code < 500, (case.method, case.formatted_path, case.body, response.text[:2000])


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_no_generated_request_gets_a_server_error(case, fuzz_db):
    _call(case, fuzz_db["anonymous"])


@pytest.mark.slow
@pytest.mark.parametrize("who", ["director", "player"])
@schema.include(method=["POST", "PUT", "PATCH", "DELETE"]).parametrize()
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_no_generated_write_gets_a_server_error(case, who, fuzz_db):
    _call(case, fuzz_db[who])
