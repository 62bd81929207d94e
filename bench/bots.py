#!/usr/bin/env python3
"""Bot strength and speed (issue 17), with the engines only (no server):
seeded, seat-rotated games per ruleset and player count.

    python bench/bots.py                         # heuristic vs random, 200 games per table
    python bench/bots.py --mode mcts --games 200 --until-minutes 90   # fill the mcts tables
    python bench/bots.py --tables imjin:2 --games 50 --jobs 2
    python bench/bots.py --mode mcts --iterations 200 --games 40   # CPU-independent A/B
    python bench/bots.py --mode mcts --games 0   # rebuild bots_mcts.json from the log only

Why, with the measurements and history: docs/modules.md, `bench/bots.py`.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Collection, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import bot_games  # noqa: E402
from bench.common import RESULTS, save  # noqa: E402
from games import plugins  # noqa: E402
from games.bots import arena  # noqa: E402
from games.rules.base import Outcome, fold, rng_factory  # noqa: E402
from games.rules.registry import get  # noqa: E402

TABLES = "rising-sun:3,rising-sun:4,rising-sun:5,shogun:3,shogun:4,shogun:5,imjin:2,imjin:4"
MODES = {"heuristic": ("heuristic", "random"), "mcts": ("mcts", "heuristic")}
CLOCKS = {"cpu": time.thread_time, "wall": time.perf_counter}

Task = tuple[str, int, str, str, int, float, int | None, str]


def pairwise(outcome: Outcome, seat: int, players: int, side: Collection[int] = ()) -> float:
    """The share of the other seats the seat finishes ahead of (ties: half); the
    seats of its own `side` are not others (a partner always ties)."""

    def rank(q: int) -> tuple[bool, float]:
        return (q in outcome.winners, float(outcome.scores.get(q, 0.0)))

    others = [q for q in range(players) if q != seat and q not in side]
    return sum(1.0 if rank(seat) > rank(q) else 0.5 if rank(seat) == rank(q) else 0.0 for q in others) / len(
        others
    )


def imjin_side(players: int, seed: int, seat: int) -> list[int]:
    """The seats of `seat`'s side in the arena's game `seed` (factions are dealt
    at random at the start, so the sides differ from seed to seed)."""
    rules = get("imjin")
    # the arena's own start of game `seed` (games/bots/arena.py: run)
    state = fold(rules, rules.start([None] * players, {}, rng_factory(f"arena-{seed}", 1)))
    return [q for q in range(players) if state["side"][q] == state["side"][seat]]


# Tables played side against side: a 2 v 2 Imjin game is won or lost by a side,
# and with a partner of the opponent's bot half of the tested side's play would be
# the opponent's. The tested bot plays every seat of its side (the side of the
# rotating seat), and the pairwise rate counts the other side's seats.
SIDES: dict[str, Callable[[int, int, int], list[int]]] = {"imjin:4": imjin_side}


def table_settings(key: dict, spec: str) -> dict:
    """A table's settings: a table played side against side is not the table of
    one seat against three (the games logged before it was), so it says so."""
    return {**key, "sides": True} if spec in SIDES else key


def one(task: Task) -> dict:
    """One seeded game: whether the tested seat won, its pairwise rate, the tested
    bot's wall-clock decision times (a refused command or a stuck game is a
    failure, reported, not hidden)."""
    ruleset, players, tested, opponent, seed, seconds, iterations, clock = task
    seat = seed % players
    sided = SIDES.get(f"{ruleset}:{players}")
    side = sided(players, seed, seat) if sided else [seat]
    bots = [tested if q in side else opponent for q in range(players)]
    t0 = time.perf_counter()
    game = {"seat": seat, "won": False, "pairwise": 0.0, "decision_s": [], "failure": None}
    if sided:
        game["side"] = side
    try:
        parts = plugins.bots_of(ruleset)
        m = arena.run(
            get(ruleset), bots, seed, seconds=seconds, iterations=iterations, clock=CLOCKS[clock], parts=parts
        )
    except Exception as exc:  # noqa: BLE001 - a failed game is a result
        game["failure"] = f"seed {seed}: {exc}"
    else:
        game["won"] = seat in m.outcome.winners
        game["pairwise"] = pairwise(m.outcome, seat, players, side)
        game["decision_s"] = [round(t, 6) for t in m.seconds.get(tested, [])]
    return {**game, "wall_s": round(time.perf_counter() - t0, 2), "loadavg_1m": round(os.getloadavg()[0], 2)}


def plan(
    tables: list[str], played: dict[str, set[int]], seeds: range, chunk: int
) -> Iterator[tuple[str, int]]:
    """The seeds still to play: round-robin, fewest games first, `chunk` a table at a time."""
    missing = {t: [s for s in seeds if s not in played.get(t, set())] for t in tables}
    order = sorted(tables, key=lambda t: len(played.get(t, ())))
    while any(missing.values()):
        for t in order:
            yield from ((t, s) for s in missing[t][:chunk])
            del missing[t][:chunk]


class Runner:
    """Plays the planned games and appends each finished one to the log."""

    def __init__(self, a: argparse.Namespace, log: Path, fp: bot_games.Fingerprints, key: dict) -> None:
        self.a, self.log, self.fp, self.key = a, log, fp, key
        self.deadline = time.monotonic() + a.until_minutes * 60 if a.until_minutes is not None else None
        self.played = 0

    def task(self, spec: str, seed: int) -> Task:
        ruleset, players = spec.split(":")
        tested, opponent = self.key["tested"], self.key["opponent"]
        return (
            ruleset,
            int(players),
            tested,
            opponent,
            seed,
            self.a.seconds,
            self.a.iterations,
            self.a.clock,
        )

    def late(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def keep(self, spec: str, seed: int, game: dict) -> None:
        record = {
            "table": spec,
            "seed": seed,
            "fingerprint": self.fp(spec),
            "settings": table_settings(self.key, spec),
            "played_at": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
            **game,
        }
        bot_games.append(self.log, record)
        self.played += 1
        outcome = "failed" if game["failure"] else "won" if game["won"] else "lost"
        print(
            f"{spec:14} seed {seed:4}: {outcome}, pairwise {game['pairwise']:.2f}, {game['wall_s']} s",
            flush=True,
        )

    def run(self, todo: Iterator[tuple[str, int]]) -> None:
        if self.a.jobs == 1:  # in this process: no pool to start, and the tests can patch `one`
            for spec, seed in todo:
                if self.late():
                    return
                self.keep(spec, seed, one(self.task(spec, seed)))
            return
        with ProcessPoolExecutor(self.a.jobs) as pool:
            running: dict[Future, tuple[str, int]] = {}
            for spec, seed in todo:
                if self.late():
                    break
                running[pool.submit(one, self.task(spec, seed))] = (spec, seed)
                if len(running) >= self.a.jobs:
                    self.collect(running, wait(running, return_when=FIRST_COMPLETED).done)
            self.collect(running, wait(running).done)

    def collect(self, running: dict[Future, tuple[str, int]], done: set[Future]) -> None:
        for f in done:
            self.keep(*running.pop(f), f.result())


def rebuild(
    a: argparse.Namespace, log: Path, fp: bot_games.Fingerprints, key: dict, tables: list[str]
) -> dict:
    """bots_<mode>.json from every game in the log with this code and settings
    (the requested tables first, then any other table the log holds)."""
    games = bot_games.matching(bot_games.load(log), fp, lambda spec: table_settings(key, spec))
    order = (
        tables
        + [t for t in TABLES.split(",") if t not in tables]
        + sorted(set(games) - set(TABLES.split(",")))
    )
    results = {spec: bot_games.summary(spec, games[spec]) for spec in order if spec in games}
    code = {spec.split(":", 1)[0]: fp(spec) for spec in results}
    out = {**key, "fingerprint": code, "results": results}
    save(a.save_as or f"bots_{a.mode}", out, a.results_dir)
    return results


def report(results: dict, key: dict) -> None:
    tested, opponent = key["tested"], key["opponent"]
    for spec, r in results.items():
        lo, hi = r["ci95"]
        plo, phi = r["pairwise_ci95"]
        print(
            f"{spec:14} {tested} vs {opponent}: {r['wins']}/{r['games']} = {r['win_rate']:.0%} "
            f"(95% CI {lo:.0%}-{hi:.0%}); pairwise {r['pairwise']:.0%} ({plo:.0%}-{phi:.0%}); "
            f"{tested} decision p50 {r['decision_p50_ms']:.1f} ms p99 {r['decision_p99_ms']:.1f} ms (wall); "
            f"{r['wall_s']} s of games",
            flush=True,
        )


def arguments(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=sorted(MODES), default="heuristic")
    ap.add_argument("--games", type=int, default=200, help="seeds per table (0: rebuild the JSON only)")
    ap.add_argument("--tables", default=TABLES, help="ruleset:players,...")
    ap.add_argument("--seconds", type=float, default=1.0, help="mcts thinking time per decision")
    ap.add_argument(
        "--iterations", type=int, default=None, help="mcts iterations per decision (replaces --seconds)"
    )
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="cpu", help="what the mcts seconds count")
    ap.add_argument("--jobs", type=int, default=1, help="games played in parallel (processes)")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--chunk", type=int, default=2, help="seeds a table gets per round-robin turn")
    ap.add_argument("--until-minutes", type=float, default=None, help="start no game after this long")
    ap.add_argument(
        "--save-as", default=None, help="results and log name (default bots_<mode>, <mode>.jsonl)"
    )
    ap.add_argument(
        "--rekey",
        action="store_true",
        help="first give the log's games of this very code their ruleset's fingerprint (once)",
    )
    ap.add_argument("--results-dir", type=Path, default=RESULTS, help=argparse.SUPPRESS)  # the tests' own
    return ap.parse_args(argv)


def records_dir(a: argparse.Namespace) -> Path:
    """Where the game log lives: bench/records/, in the repository, so the tables
    survive the machine (a session's var/ does not) and every figure of
    docs/benchmarks.md can be re-derived and audited game by game; a run whose
    results go elsewhere (the tests' --results-dir) keeps its log beside them."""
    return bot_games.RECORDS if a.results_dir == RESULTS else a.results_dir / "bots_games"


def main(argv: list[str] | None = None) -> int:
    a = arguments(argv)
    tested, opponent = MODES[a.mode]
    key = bot_games.settings(a.mode, tested, opponent, a.seconds, a.iterations, a.clock)
    fp = bot_games.Fingerprints()
    log = records_dir(a) / f"{a.save_as or a.mode}.jsonl"
    if a.rekey:
        print(f"{bot_games.rekey(log)} games of this very code re-keyed to their ruleset's fingerprint")
    tables = a.tables.split(",")
    matched = bot_games.matching(bot_games.load(log), fp, lambda spec: table_settings(key, spec))
    played = {t: set(g) for t, g in matched.items()}
    runner = Runner(a, log, fp, key)
    code = ", ".join(sorted({f"{t.split(':')[0]} {fp(t)}" for t in tables}))
    print(
        f"code {code}; {sum(len(played.get(t, ())) for t in tables)} games of these tables already played",
        flush=True,
    )
    runner.run(plan(tables, played, range(a.first_seed, a.first_seed + a.games), a.chunk))
    report(rebuild(a, log, fp, key, tables), key)
    return 0


if __name__ == "__main__":
    sys.exit(main())
