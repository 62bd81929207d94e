"""The in-process state cache only learns versions that committed: a command
whose transaction rolls back must not leave its state behind for a version
number that later belongs to different events."""

import random

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

from games.models import Game
from games.services import lobby, play
from games.services import state as state_mod
from games.services.state import _cache_get, load_state
from tests.audit import driver

pytestmark = pytest.mark.django_db(transaction=True)


def test_rolled_back_command_leaves_no_cached_state():
    user_model = get_user_model()
    a, b = (
        user_model.objects.create_user("ca", password="x"),
        user_model.objects.create_user("cb", password="x"),
    )
    game = lobby.create_game(a, "toy-auction", 2)
    lobby.join(game.id, b)
    game = lobby.start(game.id, a)
    v = game.version
    with pytest.raises(RuntimeError), transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        play.apply(locked, locked.seats.get(index=0), {"type": "bid", "amount": 3}, v, actor={"seat": 0})
        raise RuntimeError("something after the append failed")
    assert _cache_get(game.id, v + 2) == (False, None)
    # the same version numbers now come from different events, and are read as such
    play.submit(game.id, a, {"type": "bid", "amount": 1})
    game.refresh_from_db()
    assert load_state(game)["bids"][0][1] == 1


def test_a_miss_folds_from_the_newest_cached_state_before_it(django_assert_num_queries):
    """Another process committed the last versions: this one folds only those
    events onto the state it had (one query), not a snapshot and its tail."""
    game = driver.new_game("rising-sun", 3, names=("hana", "kenji", "mitsu"))
    rnd = random.Random(2)
    for _ in range(12):
        assert driver.step(game, rnd)
    game.refresh_from_db()
    target = game.version
    state_mod.clear_cache()
    before = state_mod.load_state(game, upto=target - 5, use_snapshots=False)
    state_mod.clear_cache()
    state_mod.cache_put(game.id, target - 5, before)
    with django_assert_num_queries(1):  # the five events, no snapshot read
        got = state_mod.load_state(game, upto=target)
    state_mod.clear_cache()
    assert got == state_mod.load_state(game, upto=target, use_snapshots=False)
