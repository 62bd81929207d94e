import pytest

from tests.conftest import create

pytestmark = pytest.mark.django_db
GAMES = "/api/v1/games"


def test_rulesets_lists_options_schema(api):
    r = api.get("/api/v1/rulesets")
    assert r.status_code == 200
    toy = next(x for x in r.json() if x["id"] == "toy-auction")
    assert toy["min_players"] == 2 and toy["options"]["properties"]["coins"]["default"] == 10


def test_create_fills_option_defaults_and_seats_creator(api, host):
    g = create(api, host, players=3, time_control={"seconds_per_decision": 3600})
    assert g["status"] == "open" and g["options"] == {"coins": 10} and g["version"] == 0
    assert g["seats"][0]["user"]["username"] == "hana"
    assert g["time_control"]["seconds_per_decision"] == 3600 and g["time_control"]["excused_misses"] == 2


@pytest.mark.parametrize(
    "body,code",
    [
        ({"ruleset": "chess", "players": 2}, "unknown_ruleset"),
        ({"ruleset": "toy-auction", "players": 9}, "invalid_players"),
        ({"ruleset": "toy-auction", "players": "two"}, "invalid"),
        ({"ruleset": "toy-auction", "players": 2, "options": {"coins": 0}}, "invalid_options"),
        ({"ruleset": "toy-auction", "players": 2, "options": {"colour": "red"}}, "invalid_options"),
        ({"ruleset": "toy-auction", "players": 2, "time_control": {"seconds_per_decision": 1}}, "invalid"),
        (
            {"ruleset": "toy-auction", "players": 2, "time_control": {"seconds_per_decision": 10**8}},
            "invalid",
        ),
        ({"ruleset": "toy-auction", "players": 2, "faction": "purple"}, "invalid_faction"),
    ],
)
def test_bad_creation_is_400_and_writes_nothing(api, host, body, code):
    from games.models import Game

    r = api.as_(host).post(GAMES, body)
    assert r.status_code == 400 and r.json()["code"] == code, r.content
    assert Game.objects.count() == 0


def test_create_needs_a_token(api):
    assert api.post(GAMES, {"ruleset": "toy-auction", "players": 2}).status_code == 401


def test_list_filters(api, host, player, running_game):
    create(api, player, players=3)
    assert api.as_(host).get(GAMES + "?status=running").json()["count"] == 1
    assert api.as_(host).get(GAMES + "?status=open").json()["count"] == 1
    assert api.as_(host).get(GAMES + "?mine=true").json()["count"] == 1
    assert api.as_(player).get(GAMES + "?mine=true").json()["count"] == 2
    assert api.as_(host).get(GAMES + "?ruleset=rising-sun").json()["count"] == 0
    assert api.as_(host).get(GAMES + "?status=bogus").status_code == 400
    page = api.as_(host).get(GAMES + "?limit=1").json()
    assert len(page["results"]) == 1 and page["next"]


def test_unknown_and_malformed_ids_are_404(api, host):
    for gid in ("00000000-0000-0000-0000-000000000000", "not-a-uuid", "1"):
        r = api.as_(host).get(f"{GAMES}/{gid}")
        assert r.status_code == 404 and r.json()["code"] == "game_not_found"
        assert api.as_(host).post(f"{GAMES}/{gid}/seats", {}).status_code == 404


def test_join_paths(api, host, player, outsider, third, open_game):
    gid = open_game["id"]
    url = f"{GAMES}/{gid}/seats"
    assert api.as_(host).post(url, {}).json()["code"] == "already_seated"
    r = api.as_(player).post(url, {"faction": "blue"})
    assert r.status_code == 201 and r.json()["faction"] == "blue" and r.json()["index"] == 1
    full = api.as_(outsider).post(url, {})
    assert full.status_code == 409 and full.json()["code"] == "game_full"


def test_faction_taken_and_unknown(api, host, player, outsider):
    g = create(api, host, players=3, faction="red")
    url = f"{GAMES}/{g['id']}/seats"
    assert api.as_(player).post(url, {"faction": "red"}).json()["code"] == "faction_taken"
    assert api.as_(player).post(url, {"faction": "mauve"}).status_code == 400


def test_bot_seats_are_creator_only(api, host, player, open_game):
    url = f"{GAMES}/{open_game['id']}/seats"
    r = api.as_(player).post(url, {"bot": "random"})
    assert r.status_code == 403 and r.json()["code"] == "not_creator"
    assert api.as_(host).post(url, {"bot": "genius"}).status_code == 400
    r = api.as_(host).post(url, {"bot": "random"})
    assert r.status_code == 201 and r.json()["is_bot"] is True


def test_start_paths(api, host, player, open_game):
    gid = open_game["id"]
    start = f"{GAMES}/{gid}/start"
    assert api.as_(host).post(start).json()["code"] == "seats_not_filled"
    api.as_(player).post(f"{GAMES}/{gid}/seats", {})
    assert api.as_(player).post(start).status_code == 403
    r = api.as_(host).post(start)
    assert r.status_code == 200 and r.json()["status"] == "running" and r.json()["version"] >= 2
    assert all(s["faction"] for s in r.json()["seats"])
    assert r.json()["pending"] and r.json()["chain_head"]
    again = api.as_(host).post(start)
    assert again.status_code == 409 and again.json()["code"] == "game_not_open"
    assert api.as_(player).post(f"{GAMES}/{gid}/seats", {}).status_code == 409


def test_unknown_api_path_is_json_404(api):
    r = api.get("/api/v1/nowhere")
    assert r.status_code == 404 and r.json()["code"] == "not_found"


def test_trailing_slash_is_accepted(api, host):
    assert api.as_(host).get(GAMES + "/").status_code == 200
