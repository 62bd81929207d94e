"""Issue 16 item 3: every pending seat gets at least one concrete legal command
from legal-commands (listed, or among the samples when only templates describe
the family, e.g. Shogun's planning), and the game's `pending` says plainly who
must act. Random games of every ruleset through the services; each step plays a
command taken from what legal-commands offered, so offered samples must be legal."""

from __future__ import annotations

import json
import random

import pytest
from django.contrib.auth import get_user_model

from games.models import Game
from games.rules import registry
from games.services import lobby, play, reading
from games.services.state import load_state

pytestmark = pytest.mark.django_db
RULESETS = ["toy-auction", *registry.PRODUCTION]
STEPS = 400


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_pending_seat_is_offered_a_legal_command(ruleset):
    rules = registry.get(ruleset)
    user_model = get_user_model()
    users = [user_model.objects.create_user(f"p{i}", password="x") for i in range(rules.max_players)]
    game = lobby.create_game(users[0], ruleset, rules.min_players)
    for u in users[1 : rules.min_players]:
        lobby.join(game.id, u)
    lobby.start(game.id, users[0])
    rnd = random.Random(5)
    kinds_seen = set()
    for _ in range(STEPS):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        pend = rules.pending(load_state(game))
        meta = reading.game_json(game, users[0])
        assert [(p["seat"], p["kind"]) for p in meta["pending"]] == [(p.seat, p.kind) for p in pend]
        for p in meta["pending"]:
            assert p["user"] == users[p["seat"]].username and p["faction"] and p["is_bot"] is False
        offered = {}
        for p in pend:
            legal = reading.legal(game, users[p.seat])
            assert legal["pending"] is True
            choices = legal["commands"] or legal["samples"]
            assert choices, f"{ruleset}: seat {p.seat} pending {p.kind} is offered no concrete command"
            offered[p.seat] = choices
            kinds_seen.add(p.kind)
        for s in set(range(rules.min_players)) - set(offered):
            assert reading.legal(game, users[s])["pending"] is False
        seat = rnd.choice(sorted(offered))
        done = play.submit(game.id, users[seat], json.loads(json.dumps(rnd.choice(offered[seat]))))
        assert done.version == game.__class__.objects.get(pk=game.pk).version and not done.replayed
    assert kinds_seen
    if ruleset == "shogun":
        assert "plan" in kinds_seen  # the template-only decision was reached and played from samples
