"""Every game endpoint, every persona: no token → 401, unknown game → 404,
spectator/outsider → what they may see (or 403 where only seats may act)."""

import pytest

pytestmark = pytest.mark.django_db

GAME_GETS = ["", "/view", "/legal-commands", "/events", "/replay?version=1", "/audit", "/export"]
GAME_POSTS = ["/seats", "/start", "/commands"]
UNKNOWN = "/api/v1/games/11111111-2222-3333-4444-555555555555"


@pytest.mark.parametrize("tail", GAME_GETS)
def test_gets_need_a_token_and_a_real_game(api, host, running_game, tail):
    base = f"/api/v1/games/{running_game['id']}"
    assert api.get(base + tail).status_code == 401
    assert api.as_(host).get(UNKNOWN + tail).status_code == 404
    assert api.as_(host).get(base + tail).status_code == 200


@pytest.mark.parametrize("tail", GAME_GETS)
def test_outsiders_read_the_public_side(api, outsider, running_game, tail):
    r = api.as_(outsider).get(f"/api/v1/games/{running_game['id']}{tail}")
    assert r.status_code == 200


@pytest.mark.parametrize("tail", GAME_POSTS)
def test_posts_need_a_token_and_a_real_game(api, host, tail):
    assert api.post(UNKNOWN + tail, {}).status_code == 401
    r = api.as_(host).post(UNKNOWN + tail, {"command": {"type": "bid", "amount": 0}})
    assert r.status_code == 404 and r.json()["code"] == "game_not_found"


def test_outsider_forbidden_and_conflicts(api, host, player, outsider, running_game):
    base = f"/api/v1/games/{running_game['id']}"
    assert api.as_(outsider).post(base + "/start").status_code == 403
    assert (
        api.as_(outsider).post(base + "/commands", {"command": {"type": "bid", "amount": 0}}).status_code
        == 403
    )
    assert api.as_(outsider).post(base + "/seats", {}).status_code == 409  # running: no more joins
    assert api.as_(player).post(base + "/commands", {"command": {"type": "keep"}}).status_code == 422
