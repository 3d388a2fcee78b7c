"""Random Swiss events checked round by round (as FIDE asks of a pairing engine): a random field of 3–24 players,
random results giving the ranking, random withdrawals, several rounds, each seated by the engine and each seating
checked by the checker (pairing-spec §5)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from preferans.pairing.check import check
from preferans.pairing.enumerate import ENUMERATION_LIMIT
from preferans.pairing.simulate import random_event


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(3, 24),
    rounds=st.integers(1, 4),
    per_table=st.sampled_from([3, 4]),
)
def test_every_round_of_a_random_event_is_valid_and_least(seed, players, rounds, per_table) -> None:
    """Pairing §5: «every active player once, sizes as §1, byes as §1; R and D computed as above; the seating is
    correct iff (R, D) equals the least (R, D)» — proved by enumeration up to 12 players; above, whenever the
    engine says ``optimal`` its (R, D) is not beaten by a second search."""
    rng = random.Random(seed)
    for data, seating in random_event(rng, players, rounds, per_table, withdraw=0.1, seconds=2):
        checked = check(
            "swiss", data.per_table, data.players, data.history, seating.tables, seating.byes, time_limit=2
        )
        assert checked.valid, checked.problems
        assert (checked.repeats, checked.displacement) == (seating.repeats, seating.displacement)
        if seating.optimal or len(data.players) <= ENUMERATION_LIMIT:
            assert checked.correct, (checked.least, seating)
