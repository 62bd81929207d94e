"""Issue 31: answers that differ by viewer are cached per viewer. Their ETag
changes whenever the bytes would (who is looking, their seat, the language),
so one seat sending another seat's ETag gets its own 200, never a 304; they
say `Cache-Control: private` and `Vary` on what chooses the bytes, so a shared
cache never hands one seat's private board to another."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from tests.conftest import create

pytestmark = pytest.mark.django_db


def u(g, tail):
    return f"/api/v1/games/{g['id']}/{tail}"


@pytest.fixture
def imjin(api, host, player):
    g = create(api, host, ruleset="imjin", players=2)
    assert api.as_(player).post(u(g, "seats"), {}).status_code == 201
    assert api.as_(host).post(u(g, "start")).status_code == 200
    return g


PER_VIEWER = [
    ("view", False),
    ("board.svg", True),
    ("events", True),
    ("events?after=1&limit=5", True),
    ("replay?version=1", False),
    ("replay?from=1", False),
    ("export", True),
]


def vary(r) -> set[str]:
    return {v.strip().lower() for v in r.get("Vary", "").split(",") if v.strip()}


def assert_private(r, language: bool) -> None:
    assert "private" in r.get("Cache-Control", ""), r.get("Cache-Control")
    assert "public" not in r.get("Cache-Control", "")
    want = {"authorization", "cookie"} | ({"accept-language"} if language else set())
    assert want <= vary(r), r.get("Vary")


@pytest.mark.parametrize("tail,language", PER_VIEWER)
def test_another_seats_etag_gets_my_own_bytes(api, host, player, imjin, tail, language):
    mine = api.as_(host).get(u(imjin, tail))
    theirs = api.as_(player).get(u(imjin, tail))
    assert mine.status_code == theirs.status_code == 200, (mine.content, theirs.content)
    assert mine["ETag"] and theirs["ETag"] and mine["ETag"] != theirs["ETag"]
    assert_private(mine, language)
    # the second seat sends the first seat's ETag: its own 200 and bytes, not a 304
    swapped = api.as_(player).get(u(imjin, tail), HTTP_IF_NONE_MATCH=mine["ETag"])
    assert swapped.status_code == 200
    assert swapped.content == theirs.content and swapped["ETag"] == theirs["ETag"]
    # revalidating one's own copy still saves the body, and the 304 says the same
    same = api.as_(host).get(u(imjin, tail), HTTP_IF_NONE_MATCH=mine["ETag"])
    assert same.status_code == 304 and same["ETag"] == mine["ETag"] and not same.content
    assert_private(same, language)
    listed = api.as_(host).get(u(imjin, tail), HTTP_IF_NONE_MATCH=f'"x", W/{mine["ETag"]}')
    assert listed.status_code == 304


def test_the_seats_see_different_views_with_different_etags(api, host, player, imjin):
    a, b = api.as_(host).get(u(imjin, "view")), api.as_(player).get(u(imjin, "view"))
    assert a.json()["seat"] != b.json()["seat"] and a["ETag"] != b["ETag"]


def test_a_spectator_and_a_seat_never_share_an_etag(api, host, outsider):
    g = create(api, host, ruleset="imjin", players=2)
    api.as_(host).post(u(g, "seats"), {"bot": "random"})
    assert api.as_(host).post(u(g, "start")).status_code == 200
    seat = api.as_(host).get(u(g, "board.svg"))
    watcher = api.as_(outsider).get(u(g, "board.svg"), HTTP_IF_NONE_MATCH=seat["ETag"])
    assert watcher.status_code == 200 and watcher["ETag"] != seat["ETag"]


@pytest.mark.parametrize("tail", ["board.svg", "events", "export"])
def test_the_language_is_part_of_the_etag(api, host, imjin, tail):
    en = api.as_(host).get(u(imjin, tail) + "?lang=en")
    ja = api.as_(host).get(u(imjin, tail) + "?lang=ja", HTTP_IF_NONE_MATCH=en["ETag"])
    assert ja.status_code == 200 and ja["ETag"] != en["ETag"]
    # chosen by Accept-Language alone, the same
    en = api.as_(host).get(u(imjin, tail), HTTP_ACCEPT_LANGUAGE="en")
    ja = api.as_(host).get(u(imjin, tail), HTTP_ACCEPT_LANGUAGE="ja", HTTP_IF_NONE_MATCH=en["ETag"])
    assert ja.status_code == 200 and ja["ETag"] != en["ETag"]


def test_taking_a_seat_changes_the_view_etag_without_a_new_version(api, host, outsider):
    g = create(api, host, ruleset="imjin", players=2)
    before = api.as_(outsider).get(u(g, "view"))
    assert before.status_code == 200 and before.json()["seat"] is None
    assert api.as_(outsider).post(u(g, "seats"), {}).status_code == 201  # no event: same version
    after = api.as_(outsider).get(u(g, "view"), HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after.json()["seat"] == 1


def test_the_end_of_the_game_changes_the_etag(api, host, player, imjin):
    before = api.as_(host).get(u(imjin, "view"))
    Game.objects.filter(id=imjin["id"]).update(status=Game.Status.ABORTED)  # everyone may see all now
    after = api.as_(host).get(u(imjin, "view"), HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after.json()["seats"] is not None


def test_the_public_catalogue_stays_publicly_cacheable(api):
    # one URL, one language (?lang=): public; chosen from the account or browser it must be
    # asked again (tests/api/test_catalogue.py)
    r = api.get("/api/v1/rulesets/imjin/catalogue?lang=en")
    assert r.status_code == 200 and "public" in r["Cache-Control"]


def test_the_web_pages_per_viewer_answers_are_private(api, host, player, imjin, django_user_model):
    """The browser client's own reads (replay, board, export for visitors) too."""
    c = Client()
    c.force_login(django_user_model.objects.get(username="hana"))
    game = Game.objects.get(id=imjin["id"])
    for path in (
        f"/games/{game.id}/replay/1.json",
        f"/games/{game.id}/board/1.svg",
        f"/games/{game.id}/export.jsonl",
    ):
        r = c.get(path)
        assert r.status_code == 200, (path, r.content[:200])
        assert "private" in r.get("Cache-Control", ""), path
        assert "cookie" in vary(r), (path, r.get("Vary"))
