"""Bot seats of every kind, in every ruleset, play through the same path as
people until the game ends; zombie seats play the heuristic; /rulesets says
which bots there are."""

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
    settings.SENGOKU = {**settings.SENGOKU, "BOTS_INLINE": True}
    g = create(api, host, ruleset=ruleset, players=players)
    for kind in kinds:
        r = api.as_(host).post(f"/api/v1/games/{g['id']}/seats", {"bot": kind})
        assert r.status_code == 201 and r.json()["is_bot"] is True
    assert api.as_(host).post(f"/api/v1/games/{g['id']}/start").status_code == 200
    for _ in range(1500):
        meta = api.as_(host).get(f"/api/v1/games/{g['id']}").json()
        if meta["status"] == "finished":
            break
        legal = api.as_(host).get(f"/api/v1/games/{g['id']}/legal-commands").json()
        options = legal["commands"] or legal["samples"]
        assert options, meta["pending"]  # bots never leave a bot decision pending
        r = api.as_(host).post(f"/api/v1/games/{g['id']}/commands", {"command": options[-1]})
        assert r.status_code == 201, r.content
    assert Game.objects.get(id=g["id"]).status == "finished"
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
