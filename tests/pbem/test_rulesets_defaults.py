"""Every production ruleset's `default_command` goes through a fired
deadline: accepted by its own engine (no bot fallback), recorded, counted."""

from __future__ import annotations

import pytest

from games.models import Deadline, Game
from games.rules import registry
from tests.conftest import register

from .conftest import events_of, start_game, sweep

pytestmark = pytest.mark.django_db(transaction=True)
RULESETS = [r for r in registry.available() if r in registry.PRODUCTION]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_missed_deadlines_play_the_rules_default(api, clock, ruleset):
    rules = registry.get(ruleset)
    people = [register(f"p{i}-{ruleset}"[:30]) for i in range(rules.min_players)]
    g = start_game(
        api,
        people[0],
        people[1:],
        {"seconds_per_decision": 60, "excused_misses": 5},
        ruleset=ruleset,
        players=rules.min_players,
    )
    gid = g["id"]
    for _ in range(3):  # a few successive decisions, all missed
        pending = set(Deadline.objects.filter(game_id=gid, status="open").values_list("seat", flat=True))
        assert pending, "a started game has someone to decide"
        clock.shift(61)
        assert sweep()["fired"] == len(pending)
        if Game.objects.get(id=gid).status != "running":
            break
    missed = [e.payload for e in events_of(gid, "core.DeadlineMissed")]
    assert missed and all(p["source"] == "default" for p in missed), missed
    defaults = [e for e in events_of(gid) if (e.cause or {}).get("default")]
    assert len(defaults) == len(missed)
    assert all(e.actor["system"] == "deadline" for e in defaults)
