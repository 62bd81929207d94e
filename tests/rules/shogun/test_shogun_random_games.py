"""Seeded random full games through the shared contract checker (every player count and
option family)."""

import pytest

from games.rules.shogun.rules import RULES
from games.rules.testing import play_random_game

FAMILIES = [
    (3, {}),
    (4, {}),
    (5, {}),
    (3, {"tennos_court": False}),
    (4, {"tennos_court": False, "setup": "beginner"}),
    (5, {"samurai": True}),
    (4, {"samurai": True, "revolt_order": "marker_first"}),
    (3, {"setup": "beginner", "samurai": True, "revolt_order": "marker_first"}),
    (5, {"setup": "beginner", "tennos_court": False}),
    (4, {"board": "moon"}),
    (3, {"board": "moon", "setup": "beginner", "samurai": True}),
    # the house-rule options of rules version 3
    (4, {"forced_execution": True, "court_conversion": "up_to"}),
    (5, {"recruit1": "mandatory", "theatre_calms": "one", "forced_execution": True}),
    (3, {"court_conversion": "up_to", "recruit1": "mandatory", "setup": "beginner"}),
]


@pytest.mark.parametrize("players,options", FAMILIES)
@pytest.mark.parametrize("seed", [1, 2])
def test_random_game_is_sound(players, options, seed):
    out = play_random_game(RULES, [None] * players, options, seed, max_commands=4000, check_every=60)
    result = RULES.outcome(out.state)
    assert result is not None
    assert set(result.scores) == set(range(players))
    best = max(result.scores.values())
    assert set(result.winners) == {s for s, v in result.scores.items() if v == best}
    assert out.commands < 1000


def test_chosen_colours_are_kept():
    out = play_random_game(RULES, ["black", None, "red"], {}, 3, check_every=500, check_views=False)
    colours = out.state["colours"]
    assert colours[0] == "black" and colours[2] == "red"
    assert len(set(colours)) == 3


@pytest.mark.parametrize("options", [{}, {"forced_execution": True, "recruit1": "mandatory"}])
def test_default_commands_alone_finish_a_game(options):
    """A table where every deadline is missed still reaches the end (also when revealed
    actions must be executed: the default then moves rather than declines)."""
    from shogun_helpers import roundtrip

    from games.rules.base import fold, rng_factory

    events = roundtrip(RULES.start([None] * 4, options, rng_factory("d", 1)))
    state = fold(RULES, events)
    for _ in range(3000):
        if RULES.outcome(state):
            break
        p = RULES.pending(state)[0]
        cmd = RULES.default_command(state, p.seat)
        new = roundtrip(RULES.decide(state, p.seat, cmd, rng_factory("d", len(events) + 1)))
        events += new
        state = fold(RULES, new, state)
    assert RULES.outcome(state) is not None
    assert fold(RULES, events) == state
