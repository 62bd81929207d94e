"""The salt rule over every ruleset, through the real services (issue 10 item 1):
every event private to some seats carries ``payload.salt`` (32 lowercase hex
characters) drawn from the decision's Rng, unique within the game, so nobody
can brute-force a redacted event from its public hash.

Each game is played by seeded random commands with a private press message
sent on the way (so platform events are checked too), then its full export is
checked line by line and by the standalone verifier."""

from __future__ import annotations

import json
import random

import pytest
from django.contrib.auth import get_user_model

from events.codec import SALT_RE, platform_salt
from games import verify
from games.bots import choose
from games.models import Game
from games.rules import registry
from games.services import audit, lobby, play, press
from games.services.state import load_state

pytestmark = pytest.mark.django_db

RULESETS = ["toy-auction", *registry.PRODUCTION]
MAX_COMMANDS = 6000


def _play_with_press(ruleset: str, seed: int):
    rules = registry.get(ruleset)
    if rules is None:
        pytest.skip(f"{ruleset} engine not available")
    users = [get_user_model().objects.create_user(f"s{i}", password="x") for i in range(rules.min_players)]
    game = lobby.create_game(users[0], ruleset, rules.min_players)
    for u in users[1:]:
        lobby.join(game.id, u)
    lobby.start(game.id, users[0])
    rnd = random.Random(seed)
    for n in range(MAX_COMMANDS):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        if n in (1, 7):  # "yes" to one seat: exactly the short private press the issue brute-forced
            press.send(game.id, users[0], "yes", [1])
        state = load_state(game)
        p = rnd.choice(rules.pending(state))
        done = play.submit(game.id, users[p.seat], json.loads(json.dumps(choose(rules, state, p.seat, rnd))))
        assert done.version == game.__class__.objects.get(pk=game.pk).version and not done.replayed
    else:
        pytest.fail("game did not finish")
    game.refresh_from_db()
    return game, users


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_private_event_of_every_ruleset_is_salted(ruleset):
    game, users = _play_with_press(ruleset, seed=3)
    rows = [json.loads(line) for line in audit.export_lines(game, users[0])]  # finished: the full export
    private = [r for r in rows if r.get("visible_to") is not None]
    assert any(r["type"] == "core.MessageSent" for r in private)
    seen: dict[str, int] = {}
    for r in private:
        salt = r["payload"].get("salt")
        assert isinstance(salt, str) and SALT_RE.fullmatch(salt), f"seq {r['seq']} {r['type']}: salt {salt!r}"
        assert salt not in seen, f"seq {r['seq']} {r['type']} reuses the salt of seq {seen[salt]}"
        seen[salt] = r["seq"]
        # a private core.ChoiceCommitted (a secret offer's commitment) is the engine's
        # event, salted by it; the verifier's replay below re-derives that salt
        if r["type"].startswith("core.") and r["type"] != "core.ChoiceCommitted":
            assert salt == platform_salt(game.seed, r["seq"])
    report = verify.verify(rows)
    assert report.salts_ok and report.ok, verify.format_report(report)
