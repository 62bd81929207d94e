"""Bot seats of every kind, in every ruleset, play through the same path as
people until the game ends; zombie seats play the heuristic; /rulesets says
which bots there are."""

import random

import pytest

from events.models import StoredEvent
from games.models import Game, Seat
from games.services import background
from tests.conftest import create

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    ("ruleset", "players", "kinds"),
    [("rising-sun", 3, ["heuristic", "mcts"]), ("shogun", 3, ["mcts", "heuristic"]), ("imjin", 2, ["mcts"])],
)
def test_heuristic_and_mcts_seats_play_a_whole_game(api, host, settings, ruleset, players, kinds):
    # a search bot's thinking time is not what this test is about: a short budget keeps it quick
    settings.SENGOKU = {**settings.SENGOKU, "BOTS_INLINE": True, "BOT_MCTS_SECONDS": 0.05}
    rnd = random.Random(0)
    g = create(api, host, ruleset=ruleset, players=players)
    for kind in kinds:
        r = api.as_(host).post(f"/api/v1/games/{g['id']}/seats", {"bot": kind})
        assert r.status_code == 201 and r.json()["is_bot"] is True
    assert api.as_(host).post(f"/api/v1/games/{g['id']}/start").status_code == 200
    moves = 0
    while moves < 1500:
        moves += 1
        meta = api.as_(host).get(f"/api/v1/games/{g['id']}").json()
        if meta["status"] == "finished":
            break
        legal = api.as_(host).get(f"/api/v1/games/{g['id']}/legal-commands").json()
        options = legal["commands"] or legal["samples"]
        assert options, meta["pending"]  # bots never leave a bot decision pending
        # Seeded random play: always the last option could drag an Imjin game past the
        # loop's bound (it did once in 1,500 moves); random games end (bench/bots.py).
        r = api.as_(host).post(f"/api/v1/games/{g['id']}/commands", {"command": rnd.choice(options)})
        assert r.status_code == 201, r.content
    assert Game.objects.get(id=g["id"]).status == "finished", f"not over after {moves} moves of the host"
    actors = StoredEvent.objects.filter(stream=g["id"]).values_list("actor", flat=True)
    played = {a["bot"] for a in actors if a and "bot" in a}
    assert played == set(kinds)


def test_an_unknown_bot_is_a_400_with_its_code(api, host, open_game):
    r = api.as_(host).post(f"/api/v1/games/{open_game['id']}/seats", {"bot": "alphazero"})
    assert r.status_code == 400 and r.json()["code"] == "invalid_bot"


def test_rulesets_list_the_bots(api):
    for r in api.get("/api/v1/rulesets").json():
        assert r["bots"] == ["random", "heuristic", "mcts"]


def test_a_zombie_seat_plays_the_heuristic():
    assert background.policy_of(Seat(bot="", zombie=True)) == "heuristic"
    assert background.policy_of(Seat(bot="mcts")) == "mcts"
