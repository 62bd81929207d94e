"""GET /games/{id}/board.svg: the picture of the caller's view, for every seat
and a spectator, now and at a past version; errors are JSON."""

from __future__ import annotations

import json
import random

import pytest

from games import board
from games.bots import choose
from games.models import Game
from games.plugins import layer
from games.rules import registry
from games.services import play
from games.services.state import load_state
from tests.board.support import parse, pieces, provinces
from tests.conftest import create

pytestmark = pytest.mark.django_db

PLAYERS = {"rising-sun": 3, "imjin": 2, "shogun": 3}


def u(g, tail):
    return f"/api/v1/games/{g['id']}/{tail}"


def started(api, ruleset, personas):
    g = create(api, personas[0], ruleset=ruleset, players=len(personas))
    for who in personas[1:]:
        assert api.as_(who).post(u(g, "seats"), {}).status_code == 201
    r = api.as_(personas[0]).post(u(g, "start"))
    assert r.status_code == 200, r.content
    return r.json()


def advance(g, users, commands: int | None, seed=5):
    """Bot moves for the seated users through the services (None: to the end)."""
    game = Game.objects.get(id=g["id"])
    rules = registry.get(game.ruleset)
    rnd = random.Random(seed)
    done = 0
    while game.status == Game.Status.RUNNING and (commands is None or done < commands):
        state = load_state(game)
        p = rnd.choice(rules.pending(state))
        play.submit(game.id, users[p.seat], json.loads(json.dumps(choose(rules, state, p.seat, rnd))))
        game.refresh_from_db()
        done += 1
    return game


@pytest.fixture
def personas(host, player, third):
    return [host, player, third]


def users_of(g):
    game = Game.objects.get(id=g["id"])
    return [s.user for s in game.seats.order_by("index")]


def svg_of(api, who, g, query=""):
    r = api.as_(who).get(u(g, "board.svg") + query)
    assert r.status_code == 200, r.content
    assert r["Content-Type"].startswith("image/svg+xml")
    return parse(r.content.decode())


@pytest.mark.parametrize("ruleset", ["rising-sun", "imjin", "shogun"])
@pytest.mark.parametrize("finished", [False, True])
def test_each_persona_gets_the_pieces_of_their_own_view(api, personas, outsider, ruleset, finished):
    who = personas[: PLAYERS[ruleset]]
    g = started(api, ruleset, who)
    advance(g, users_of(g), None if finished else 40)
    for persona in [*who, outsider]:
        view = api.as_(persona).get(u(g, "view")).json()
        root = svg_of(api, persona, g)
        assert set(provinces(root).values()) == {1}
        # the picture of that view, as the pure renderer draws it
        want = parse(board.render(layer(ruleset), view["state"]))
        assert pieces(root) == pieces(want) and pieces(root, where="panel") == pieces(want, where="panel")
        assert provinces(root) == provinces(want)


@pytest.mark.parametrize("ruleset", ["rising-sun", "imjin", "shogun"])
def test_version_matches_the_replay_at_that_version(api, personas, ruleset):
    g = started(api, ruleset, personas[: PLAYERS[ruleset]])
    advance(g, users_of(g), 30)
    for version in (2, 15, 31):
        for persona in (personas[0], personas[2]):  # a seat, and a spectator in the 2-player game
            then = api.as_(persona).get(u(g, "replay") + f"?version={version}").json()
            root = svg_of(api, persona, g, f"?version={version}")
            want = parse(board.render(layer(ruleset), then["state"]))
            assert pieces(root) == pieces(want) and pieces(root, where="panel") == pieces(want, where="panel")
    early, now = svg_of(api, personas[0], g, "?version=2"), svg_of(api, personas[0], g)
    assert pieces(early) != pieces(now)


def test_errors_are_json(api, personas, outsider, open_game):
    g = started(api, "rising-sun", personas)
    cases = [
        ("?version=0", 400, "invalid_version"),
        ("?version=abc", 400, "invalid_version"),
        ("?version=999", 400, "invalid_version"),
        ("?lang=%3Cscript%3E", 400, "unsupported_language"),
        ("?lang=xx", 400, "unsupported_language"),
    ]
    for query, status, code in cases:
        r = api.as_(outsider).get(u(g, "board.svg") + query)
        assert r.status_code == status and r.json()["code"] == code, (query, r.content)
        assert r["Content-Type"].startswith("application/json")
    assert api.get(u(g, "board.svg")).status_code == 401
    missing = api.as_(outsider).get("/api/v1/games/00000000-0000-0000-0000-000000000000/board.svg")
    assert missing.status_code == 404 and missing.json()["code"] == "game_not_found"
    toy = api.as_(personas[0]).get(u(open_game, "board.svg"))
    assert toy.status_code == 404 and toy.json()["code"] == "not_found"  # the toy ruleset has no board
    rs_open = create(api, personas[0], ruleset="rising-sun", players=3)
    r = api.as_(personas[0]).get(u(rs_open, "board.svg"))
    assert r.status_code == 409 and r.json()["code"] == "game_not_running"


def test_etag_and_accept(api, personas):
    g = started(api, "rising-sun", personas)
    r = api.as_(personas[0]).get(u(g, "board.svg"), HTTP_ACCEPT="image/svg+xml")
    assert r.status_code == 200 and r["ETag"]
    again = api.as_(personas[0]).get(u(g, "board.svg"), HTTP_IF_NONE_MATCH=r["ETag"])
    assert again.status_code == 304
    assert api.as_(personas[0]).get(u(g, "board.svg"), HTTP_ACCEPT="application/json").status_code == 200


def test_the_game_name_is_text_not_markup(api, personas):
    g = create(api, personas[0], ruleset="imjin", players=2, name='<script>alert(1)</script> & "x"')
    assert api.as_(personas[1]).post(u(g, "seats"), {}).status_code == 201
    assert api.as_(personas[0]).post(u(g, "start")).status_code == 200
    root = svg_of(api, personas[0], g)
    assert not [el for el in root.iter() if el.tag.endswith("script")]
    assert any("<script>" in (el.text or "") for el in root.iter())


def test_province_names_follow_the_language(api, personas):
    """The names are the catalogue's in the caller's language: ?lang=, else the account's."""
    g = started(api, "rising-sun", personas)

    def titles(query=""):
        root = svg_of(api, personas[0], g, query)
        return {
            el.get("data-province"): el.findtext("{http://www.w3.org/2000/svg}title")
            for el in root.iter()
            if el.get("data-province")
        }

    def kanji(text):
        return any("\u4e00" <= ch <= "\u9fff" for ch in text)

    assert not any(kanji(t) for t in titles().values())
    ja = titles("?lang=ja")
    assert len(ja) == 8 and all(kanji(t) for t in ja.values()), ja
    assert api.as_(personas[0]).patch("/api/v1/accounts/me", {"language": "ja"}).status_code == 200
    assert titles() == ja


@pytest.mark.parametrize("ruleset", list(PLAYERS))
def test_the_panel_and_caption_follow_the_language(api, personas, ruleset):
    """Every word, not only the province names: title, caption, section titles (issue 14.4)."""
    g = started(api, ruleset, personas[: PLAYERS[ruleset]])

    def panel(query=""):
        root = svg_of(api, personas[0], g, query)
        group = next(el for el in root.iter() if el.get("class") == "panel")
        return [el.text or "" for el in group.iter("{http://www.w3.org/2000/svg}text")]

    english = " ".join(panel())
    assert "version" in english and "seen by seat 0" in english and "Legend" in english
    korean = " ".join(panel("?lang=ko"))
    assert "버전" in korean and "자리 0" in korean and "범례" in korean and "진행 중" in korean
    for word in ("version", "seen by", "Legend", "running", "To play"):
        assert word not in korean, word
