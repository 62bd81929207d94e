"""The replay a reader can follow (issue 33): steps by command grouped by
turns in describe() words, secrets told once the game revealed them, the
scoring breakdown summing to the final scores (stored fixtures of every rules
version, a freshly played game per ruleset), and the audit and scoring JSON
open to visitors for finished public games only."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command

from events.models import StoredEvent
from games.models import Game
from games.services import replay_book
from games.services.state import load_state, rules_for
from tests.audit import driver

pytestmark = pytest.mark.django_db
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "games"
GAMES = [
    "rising-sun-3p-a.jsonl",  # rules version 2
    "rising-sun-3p-v3-a.jsonl",
    "rising-sun-5p-v4-c.jsonl",
    "shogun-3p-v3a.jsonl",
    "shogun-4p-v4a.jsonl",
    "imjin-2p-v3-a.jsonl",
    "imjin-4p-v4-b.jsonl",
]


def _sums(game: Game) -> dict:
    outcome = rules_for(game).outcome(load_state(game))
    found = replay_book.scoring(game, "en")
    assert found is not None and found["final"] and outcome is not None
    for row in found["seats"]:
        assert sum(s["points"] for s in row["sources"]) == pytest.approx(row["total"])
        assert row["total"] == pytest.approx(outcome.scores[row["seat"]])
    return found


@pytest.mark.parametrize("name", GAMES)
def test_stored_games_break_down_to_their_final_scores(name):
    call_command("import_game", str(FIXTURES / name))
    game = Game.objects.get()
    found = _sums(game)
    keys = {s["key"] for row in found["seats"] for s in row["sources"]}
    if name.startswith("rising-sun"):
        assert keys & {"score.winter_tokens", "score.winter_set"}
    elif name.startswith("shogun"):
        assert {"score.provinces", "score.buildings", "score.majority"} <= keys
    else:
        assert "score.victory" in keys and found["reason"]
    book = replay_book.book(game, None, "en")
    steps = book["steps"]
    # one step per batch (a command, a default, the start), each starting at one; versions cover the log
    starts = set(
        StoredEvent.objects.filter(stream=game.id, cause__isnull=False).values_list("seq", flat=True)
    )
    assert len(steps) < game.version and {s["from"] for s in steps} <= starts
    assert steps[0]["from"] == 1 and steps[-1]["version"] == game.version
    assert all(a["version"] + 1 == b["from"] for a, b in zip(steps, steps[1:], strict=False))
    assert all(s["text"] and "core." not in s["text"] and "rising-sun." not in s["text"] for s in steps)
    assert len(book["turns"]) >= 3 and all(t["label"] for t in book["turns"])
    # a finished game tells the secrets it revealed: no "makes a secret choice" on a revealed step
    revealed = [s for s in steps if s["revealed"]]
    assert revealed and not any("secret choice" in s["text"] for s in revealed)


@pytest.mark.parametrize("ruleset,players", [("rising-sun", 3), ("shogun", 3), ("imjin", 2)])
def test_a_played_game_breaks_down_to_its_final_scores(ruleset, players):
    game = driver.new_game(ruleset, players, names=("hana", "kenji", "mitsu"))
    driver.play_out(game, seed=7, max_steps=3000)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    _sums(game)
    ja = replay_book.scoring(game, "ja")
    assert ja is not None and ja != replay_book.scoring(game, "en")


def test_a_running_game_keeps_its_secrets_and_has_no_scoring():
    game = driver.new_game("rising-sun", 3, names=("hana", "kenji", "mitsu"))
    driver.play_out(game, seed=3, max_steps=60)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert replay_book.scoring(game, "en") is None
    outsider = replay_book.book(game, driver.user("outsider"), "en")
    assert outsider["scoring"] is None and not any(s["revealed"] for s in outsider["steps"])
    # a kept Mandate tile and a War bid are private events: told to their seat, never to others
    secret = (" keeps ", " bids ")
    assert not any(word in s["text"] for s in outsider["steps"] for word in secret)
    told = {
        name: [s["text"] for s in replay_book.book(game, driver.user(name), "en")["steps"]]
        for name in ("hana", "kenji", "mitsu")
    }
    assert any(word in text for texts in told.values() for text in texts for word in secret)
    state = load_state(game)
    for seat, name in enumerate(("hana", "kenji", "mitsu")):
        clan = state["clans"][seat]
        for other, texts in told.items():
            if other != name:
                assert not any(text.startswith(f"{clan} keeps ") for text in texts)


def test_audit_and_scoring_json_open_to_visitors_for_finished_public_games_only(api, host):
    call_command("import_game", str(FIXTURES / "rising-sun-3p-v4-a.jsonl"))
    game = Game.objects.get()
    for path in ("audit", "scoring"):
        r = api.get(f"/api/v1/games/{game.id}/{path}")
        assert r.status_code == 200, r.content
    body = api.get(f"/api/v1/games/{game.id}/scoring?lang=ja").json()
    assert body["final"] and body["winners"] == [1] and [s["total"] for s in body["seats"]] == [5, 24, 22]
    game.private = True
    game.save(update_fields=["private"])
    for path in ("audit", "scoring"):
        r = api.get(f"/api/v1/games/{game.id}/{path}")
        assert r.status_code == 401 and r.json()["code"]
    running = driver.new_game("toy-auction", 2, names=("hana", "kenji"))
    for path in ("audit", "scoring"):
        assert api.get(f"/api/v1/games/{running.id}/{path}").status_code == 401
        assert api.get(f"/api/v1/games/not-a-game/{path}").status_code == 401
    r = api.as_(host).get(f"/api/v1/games/{running.id}/scoring")
    assert r.status_code == 200 and r.json() == {"final": False, "reason": "", "winners": [], "seats": []}
