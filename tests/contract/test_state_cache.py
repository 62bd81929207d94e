"""The in-process state cache only learns versions that committed: a command
whose transaction rolls back must not leave its state behind for a version
number that later belongs to different events."""

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

from games.models import Game
from games.services import lobby, play
from games.services.state import _cache_get, load_state

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
    assert load_state(game).bids[0][1] == 1
