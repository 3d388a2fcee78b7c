"""The OpenAPI 3 schema, the docs page, and schemathesis: no generated request gets a 500.

The fuzz runs on a budget in every suite and deeper in .ci/run's own step (FUZZ_DEPTH=deep; DEPTHS below).
Measured with ``--durations=0 tests/api/test_schema.py -n 0`` on the 2-core machine, 87 tests, while other work
loaded it (load average 6–8, so wall times are about 3× a quiet machine's; CPU is the process's user + sys,
of which about 15 s is Django, the test database and the schema, measured with ``-m "not fuzz"``):

* before (schemathesis's coverage phase, 10 generated examples a read, 15 a write): 280 s CPU, 729 s of the
  tests' wall time; the slowest were the coverage phase's hundreds of cases for a large body
  (PATCH /api/results/{id}/ as a player 157 s, PUT 135 s, POST /api/results/ 82 s; 660 requests for the first);
* the default run now (generated examples only, as many as before): 36 s CPU (about 21 s of fuzz), 64 s of the
  tests' wall time, the slowest 2.2 s;
* FUZZ_DEPTH=deep (the coverage phase, 25 examples a read, 30 a write): 295 s CPU, 749 s of the tests' wall
  time, the slowest 95 s (POST /api/results/ as a player).
"""

from __future__ import annotations

import os
import re

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
    assert "/api/results/{id}/confirm/" in body and "Idempotency-Key" in body
    # The only script is the site's shared one (it makes a scrolling table reachable by keyboard): the reference
    # itself is in the HTML.
    assert re.findall(r"<script[^>]*>", body) == ['<script src="/static/js/page.js" defer>']


schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, settings  # noqa: E402

from config.wsgi import application  # noqa: E402

# How deep the fuzz goes: the default run (every suite) or FUZZ_DEPTH=deep (.ci/run's own step).
# phases: schemathesis's; "coverage" adds hundreds of boundary cases to an operation with a large body.
DEPTHS = {
    "": {"phases": ["examples", "fuzzing"], "reads": 10, "writes": 15},
    "deep": {"phases": ["examples", "coverage", "fuzzing"], "reads": 25, "writes": 30},
}
FUZZ_DEPTH = os.environ.get("FUZZ_DEPTH", "")
if FUZZ_DEPTH not in DEPTHS:
    raise ValueError(f"FUZZ_DEPTH={FUZZ_DEPTH!r}: leave it unset for the default run, or set it to 'deep'")
DEPTH = DEPTHS[FUZZ_DEPTH]

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
schema.config.phases.update(phases=DEPTH["phases"])


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
@pytest.mark.fuzz
@schema.parametrize()
@settings(
    max_examples=DEPTH["reads"], deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
)
def test_no_generated_request_gets_a_server_error(case, fuzz_db):
    _call(case, fuzz_db["anonymous"])


@pytest.mark.slow
@pytest.mark.fuzz
@pytest.mark.parametrize("who", ["director", "player"])
@schema.include(method=["POST", "PUT", "PATCH", "DELETE"]).parametrize()
@settings(
    max_examples=DEPTH["writes"], deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
)
def test_no_generated_write_gets_a_server_error(case, who, fuzz_db):
    _call(case, fuzz_db[who])
