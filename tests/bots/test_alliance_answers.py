"""Every server bot answers an alliance proposal (issue 33: a proposal to a bot
vanished with no answer): the rule (games/bots/rising_sun/alliances.py) on
positions built with the engine's test kit, and the platform's path - a bot that
said tea_done, so is not pending, still answers, through the same door as a
person, and the proposer reads the answer in its feed."""

from __future__ import annotations

import random

import pytest
from django.db import transaction

from events import store
from games import bots, plugins
from games.bots.rising_sun import alliances
from games.models import Game as GameRow
from games.rules.rising_sun.rules import RULES
from games.services.background import play_bots
from games.services.play import apply
from tests.conftest import create
from tests.rules.rising_sun.testkit import Game

PARTS = plugins.RISING_SUN.bots


def _answer(g: Game, clan: str) -> dict | None:
    return bots.answer(RULES, g.s, g.seat(clan), random.Random(1), parts=PARTS)


def test_nothing_to_answer_without_a_proposal():
    assert _answer(Game(["Koi", "Lotus", "Turtle"]), "Koi") is None


def test_it_accepts_a_proposer_who_is_not_the_rival_to_beat():
    g = Game(["Koi", "Lotus", "Turtle", "Dragonfly"]).set("Lotus", vp=3).set("Turtle", vp=6)
    g.do("Koi", type="tea_done")
    g.do("Lotus", type="propose_alliance", to=g.seat("Koi"))
    assert _answer(g, "Koi") == {"type": "accept_alliance", "from": g.seat("Lotus")}
    g.do("Koi", **_answer(g, "Koi"))
    assert g.s["alliances"][g.seat("Koi")] == g.seat("Lotus")


def test_it_declines_the_leader_and_then_every_other_refused_proposal():
    g = Game(["Koi", "Lotus", "Turtle", "Dragonfly"]).set("Lotus", vp=9).set("Turtle", vp=2)
    g.set("Dragonfly", vp=2)
    g.do("Koi", type="tea_done")
    g.do("Lotus", type="propose_alliance", to=g.seat("Koi"))  # the rival to beat: 9 against 2 and 2
    assert _answer(g, "Koi") == {"type": "decline_alliance", "from": g.seat("Lotus")}
    g.do("Koi", **_answer(g, "Koi"))
    assert g.s["alliances"][g.seat("Koi")] is None and _answer(g, "Koi") is None


def test_level_rivals_are_all_welcome_and_the_weakest_is_chosen():
    g = Game(["Koi", "Lotus", "Turtle"]).set("Turtle", vp=1)
    assert alliances.welcome(g.s, g.seat("Koi"), g.seat("Lotus"))  # Spring: 0 against 1, both welcome
    g.do("Turtle", type="propose_alliance", to=g.seat("Koi"))
    g.do("Lotus", type="propose_alliance", to=g.seat("Koi"))
    assert _answer(g, "Koi") == {"type": "accept_alliance", "from": g.seat("Lotus")}


# ------------------------------------------------------------ through the platform


def _tea_game(api, host, kind: str) -> str:
    """A 3-seat Rising Sun game: the host, then two bots of `kind`, in the Tea
    Ceremony with both bots done with it (said for them here: a random bot might
    ally with the other bot first), so only the host is asked to act."""
    gid = create(api, host, ruleset="rising-sun", players=3)["id"]
    for _ in range(2):
        assert api.as_(host).post(f"/api/v1/games/{gid}/seats", {"bot": kind}).status_code == 201
    assert api.as_(host).post(f"/api/v1/games/{gid}/start").status_code == 200
    for seat in (1, 2):
        with transaction.atomic():
            game = GameRow.objects.select_for_update().get(id=gid)
            apply(
                game,
                game.seats.get(index=seat),
                {"type": "tea_done"},
                game.version,
                actor={"seat": seat, "bot": kind},
            )
    meta = api.as_(host).get(f"/api/v1/games/{gid}").json()
    assert [(p["seat"], p["kind"]) for p in meta["pending"]] == [(0, "tea_ceremony")], meta["pending"]
    return gid


def _feed(api, host, gid: str, after: int) -> list[dict]:
    return api.as_(host).get(f"/api/v1/games/{gid}/events?after={after}&limit=100").json()["results"]


def _propose(api, host, gid: str) -> tuple[list[dict], list[dict]]:
    """The host proposes to seat 1; the bots take their turns. Returns (what the
    host's feed shows of seat 1's answer, the actors of the batches that followed)."""
    r = api.as_(host).post(
        f"/api/v1/games/{gid}/commands", {"command": {"type": "propose_alliance", "to": 1}}
    )
    assert r.status_code == 201, r.content
    before = r.json()["version"]
    assert play_bots(gid) >= 1  # the worker's turn-taking, here (no on_commit in these tests)
    feed = _feed(api, host, gid, before)
    answers = [e for e in feed if not e["redacted"] and (e["payload"] or {}).get("seat") == 1]
    actors = [row.actor for row in store.load(gid, after=before) if row.actor]
    return answers, actors


@pytest.mark.django_db
@pytest.mark.parametrize("kind", bots.NAMES)
def test_every_bot_kind_answers_a_proposal_outside_its_turn(api, host, kind, settings):
    settings.SENGOKU = {**settings.SENGOKU, "BOT_MCTS_SECONDS": 0.05}
    gid = _tea_game(api, host, kind)
    answered, actors = _propose(api, host, gid)
    # Spring: every standing is level, so the proposer is welcome; the host reads it
    assert actors[0] == {"seat": 1, "bot": kind}
    assert answered[0]["payload"]["cmd"] == {"type": "accept_alliance", "from": 0}
    # the alliance stands once the answer is in: the host's view as of the answer's
    # commit (the accept ends the Tea Ceremony, so the bots play on: seat 1 may
    # play (or, as Lotus, declare) Betray at once, and the current view would not show it)
    formed = [
        e for e in _feed(api, host, gid, answered[0]["seq"] - 1) if e["type"] == "rising-sun.AllianceFormed"
    ]
    assert formed and formed[0]["payload"]["seats"] == [0, 1]
    view = api.as_(host).get(f"/api/v1/games/{gid}/replay?version={formed[0]['seq']}").json()["state"]
    assert view["alliances"][:2] == [1, 0]


@pytest.mark.django_db
def test_a_decline_reaches_the_proposer_only(api, host, monkeypatch):
    monkeypatch.setattr(alliances, "welcome", lambda view, seat, proposer: False)
    gid = _tea_game(api, host, "heuristic")
    answered, actors = _propose(api, host, gid)
    assert actors == [{"seat": 1, "bot": "heuristic"}]
    assert [e["type"] for e in answered] == ["rising-sun.AllianceDeclined"]
    assert answered[0]["payload"]["cmd"] == {"type": "decline_alliance", "from": 0}
    assert GameRow.objects.get(id=gid).status == "running"
    legal = api.as_(host).get(f"/api/v1/games/{gid}/legal-commands").json()["commands"]
    assert {"type": "propose_alliance", "to": 1} in legal  # free to propose again, or elsewhere
