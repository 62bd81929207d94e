"""The web client's pages through Django's test client (no browser): who may
see what, the session on the API with CSRF, and page weight."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import profile_of
from games import verify
from games.models import Game
from games.pbem import emails
from games.services import background, deadlines, lobby, play, reading
from games.services.notify import game_payload

pytestmark = pytest.mark.django_db
PAGE_BUDGET = 200 * 1024


@pytest.fixture
def hana():
    return get_user_model().objects.create_user("hana", "", "a-l0ng-passphrase!")


@pytest.fixture
def outsider():
    return get_user_model().objects.create_user("goro", "", "a-l0ng-passphrase!")


def client_for(user, csrf: bool = False) -> Client:
    c = Client(enforce_csrf_checks=csrf)
    c.force_login(user)
    return c


def running_game(user, ruleset: str = "imjin", players: int = 2) -> Game:
    g = lobby.create_game(user, ruleset, players, {}, None)
    for _ in range(players - 1):
        lobby.join(g.id, user, bot="random")
    lobby.start(g.id, user)
    return Game.objects.get(pk=g.pk)


def finish(game: Game, user) -> Game:
    for _ in range(3000):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        legal = reading.legal(game, user)
        if legal["pending"]:
            cmd = (legal["commands"] or legal["samples"])[0]
            play.submit(game.id, user, cmd, legal["version"])
        else:
            background.play_bots(game.id)
    assert game.status == Game.Status.FINISHED
    return game


def test_root_is_the_lobby_and_links_the_api_docs():
    r = Client().get("/")
    assert r.status_code == 200 and b'href="/api/v1/docs"' in r.content
    assert len(r.content) < PAGE_BUDGET


def test_sign_up_signs_in_and_returns_to_next():
    r = Client().post(
        "/accounts/signup?next=/accounts/settings",
        {
            "username": "mei",
            "password1": "a-l0ng-passphrase!",
            "password2": "a-l0ng-passphrase!",
            "next": "/accounts/settings",
        },
    )
    assert r.status_code == 302 and r["Location"] == "/accounts/settings"
    assert get_user_model().objects.filter(username="mei").exists()


def test_sign_up_refuses_an_outside_next():
    r = Client().post(
        "/accounts/signup",
        {
            "username": "mei",
            "password1": "a-l0ng-passphrase!",
            "password2": "a-l0ng-passphrase!",
            "next": "https://evil.example/",
        },
    )
    assert r.status_code == 302 and r["Location"] == "/"


def test_create_game_with_bots_starts_it_with_heuristic_bots(hana):
    """A person sitting down against bots gets opponents that play to the score."""
    r = client_for(hana).post(
        "/games/new", {"ruleset": "rising-sun", "players": 3, "bots": 2, "time": "1d", "options": "{}"}
    )
    assert r.status_code == 302
    game = Game.objects.get()
    assert r["Location"] == f"/games/{game.id}"
    assert game.status == Game.Status.RUNNING and game.seats.filter(bot="heuristic").count() == 2
    assert game.time_control["seconds_per_decision"] == 86400


@pytest.mark.parametrize("kind", ["mcts", "random", "heuristic"])
def test_create_game_seats_the_bots_chosen(hana, kind):
    r = client_for(hana).post(
        "/games/new", {"ruleset": "shogun", "players": 3, "bots": 2, "bot_kind": kind, "options": "{}"}
    )
    assert r.status_code == 302
    game = Game.objects.get()
    assert sorted(s.bot or "" for s in game.seats.all()) == ["", kind, kind]


def test_create_game_with_an_unknown_bot_is_a_400_and_creates_nothing(hana):
    r = client_for(hana).post(
        "/games/new", {"ruleset": "shogun", "players": 3, "bots": 2, "bot_kind": "oracle", "options": "{}"}
    )
    assert r.status_code == 400 and b"oracle is not one of the available choices" in r.content
    assert not Game.objects.exists()


def test_the_lobby_offers_each_bot_kind(hana):
    page = client_for(hana).get("/").content.decode()
    for kind in ("heuristic", "mcts", "random"):
        assert f'<option value="{kind}"' in page


def test_create_game_with_bad_options_is_a_400_with_the_reason(hana):
    r = client_for(hana).post(
        "/games/new", {"ruleset": "rising-sun", "players": 3, "bots": 2, "options": '{"nope": 1}'}
    )
    assert r.status_code == 400 and b"invalid option" in r.content
    assert not Game.objects.exists()


def test_private_game_invite_link_lets_another_player_join(hana, outsider):
    client_for(hana).post(
        "/games/new", {"ruleset": "imjin", "players": 2, "bots": 0, "private": "on", "options": "{}"}
    )
    game = Game.objects.get()
    c = client_for(outsider)
    assert c.get(f"/games/{game.id}").status_code == 404
    assert c.get(f"/games/{game.id}?invite={game.invite_code}").status_code == 200
    assert c.post(f"/games/{game.id}/join", {"invite": "wrong"}).status_code == 302
    assert not game.seats.filter(user=outsider).exists()
    c.post(f"/games/{game.id}/join", {"invite": game.invite_code})
    assert game.seats.filter(user=outsider).exists()


def test_game_page_sends_strangers_to_sign_in_and_back(hana):
    game = running_game(hana)
    r = Client().get(f"/games/{game.id}")
    assert r.status_code == 302 and r["Location"] == f"/accounts/signin?next=/games/{game.id}"
    r = client_for(hana).get(f"/games/{game.id}")
    assert r.status_code == 200 and len(r.content) < PAGE_BUDGET


def test_lobby_shows_my_turn_first(hana):
    game = running_game(hana, "rising-sun", 3)
    r = client_for(hana).get("/")
    assert r.status_code == 200 and f'data-game="{game.id}"'.encode() in r.content
    assert b"Your turn" in r.content


def test_replay_and_audit_of_a_running_game_are_for_its_players(hana, outsider):
    game = running_game(hana)
    for path in (f"/games/{game.id}/replay", f"/games/{game.id}/audit", f"/games/{game.id}/replay/1.json"):
        assert client_for(hana).get(path).status_code == 200, path
        assert client_for(outsider).get(path).status_code == 403, path
    assert Client().get(f"/games/{game.id}/replay").status_code == 302


def test_finished_public_games_replay_and_audit_without_an_account(hana, tmp_path):
    game = finish(running_game(hana), hana)
    anon = Client()
    r = anon.get(f"/games/{game.id}/replay")
    assert r.status_code == 200 and len(r.content) < PAGE_BUDGET
    r = anon.get(f"/games/{game.id}/replay/2.json")
    assert r.status_code == 200 and r.json()["version"] == 2 and r.json()["seats"] is not None
    assert anon.get(f"/games/{game.id}/replay/{game.version + 1}.json").status_code == 400
    r = anon.get(f"/games/{game.id}/audit")
    assert r.status_code == 200 and b"passed" in r.content and game.seed.encode() in r.content
    r = anon.get(f"/games/{game.id}/export.jsonl")
    assert r.status_code == 200 and len(r.content.splitlines()) == game.version
    # the command the audit page shows, on the file it offers
    export = tmp_path / f"{game.ruleset}-{game.id}.jsonl"
    export.write_bytes(r.content)
    assert f"python -m games.verify {export.name}" in anon.get(f"/games/{game.id}/audit").content.decode()
    assert verify.main([str(export)]) == 0


def test_the_api_takes_the_session_but_writes_need_the_csrf_token(hana):
    game = running_game(hana, "rising-sun", 3)
    c = client_for(hana, csrf=True)
    assert c.get(f"/api/v1/games/{game.id}/view").status_code == 200
    legal = c.get(f"/api/v1/games/{game.id}/legal-commands").json()
    body = {"command": legal["commands"][0], "expected_version": legal["version"]}
    r = c.post(f"/api/v1/games/{game.id}/commands", body, content_type="application/json")
    assert r.status_code == 403 and r.json()["code"]
    c.get("/")  # the page sets the CSRF cookie
    token = c.cookies["csrftoken"].value
    r = c.post(
        f"/api/v1/games/{game.id}/commands",
        body,
        content_type="application/json",
        headers={"X-CSRFToken": token},
    )
    assert r.status_code == 201, r.content


def test_unknown_and_malformed_game_ids_are_404_pages(hana):
    c = client_for(hana)
    for gid in ("not-a-uuid", "00000000-0000-0000-0000-000000000000"):
        assert c.get(f"/games/{gid}").status_code == 404
        assert c.get(f"/games/{gid}/replay").status_code == 404


def test_the_email_link_leads_to_the_game_page(hana, settings):
    game = running_game(hana)
    body = emails.build(
        hana, profile_of(hana), {"kind": "game_started", "game": game_payload(game), "seat": 0}
    ).body
    link = next(line.split(" ", 1)[1] for line in body.splitlines() if line.startswith("Game: "))
    assert link == f"{settings.PUBLIC_BASE_URL}/games/{game.id}"
    path = link.removeprefix(settings.PUBLIC_BASE_URL)
    assert Client().get(path)["Location"] == f"/accounts/signin?next={path}"
    assert client_for(hana).get(path).status_code == 200


def _weight(client: Client, path: str) -> int:
    """The page and every script and stylesheet it loads, in bytes."""
    r = client.get(path)
    assert r.status_code == 200, path
    total = len(r.content)
    for asset in set(re.findall(rb'(?:src|href)="(/static/[^"]+)"', r.content)):
        a = client.get(asset.decode())
        assert a.status_code == 200, asset
        total += len(b"".join(a.streaming_content) if a.streaming else a.content)
    return total


def test_every_page_with_its_assets_is_under_200_kb(hana):
    game = finish(running_game(hana), hana)
    c = client_for(hana)
    for path in (
        "/",
        f"/games/{game.id}",
        f"/games/{game.id}/replay",
        f"/games/{game.id}/audit",
        "/accounts/settings",
    ):
        assert _weight(c, path) < PAGE_BUDGET, path
    assert _weight(Client(), "/accounts/signup") < PAGE_BUDGET


def test_open_games_filter_by_ruleset_players_and_time(hana, outsider):
    c = client_for(hana)
    c.post("/games/new", {"ruleset": "rising-sun", "players": 4, "bots": 1, "time": "1d", "options": "{}"})
    c.post("/games/new", {"ruleset": "imjin", "players": 2, "bots": 0, "options": "{}"})
    rs, imjin = Game.objects.get(ruleset="rising-sun"), Game.objects.get(ruleset="imjin")
    o = client_for(outsider)

    def listed(query: str) -> set[str]:
        body = o.get("/?" + query).content.decode()
        return {str(g.id) for g in (rs, imjin) if f"/games/{g.id}/join" in body}

    assert listed("") == {str(rs.id), str(imjin.id)}
    assert listed("ruleset=imjin") == {str(imjin.id)}
    assert listed("players=4") == {str(rs.id)}
    assert listed("time=timed") == {str(rs.id)}
    assert listed("time=untimed") == {str(imjin.id)}
    assert "/join" not in c.get("/").content.decode()  # not offered to join your own game


def test_my_games_show_the_deadline(hana):
    client_for(hana).post(
        "/games/new", {"ruleset": "rising-sun", "players": 3, "bots": 2, "time": "1d", "options": "{}"}
    )
    deadlines.sync(Game.objects.get().id)  # the background work that opens deadlines
    body = client_for(hana).get("/").content.decode()
    assert "Your turn" in body and "due in 23\xa0hours" in body, re.findall(
        r"<time[^>]*>[^<]*</time>|badge[^<]*", body
    )


def test_pages_load_nothing_from_elsewhere(hana):
    """No CDN: every script, stylesheet and link target is served by this server."""
    game = running_game(hana)
    c = client_for(hana)
    for path in (
        "/",
        f"/games/{game.id}",
        f"/games/{game.id}/replay",
        f"/games/{game.id}/audit",
        "/accounts/settings",
    ):
        html = c.get(path).content.decode()
        outside = [u for u in re.findall(r'(?:src|href|action)="([^"]*)"', html) if "//" in u]
        assert outside == [], (path, outside)
    for script in (
        "web/game.js",
        "web/replay.js",
        "web/api.js",
        "web/forms.js",
        "web/lobby.js",
        "web/settings.js",
    ):
        body = b"".join(c.get(f"/static/{script}").streaming_content).decode()
        assert "http://" not in body and "https://" not in body, script
