"""Every Shogun view, the one before the start included, starts with the kit's common
header (kit.view_header): ruleset, rules version, phase, seats to act, whose view,
ended, each seat's victory points and the turn order (the draft's from its first
player, then each season's once every special card is chosen); a client reads these
instead of guessing from the view's other keys."""

import pytest

from games.rules.base import fold
from games.rules.shogun.rules import RULES
from games.rules.shogun.state import frame_of, phase_of
from games.rules.testing import play_random_game


def test_the_view_before_the_start_has_the_header():
    for seat in (None, 0):
        header = RULES.view(RULES.initial_state(), seat)["header"]
        assert header["ruleset"] == "shogun" and header["phase"] == "init" and header["seat"] == seat
        assert header["to_act"] == [] and header["ended"] is False
        assert header["scores"] == [] and header["order"] == [] and header["private"] == []


@pytest.mark.parametrize("players", [3, 5])
def test_every_view_of_a_game_has_the_scores_and_the_order(players):
    out = play_random_game(RULES, [None] * players, {}, seed=players, check_every=10000, check_views=False)
    state = RULES.initial_state()
    seen_orders = 0
    for count, event in enumerate(out.events):
        state = fold(RULES, [event], state)
        if count % 25:
            continue
        for seat in (None, *range(players)):
            header = RULES.view(state, seat)["header"]
            assert header["seat"] == seat and header["phase"] == phase_of(state)
            assert header["to_act"] == sorted({pending.seat for pending in RULES.pending(state)})
            if phase_of(state) == "init":
                assert header["scores"] == header["order"] == []
                continue
            assert header["scores"] == [p["vp"] for p in state["players"]]
            draft = frame_of(state, "draft")
            if draft is not None:
                assert header["order"][0] == draft["first"]
            elif state["round"] is not None:
                assert header["order"] == state["round"]["order"]
            assert sorted(header["order"]) in ([], list(range(players)))
            seen_orders += bool(header["order"])
    assert seen_orders
    final = RULES.view(out.state, None)["header"]
    assert (
        final["ended"] and final["scores"] == [p["vp"] for p in out.state["players"]] and any(final["scores"])
    )
    assert sorted(final["order"]) == list(range(players))
