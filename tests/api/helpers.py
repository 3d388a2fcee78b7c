from __future__ import annotations

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from duplicate import at_table, table_rows
from scoring.models import Result
from tests.table.factory import legal_row, make_event, player_auth
from tournaments.models import Participant, Table


def client_for(actor: str, director=None, other_user=None) -> APIClient:
    c = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    t1, t2 = Table.objects.get(code="TAB1TT"), Table.objects.get(code="TAB2TT")
    if actor == "director":
        c.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=director)[0].key}")
    elif actor == "user":
        c.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=other_user)[0].key}")
    elif actor.startswith("player"):  # player1 … player4 at table 1
        c.credentials(HTTP_AUTHORIZATION=player_auth(t1, int(actor[6:])))
    elif actor == "other_table":  # participant 5, N at table 2, with his own table's code
        c.credentials(HTTP_AUTHORIZATION=player_auth(t2, 5))
    elif actor == "intruder":  # participant 5 trying table 1's code with his own PIN
        c.credentials(HTTP_AUTHORIZATION=player_auth(t1, 5))
    return c


def enter(board: int = 2, dealer: str = "E") -> Result:
    state = at_table.table_state(Table.objects.get(code="TAB1TT"))
    n = Participant.objects.get(tournament__slug="tt", number=1)
    result, _ = table_rows.table_submit(
        state=state, participant=n, board_number=board, row=legal_row(4, dealer), now=timezone.now()
    )
    return result


@pytest.fixture
def event(director):
    return make_event(director=director)
