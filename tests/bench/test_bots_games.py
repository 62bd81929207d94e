"""bench/bots.py accumulates games (issue 17): a run resumes where the last one
stopped, a change to the bot or engine code starts the tables over, and the JSON
rebuilt from the log is the one a single run over the same games gives. Heuristic
vs random games: a fraction of a second each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import bot_games, bots, report_bots
from games import plugins
from games.bots import arena
from games.rules.base import Outcome
from games.rules.registry import get

TIMING = ("decision_p50_ms", "decision_p99_ms", "wall_s", "loadavg_1m_mean")


def _run(results: Path, *args: str, mode: str = "heuristic") -> dict:
    assert bots.main(["--mode", mode, "--results-dir", str(results), *args]) == 0
    return json.loads((results / f"bots_{mode}.json").read_text())


def _log(results: Path) -> list[dict]:
    return bot_games.load(results / "bots_games" / "heuristic.jsonl")


@pytest.fixture
def seeds_played(monkeypatch):
    """The (table, seed) of every game a run starts."""
    played: list[tuple[str, int]] = []
    real = bots.one

    def counted(task):
        played.append((f"{task[0]}:{task[1]}", task[4]))
        return real(task)

    monkeypatch.setattr(bots, "one", counted)
    return played


def test_a_second_run_plays_only_the_seeds_not_yet_played(tmp_path, seeds_played):
    _run(tmp_path, "--tables", "rising-sun:3", "--games", "2")
    assert seeds_played == [("rising-sun:3", 0), ("rising-sun:3", 1)]
    seeds_played.clear()
    d = _run(tmp_path, "--tables", "rising-sun:3", "--games", "4")
    assert seeds_played == [("rising-sun:3", 2), ("rising-sun:3", 3)]
    assert [g["seed"] for g in _log(tmp_path)] == [0, 1, 2, 3]
    assert d["results"]["rising-sun:3"]["games"] == 4 and d["results"]["rising-sun:3"]["seeds"] == [0, 3]


def test_a_change_to_the_code_starts_the_tables_over(tmp_path, seeds_played, monkeypatch):
    _run(tmp_path, "--tables", "rising-sun:3", "--games", "2")
    monkeypatch.setattr(bot_games, "fingerprint", lambda *a, **k: "another-code")
    seeds_played.clear()
    d = _run(tmp_path, "--tables", "rising-sun:3", "--games", "1")
    assert seeds_played == [("rising-sun:3", 0)]
    assert len(_log(tmp_path)) == 3  # the old games stay in the log, unmatched
    assert d["fingerprint"] == {"rising-sun": "another-code"} and d["results"]["rising-sun:3"]["games"] == 1


def test_other_settings_are_other_tables(tmp_path, seeds_played):
    _run(tmp_path, "--tables", "rising-sun:3", "--games", "1", "--iterations", "2", mode="mcts")
    seeds_played.clear()
    d = _run(tmp_path, "--tables", "rising-sun:3", "--games", "1", "--iterations", "3", mode="mcts")
    assert seeds_played == [("rising-sun:3", 0)] and d["iterations"] == 3
    seeds_played.clear()
    _run(
        tmp_path,
        "--tables",
        "rising-sun:3",
        "--games",
        "1",
        "--iterations",
        "3",
        "--clock",
        "wall",
        mode="mcts",
    )
    assert seeds_played == []  # on iterations, the clock does not matter


def test_the_rebuilt_json_is_a_one_shot_runs_on_the_same_games(tmp_path):
    tables = "rising-sun:3,shogun:3"
    for games in ("1", "3", "4"):  # three runs, round-robin one seed a table at a time
        pieces = _run(tmp_path / "pieces", "--tables", tables, "--games", games, "--chunk", "1")
    whole = _run(tmp_path / "whole", "--tables", tables, "--games", "4")
    assert list(pieces["results"]) == list(whole["results"]) == ["rising-sun:3", "shogun:3"]
    for spec, r in whole["results"].items():
        assert r["games"] == 4
        assert {k: v for k, v in pieces["results"][spec].items() if k not in TIMING} == {
            k: v for k, v in r.items() if k not in TIMING
        }


def test_past_the_time_limit_no_game_starts_and_the_json_is_rebuilt(tmp_path, seeds_played):
    _run(tmp_path, "--tables", "imjin:2", "--games", "1")
    seeds_played.clear()
    d = _run(tmp_path, "--tables", "imjin:2", "--games", "5", "--until-minutes", "0")
    assert seeds_played == [] and d["results"]["imjin:2"]["games"] == 1


def test_the_plan_fills_the_emptiest_table_first_a_few_seeds_at_a_time():
    played = {"a:2": {0, 1, 2}, "b:2": set(), "c:2": {0}}
    got = list(bots.plan(["a:2", "b:2", "c:2"], played, range(4), 2))
    assert got == [
        ("b:2", 0),
        ("b:2", 1),
        ("c:2", 1),
        ("c:2", 2),
        ("a:2", 3),
        ("b:2", 2),
        ("b:2", 3),
        ("c:2", 3),
    ]


def test_a_cut_line_in_the_log_is_skipped(tmp_path):
    log = tmp_path / "heuristic.jsonl"
    bot_games.append(log, {"table": "x:2", "seed": 0})
    with log.open("a") as f:
        f.write('{"table": "x:2", "se')
    assert bot_games.load(log) == [{"table": "x:2", "seed": 0}]


def test_the_fingerprint_follows_code_and_data_not_docs_or_caches(tmp_path):
    code = tmp_path / "games" / "bots"
    code.mkdir(parents=True)
    (tmp_path / "games" / "rules" / "x").mkdir(parents=True)
    (code / "bot.py").write_text("A = 1\n")
    before = bot_games.fingerprint(tmp_path)
    (code / "README.md").write_text("docs\n")
    (code / "__pycache__").mkdir()
    (code / "__pycache__" / "bot.py").write_text("cached\n")
    assert bot_games.fingerprint(tmp_path) == before
    (tmp_path / "games" / "rules" / "x" / "board.yaml").write_text("a: 1\n")
    with_data = bot_games.fingerprint(tmp_path)
    assert with_data != before
    (code / "bot.py").write_text("A = 2\n")
    assert bot_games.fingerprint(tmp_path) not in (before, with_data)


def _table(games: int, win_rate: float, pairwise: float) -> dict:
    return {"games": games, "win_rate": win_rate, "pairwise": pairwise, "fair_share": 0.25}


def test_mcts_is_judged_pairwise_and_only_over_200_games():
    assert report_bots.table_verdict(_table(200, 0.40, 0.65), "mcts") == "met"
    assert report_bots.table_verdict(_table(200, 0.70, 0.55), "mcts") == "not met"
    assert report_bots.table_verdict(_table(60, 0.40, 0.65), "mcts") == "60 of 200 games"
    assert report_bots.table_verdict(_table(60, 0.40, 0.55), "mcts") == "60 of 200 games, below so far"
    assert report_bots.table_verdict(_table(200, 0.95, 0.55), "heuristic") == "met"


def test_the_goal_line_names_the_pairwise_rate_the_outright_rate_and_the_games():
    d = {"tested": "mcts", "opponent": "heuristic", "results": {"s:4": _table(200, 0.40, 0.65)}}
    goal, measured, verdict = report_bots.win_goal(d, "mcts")
    assert "pairwise" in goal and verdict == "**met**"
    assert measured == "lowest 65% (s:4); outright 40% there, an even seat 25%"
    d["results"]["r:3"] = _table(120, 0.5, 0.7)
    assert report_bots.win_goal(d, "mcts")[1:] == [
        "lowest 65% (s:4); outright 40% there, an even seat 25%; fewest 120 of 200 games",
        "**not met**",
    ]


def _tree(root):
    for d in ("games/bots/shogun", "games/bots/rising_sun", "games/rules/shogun", "games/rules/rising_sun"):
        (root / d).mkdir(parents=True)
    (root / "games/rules/shogun/rules.py").write_text("S = 1\n")
    (root / "games/rules/rising_sun/rules.py").write_text("R = 1\n")
    (root / "games/bots/search.py").write_text("Z = 1\n")


def test_a_rulesets_fingerprint_leaves_out_the_other_rulesets(tmp_path):
    _tree(tmp_path)
    shogun, rising = bot_games.fingerprint(tmp_path, "shogun"), bot_games.fingerprint(tmp_path, "rising-sun")
    (tmp_path / "games/bots/shogun/plan.py").write_text("P = 1\n")
    assert bot_games.fingerprint(tmp_path, "rising-sun") == rising  # Shogun's bot changed, not Rising Sun's
    assert bot_games.fingerprint(tmp_path, "shogun") != shogun
    (tmp_path / "games/bots/search.py").write_text("Z = 2\n")  # shared code: every ruleset
    assert bot_games.fingerprint(tmp_path, "rising-sun") != rising


def test_rekey_keeps_the_games_of_this_very_code(tmp_path):
    _tree(tmp_path)
    log = tmp_path / "log.jsonl"
    whole = bot_games.fingerprint(tmp_path)
    bot_games.append(log, {"table": "shogun:3", "seed": 0, "fingerprint": whole})
    bot_games.append(log, {"table": "rising-sun:3", "seed": 0, "fingerprint": whole})
    bot_games.append(log, {"table": "shogun:3", "seed": 1, "fingerprint": "older-code"})
    assert bot_games.rekey(log, tmp_path) == 2
    records = bot_games.load(log)
    assert [r["fingerprint"] for r in records] == [
        bot_games.fingerprint(tmp_path, "shogun"),
        bot_games.fingerprint(tmp_path, "rising-sun"),
        "older-code",
    ]
    assert records[0]["rekeyed_from"] == whole and "rekeyed_from" not in records[2]
    (tmp_path / "games/bots/shogun/plan.py").write_text("P = 1\n")  # then Shogun's bot changes
    fps = bot_games.Fingerprints(tmp_path)
    assert set(bot_games.matching(records, fps, {})) == set()  # settings differ: nothing
    key = {"mode": "mcts"}
    for r in records:
        r["settings"] = key
    assert set(bot_games.matching(records, fps, key)) == {"rising-sun:3"}


def test_imjin_4_is_played_side_against_side(tmp_path, monkeypatch):
    """The tested bot plays both seats of its side (the rotating seat's side, dealt
    at random with the factions), and pairwise counts the other side only."""
    for seed in range(4):
        side = bots.imjin_side(4, seed, seed % 4)
        state = arena.run(
            get("imjin"), ["random"] * 4, seed, parts=plugins.IMJIN.bots
        ).state  # the same game's sides
        assert len(side) == 2 and seed % 4 in side
        assert {state["side"][q] for q in side} == {state["side"][seed % 4]}
    seen: list[list[str]] = []
    real = arena.run

    def spy(rules, bot_names, seed, **kw):
        seen.append(list(bot_names))
        return real(rules, bot_names, seed, **kw)

    monkeypatch.setattr(arena, "run", spy)
    d = _run(tmp_path, "--tables", "imjin:4,imjin:2", "--games", "2")
    sides = [g for g in _log(tmp_path) if g["table"] == "imjin:4"]
    assert [g["side"] for g in sides] == [bots.imjin_side(4, s, s % 4) for s in (0, 1)]
    for names in seen:
        assert names.count("heuristic") == (2 if len(names) == 4 else 1)
    assert all(g["pairwise"] in (0.0, 0.5, 1.0) for g in sides)  # two rivals, no partner
    assert all(g["settings"].get("sides") is True for g in sides)
    assert all("sides" not in g["settings"] for g in _log(tmp_path) if g["table"] == "imjin:2")
    assert d["results"]["imjin:4"]["games"] == 2


def test_games_of_one_seat_against_three_do_not_count_for_a_side_table(tmp_path, seeds_played):
    log = tmp_path / "bots_games" / "heuristic.jsonl"
    key = bot_games.settings("heuristic", "heuristic", "random", 1.0, None, "cpu")
    fp = bot_games.Fingerprints()
    bot_games.append(log, {"table": "imjin:4", "seed": 0, "fingerprint": fp("imjin:4"), "settings": key})
    _run(tmp_path, "--tables", "imjin:4", "--games", "1")
    assert seeds_played == [("imjin:4", 0)]  # played again, side against side


def test_pairwise_leaves_out_the_partner():
    won = Outcome(winners=[0, 2], scores={0: 1.0, 1: 0.0, 2: 1.0, 3: 0.0}, reason="")
    assert bots.pairwise(won, 0, 4, [0, 2]) == 1.0
    assert bots.pairwise(won, 0, 4) == 2.5 / 3  # the old count: a partner ties


def test_the_game_log_is_kept_in_the_repository_unless_results_go_elsewhere(tmp_path):
    """The tables take more CPU than one machine's session: their log lives in
    bench/records/ (committed), not in var/, which a new machine does not have."""
    default = bots.arguments(["--mode", "mcts"])
    assert bots.records_dir(default) == bot_games.RECORDS
    assert bot_games.RECORDS.relative_to(bot_games.ROOT).as_posix() == "bench/records"
    moved = bots.arguments(["--mode", "mcts", "--results-dir", str(tmp_path)])
    assert bots.records_dir(moved) == tmp_path / "bots_games"
