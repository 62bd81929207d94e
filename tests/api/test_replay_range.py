"""Range replay (issue 16 item 4): /replay?from=A&to=B gives the View at A and
one JSON Patch per version; applying them reproduces /replay?version=v for every
v — seated player, spectator, over (finished or aborted) games, every ruleset;
pages chain through `next`; private games stay private."""

from __future__ import annotations

import json
import random
from urllib.parse import urlsplit

import jsonpatch
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots import choose
from games.models import Game
from games.rules import registry
from games.services import audit, replay_range
from games.services.state import load_state
from tests.api.helpers import play_to_end
from tests.conftest import create, register


def _start(api, ruleset, players, **body):
    people = [register(f"rr{ruleset[:4]}{i}") for i in range(players)]
    g = create(api, people[0], ruleset=ruleset, players=players, **body)
    for p in people[1:]:
        extra = {"invite_code": g["invite_code"]} if g.get("invite_code") else {}
        assert api.as_(p).post(f"/api/v1/games/{g['id']}/seats", extra).status_code == 201
    assert api.as_(people[0]).post(f"/api/v1/games/{g['id']}/start").status_code == 200
    return g["id"], people


def _advance(api, gid, people, ruleset, commands, seed):
    rules = registry.load_strict(ruleset)
    rnd = random.Random(seed)
    for _ in range(commands):
        game = Game.objects.get(id=gid)
        if game.status != Game.Status.RUNNING:
            return
        state = load_state(game)
        p = rnd.choice(rules.pending(state))
        cmd = choose(rules, state, p.seat, rnd)
        r = api.as_(people[p.seat]).post(f"/api/v1/games/{gid}/commands", {"command": cmd})
        assert r.status_code == 201, r.content


def _follow(api, who, url):
    """Every page from `url`; returns the views rebuilt version by version."""
    views, pages = {}, 0
    while url:
        parts = urlsplit(url)
        r = api.as_(who).get(parts.path + ("?" + parts.query if parts.query else ""))
        assert r.status_code == 200, r.content
        body = r.json()
        pages += 1
        view = body["view"]
        assert view["version"] == body["from"]
        views.setdefault(body["from"], view)
        for p in body["patches"]:
            view = jsonpatch.apply_patch(view, p["patch"])
            views[p["version"]] = view
        assert (body["patches"][-1]["version"] if body["patches"] else body["from"]) == body["to"]
        url = body["next"]
    return views, pages


def _assert_matches_replay(api, who, gid, frm=1):
    views, _ = _follow(api, who, f"/api/v1/games/{gid}/replay?from={frm}")
    top = Game.objects.get(id=gid).version
    assert sorted(views) == list(range(frm, top + 1))
    for v, view in views.items():
        single = api.as_(who).get(f"/api/v1/games/{gid}/replay?version={v}").json()
        # the one-version answer carries that version's signed checkpoint (issue 34): an
        # envelope around the view, not part of what the patches rebuild
        assert single.pop("checkpoint")["version"] == v
        assert view == single, v


@pytest.mark.django_db
@pytest.mark.parametrize("ruleset", list(registry.PRODUCTION))
def test_patches_rebuild_every_version_for_player_spectator_and_after_the_end(api, ruleset, monkeypatch):
    rules = registry.load_strict(ruleset)
    gid, people = _start(api, ruleset, rules.min_players)
    _advance(api, gid, people, ruleset, commands=25, seed=3)
    watcher = register("rrwatch")
    monkeypatch.setattr(replay_range, "PAGE", 7)  # several pages, chained by `next`
    for who in (people[0], people[-1], watcher):
        _assert_matches_replay(api, who, gid)
    audit.abort(gid, Game.objects.get(id=gid).creator, "over")  # over: every seat's view is public
    for who in (people[1], watcher):
        _assert_matches_replay(api, who, gid, frm=2)


@pytest.mark.django_db
def test_finished_game_and_page_cap(api, host, player, running_game):
    gid = running_game["id"]
    play_to_end(api, running_game, [host, player])
    _assert_matches_replay(api, player, gid)
    body = api.as_(host).get(f"/api/v1/games/{gid}/replay?from=1&to=2").json()
    assert body["from"] == 1 and body["to"] == 2 and [p["version"] for p in body["patches"]] == [2]
    assert body["next"] is None and replay_range.PAGE == 500


@pytest.mark.django_db
def test_bad_ranges_are_400_and_private_games_404(api, host, player, outsider):
    gid, people = _start(api, "shogun", 3, private=True)
    for q in ("from=0", "from=abc", "from=1&to=0", f"from=1&to={10**6}", "from=1&version=1", "to=1&from="):
        r = api.as_(people[0]).get(f"/api/v1/games/{gid}/replay?{q}")
        assert r.status_code == 400 and r.json()["code"] in ("invalid_version", "invalid"), (q, r.content)
    assert api.as_(outsider).get(f"/api/v1/games/{gid}/replay?from=1").status_code == 404
    assert api.as_(people[1]).get(f"/api/v1/games/{gid}/replay?from=1").status_code == 200


@pytest.mark.django_db
def test_running_game_hides_other_seats_secrets_in_patches(api):
    """A seat's patches never carry what its /replay view would not show: the
    rebuilt views equal /replay's, which are redacted (test_private_games)."""
    gid, people = _start(api, "shogun", 3)
    _advance(api, gid, people, "shogun", commands=15, seed=5)
    a = api.as_(people[0]).get(f"/api/v1/games/{gid}/replay?from=1").json()
    b = api.as_(people[1]).get(f"/api/v1/games/{gid}/replay?from=1").json()
    assert a["view"]["seats"] is None and a["view"]["seat"] == 0 and b["view"]["seat"] == 1
    assert a != b


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.text("ab/~", max_size=2),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text("ab/~", max_size=2), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(_json, _json)
def test_diff_turns_any_json_value_into_any_other(a, b):
    ops = replay_range.diff(a, b)
    assert jsonpatch.apply_patch(a, ops) == b
    # equal as JSON, not as Python (where True == 1 == 1.0): those differ in a view
    if json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True):
        assert ops == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=8), st.lists(st.integers(0, 4), max_size=8))
def test_diff_of_lists_keeps_their_common_head_and_tail(a, b):
    ops = replay_range.diff(a, b)
    assert jsonpatch.apply_patch(a, ops) == b
    assert len(ops) <= max(len(a), len(b))
