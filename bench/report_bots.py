"""The bots section of docs/benchmarks.md (results of bench/bots.py).

Issue 17's goals, as judged here: heuristic beats random in ≥ 90% of games (the
outright win rate: the heuristic seat among the winners); mcts beats heuristic in
≥ 60%, read seat against seat (the pairwise rate: the share of heuristic seats the
mcts seat finishes ahead of, parity 50%) because at 3–5 players an outright 60%
against 2–4 equal seats is 1.8–3× the fair share; the outright rate is shown
beside it with its fair share. A table meets a goal only over ≥ 200 games.
"""

from __future__ import annotations

from bench.common import table

WIN_GOAL = {"heuristic": 0.90, "mcts": 0.60}
# what each goal is judged on: the outright win rate, or the pairwise rate
GOAL_RATE = {"heuristic": "win_rate", "mcts": "pairwise"}
GOAL_WORDS = {"heuristic": "of games (outright)", "mcts": "seat against seat (pairwise)"}
P99_GOAL_MS = 20.0
MIN_GAMES = 200

HEADERS = [
    "ruleset",
    "players",
    "games",
    "win rate",
    "95% CI",
    "an even seat",
    "pairwise (95% CI)",
    "p50 (ms)",
    "p99 (ms)",
    "goal",
    "notes",
]


def _pairwise(r: dict) -> str:
    """The pairwise rate and its interval (results older than the column: n/a)."""
    if "pairwise" not in r:
        return "n/a"
    lo, hi = r["pairwise_ci95"]
    return f"{r['pairwise']:.0%} ({lo:.0%}–{hi:.0%})"


def table_verdict(r: dict, mode: str) -> str:
    """A table's verdict on its goal: met / not met over ≥ 200 games, else how far
    the table is (and whether it is below the goal so far)."""
    rate = r.get(GOAL_RATE[mode])
    if rate is None:
        return "n/a"
    below = rate < WIN_GOAL[mode]
    if r["games"] < MIN_GAMES:
        return f"{r['games']} of {MIN_GAMES} games" + (", below so far" if below else "")
    return "not met" if below else "met"


def _rows(d: dict, mode: str) -> list[list[object]]:
    rows = []
    # one order whatever run rebuilt the JSON last (a run of one table writes it first)
    order = {name: i for i, name in enumerate(("rising-sun", "shogun", "imjin"))}
    for r in sorted(
        d["results"].values(), key=lambda r: (order.get(r["ruleset"], 9), r["ruleset"], r["players"])
    ):
        lo, hi = r["ci95"]
        note = f"{len(r['failures'])} failed: {r['failures'][0]}" if r["failures"] else ""
        note = "; ".join(x for x in (note, r.get("note", "")) if x)  # e.g. a row kept from an earlier run
        rows.append(
            [
                r["ruleset"],
                r["players"],
                r["games"],
                f"{r['win_rate']:.0%}",
                f"{lo:.0%}–{hi:.0%}",
                f"{r['fair_share']:.0%}",
                _pairwise(r),
                f"{r['decision_p50_ms']:.1f}",
                f"{r['decision_p99_ms']:.1f}",
                table_verdict(r, mode),
                note,
            ]
        )
    return rows


def win_goal(d: dict, mode: str) -> list[str]:
    """[goal, measured, verdict] for a mode's strength goal over every table: the
    lowest rate it is judged on (with the outright rate and fair share beside a
    pairwise one), met only when every table has ≥ 200 games and reaches it."""
    goal, key = WIN_GOAL[mode], GOAL_RATE[mode]
    results = {k: r for k, r in d["results"].items() if key in r}
    if not results:
        return [f"{d['tested']} beats {d['opponent']} ≥ {goal:.0%} {GOAL_WORDS[mode]}", "not measured", "n/a"]
    worst = min(results, key=lambda k: results[k][key])
    r = results[worst]
    measured = f"lowest {r[key]:.0%} ({worst})"
    if key != "win_rate":
        measured += f"; outright {r['win_rate']:.0%} there, an even seat {r['fair_share']:.0%}"
    small = min(x["games"] for x in results.values())
    if small < MIN_GAMES:
        measured += f"; fewest {small} of {MIN_GAMES} games"
    met = r[key] >= goal and small >= MIN_GAMES
    return [
        f"{d['tested']} beats {d['opponent']} ≥ {goal:.0%} {GOAL_WORDS[mode]}, every table",
        measured,
        "**met**" if met else "**not met**",
    ]


def _budget(d: dict) -> str:
    if d.get("iterations"):
        return f", {d['iterations']} search iterations per mcts decision"
    clock = {"cpu": " of the search thread's CPU time", "wall": " (wall clock)"}.get(
        d.get("clock") or "wall", ""
    )
    return f", {d['seconds']:g} s{clock} per mcts decision"


def _intro(d: dict, mode: str) -> str:
    tested, opp = d["tested"], d["opponent"]
    budget = _budget(d) if mode == "mcts" else ""
    judged = (
        "The goal column judges the pairwise rate (≥ 60%, parity 50%); the win rate is beside it with an "
        "even seat's share."
        if mode == "mcts"
        else "The goal column judges the win rate (≥ 90%)."
    )
    return (
        f"**{tested} vs {opp}** — measured {d['measured_at']} on {d['machine']}{budget}; one seat "
        f"plays {tested}, the others {opp}, the seat rotating with the seed (Imjin at 4: both seats of "
        "that seat's side, which wins or loses together); a game is won when that "
        "seat is among the winners (Wilson 95% intervals; wall-clock times per decision of the tested bot). "
        "Pairwise: the share of (tested seat, other seat) pairs the tested seat finishes ahead in "
        f"(rival seats only; winners first, then scores; ties half; an even seat 50%). {judged} A goal is "
        f"met only over ≥ {MIN_GAMES} games; games accumulate across runs of the same code of the "
        "ruleset (bench/bots.py)."
    )


def _p99_goal(d: dict) -> list[str]:
    worst = max(d["results"], key=lambda k: d["results"][k]["decision_p99_ms"])
    p99 = d["results"][worst]["decision_p99_ms"]
    return [
        f"heuristic decision p99 ≤ {P99_GOAL_MS:g} ms",
        f"worst {p99:.1f} ms ({worst})",
        "**met**" if p99 <= P99_GOAL_MS else "**not met**",
    ]


def bots_section(heur: dict | None, mcts: dict | None) -> tuple[list[str], list[list[str]]]:
    lines: list[str] = []
    goals: list[list[str]] = []
    for mode, d in (("heuristic", heur), ("mcts", mcts)):
        if d is None or not d["results"]:
            lines += [f"_{mode}: not measured (`python bench/bots.py --mode {mode}`)._", ""]
            goals.append([f"{mode} ≥ {WIN_GOAL[mode]:.0%} {GOAL_WORDS[mode]}", "not measured", "n/a"])
            continue
        lines += [_intro(d, mode), "", table(HEADERS, _rows(d, mode)), ""]
        goals.append(win_goal(d, mode))
        if mode == "heuristic":
            goals.append(_p99_goal(d))
    return lines, goals
