"""The bot benchmark's game log (issue 17): every finished game of bench/bots.py is
one line of bench/records/<mode>.jsonl, keyed by a fingerprint of the bot
and engine code and by the settings it was played with. A table's figures are
rebuilt from the games whose key matches the code and settings of this run, so a
200-game table fills over several runs, and a change to a bot or an engine starts
it over (its old games stay in the log, unmatched).

Why, with the measurements and history: docs/modules.md, `bench/bot_games.py`.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from bench.common import ROOT

# what a bot's play depends on: the bots and the engines, code and game data
# (Markdown is documentation and left out, so a README edit keeps the tables)
CODE_DIRS = ("games/bots", "games/rules")
RECORDS = ROOT / "bench" / "records"
CODE_SUFFIXES = frozenset({".py", ".json", ".yaml", ".yml", ".toml", ".csv", ".txt"})


def ruleset_folders(root: Path = ROOT) -> set[str]:
    """The rulesets' folder names (games/rules/<name>/rules.py; games/bots/<name>/ for their bots)."""
    return {p.parent.name for p in (root / "games" / "rules").glob("*/rules.py")}


def fingerprint(root: Path = ROOT, ruleset: str | None = None) -> str:
    """A hash of every code and data file under games/bots and games/rules (sorted
    paths, each path and its contents). For one ruleset ("shogun", "rising-sun"),
    the other rulesets' folders are left out: a change to Shogun's bot or engine
    keeps the Rising Sun tables, whose games it cannot change; a change to shared
    code (the search, the kit, the engine contract) starts every table over."""
    own = ruleset.replace("-", "_") if ruleset else None
    others = ruleset_folders(root) - {own} if own else set()
    files = sorted(
        p
        for d in CODE_DIRS
        for p in (root / d).rglob("*")
        if p.is_file() and p.suffix in CODE_SUFFIXES and "__pycache__" not in p.parts
    )
    h = hashlib.sha256()
    for p in files:
        rel = p.relative_to(root)
        if len(rel.parts) > 3 and rel.parts[2] in others:
            continue
        h.update(rel.as_posix().encode() + b"\0")
        h.update(p.read_bytes() + b"\0")
    return h.hexdigest()[:16]


class Fingerprints:
    """Each table's fingerprint: its ruleset's (computed once per ruleset)."""

    def __init__(self, root: Path = ROOT) -> None:
        self.root = root
        self.by_ruleset: dict[str, str] = {}

    def __call__(self, table: str) -> str:
        ruleset = table.split(":", 1)[0]
        if ruleset not in self.by_ruleset:
            self.by_ruleset[ruleset] = fingerprint(self.root, ruleset)
        return self.by_ruleset[ruleset]


def rekey(path: Path, root: Path = ROOT) -> int:
    """Games logged under the whole-tree fingerprint of this very tree get their
    ruleset's fingerprint (the old one kept as `rekeyed_from`): the code they were
    played with is this code, so they still count once another ruleset's bot
    changes. Games of other code are left as they are. Rewrites the log through a
    temporary file (run it while no bench appends). Returns how many it re-keyed."""
    whole, fps = fingerprint(root), Fingerprints(root)
    records, n = load(path), 0
    for r in records:
        if r.get("fingerprint") == whole and "table" in r:
            r["rekeyed_from"], r["fingerprint"] = whole, fps(r["table"])
            n += 1
    if n:
        tmp = path.with_suffix(".rekey")
        tmp.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in records))
        os.replace(tmp, path)
    return n


def settings(
    mode: str, tested: str, opponent: str, seconds: float, iterations: int | None, clock: str
) -> dict:
    """What a game's result depends on besides the code. A budget only matters to
    a search bot, and a clock only to a search on the clock: heuristic-vs-random
    games keep counting whatever --seconds or --clock says."""
    search = "mcts" in (tested, opponent)
    return {
        "mode": mode,
        "tested": tested,
        "opponent": opponent,
        "seconds": seconds if search and iterations is None else None,
        "iterations": iterations if search else None,
        "clock": clock if search and iterations is None else None,
    }


def load(path: Path) -> list[dict]:
    """Every game in the log. A line cut short (a run killed while writing) is
    skipped: its game is played again."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


def append(path: Path, record: dict) -> None:
    """One game, one line, in one write() on a file opened to append: two runs
    filling the same log (other seeds, other tables) never interleave their lines
    (a buffered write splits a long line of decision times into several)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    line = (json.dumps(record, sort_keys=True) + "\n").encode()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


def matching(
    records: Iterable[dict], fp: Callable[[str], str], key: dict | Callable[[str], dict]
) -> dict[str, dict[int, dict]]:
    """The games played with this code (`fp`: a table's fingerprint) and these
    settings (`key`, or a table's settings): table -> seed -> game (a seed played
    twice counts once, the first time)."""
    settings_of = key if callable(key) else lambda _table: key
    out: dict[str, dict[int, dict]] = {}
    for r in records:
        if (
            "table" in r
            and r.get("settings") == settings_of(r["table"])
            and r.get("fingerprint") == fp(r["table"])
        ):
            out.setdefault(r["table"], {}).setdefault(r["seed"], r)
    return out


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def mean_ci(values: list[float], z: float = 1.96) -> tuple[float, float, float]:
    if not values:
        return (float("nan"), 0.0, 1.0)
    m = sum(values) / len(values)
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / max(1, len(values) - 1))
    h = z * sd / math.sqrt(len(values))
    return (m, max(0.0, m - h), min(1.0, m + h))


def pct(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def summary(spec: str, games: dict[int, dict]) -> dict:
    """A table's figures from its games (in seed order): outright wins with a
    Wilson interval, the pairwise rate with a normal interval over games, the
    tested bot's wall-clock decision times."""
    ruleset, players = spec.split(":")
    n = int(players)
    done = [games[s] for s in sorted(games)]
    ok = [g for g in done if g["failure"] is None]
    wins = sum(1 for g in ok if g["won"])
    times = sorted(t for g in ok for t in g["decision_s"])
    lo, hi = wilson(wins, len(ok))
    pair, pair_lo, pair_hi = mean_ci([g["pairwise"] for g in ok])
    loads = [g["loadavg_1m"] for g in done]
    return {
        "ruleset": ruleset,
        "players": n,
        "games": len(ok),
        "wins": wins,
        "win_rate": wins / len(ok) if ok else float("nan"),
        "ci95": [lo, hi],
        "fair_share": 1 / n if ruleset != "imjin" else 0.5,
        "pairwise": pair,
        "pairwise_ci95": [pair_lo, pair_hi],
        "decisions": len(times),
        "decision_p50_ms": pct(times, 0.5) * 1000,
        "decision_p99_ms": pct(times, 0.99) * 1000,
        "failures": [g["failure"] for g in done if g["failure"]][:5],
        "seeds": [min(games), max(games)],
        "wall_s": round(sum(g["wall_s"] for g in done), 1),
        "loadavg_1m_mean": round(sum(loads) / len(loads), 2),
    }
