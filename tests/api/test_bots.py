import pytest

from games.models import Game
from tests.conftest import create

pytestmark = pytest.mark.django_db(transaction=True)


def test_bots_play_through_the_same_path_until_the_end(api, host, settings):
    settings.SENGOKU = {**settings.SENGOKU, "BOTS_INLINE": True}
    g = create(api, host, players=3)
    for _ in range(2):
        assert api.as_(host).post(f"/api/v1/games/{g['id']}/seats", {"bot": "random"}).status_code == 201
    api.as_(host).post(f"/api/v1/games/{g['id']}/start")
    for _ in range(50):
        meta = api.as_(host).get(f"/api/v1/games/{g['id']}").json()
        if meta["status"] == "finished":
            break
        legal = api.as_(host).get(f"/api/v1/games/{g['id']}/legal-commands").json()
        assert legal["commands"], meta["pending"]  # bots never leave a bot decision pending
        assert (
            api.as_(host)
            .post(f"/api/v1/games/{g['id']}/commands", {"command": legal["commands"][-1]})
            .status_code
            == 201
        )
    game = Game.objects.get(id=g["id"])
    assert game.status == "finished"
    feed = api.as_(host).get(f"/api/v1/games/{g['id']}/events?limit=1000").json()["results"]
    bot_moves = [e for e in feed if e.get("actor") and "bot" in e["actor"]]
    assert bot_moves and {e["actor"]["seat"] for e in bot_moves} == {1, 2}
