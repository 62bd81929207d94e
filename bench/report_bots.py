"""The bots section of docs/benchmarks.md (results of bench/bots.py)."""

from __future__ import annotations

from bench.common import table

WIN_GOAL = {"heuristic": 0.90, "mcts": 0.60}
P99_GOAL_MS = 20.0


def _pairwise(r: dict) -> str:
    """The pairwise rate and its interval (results older than the column: n/a)."""
    if "pairwise" not in r:
        return "n/a"
    lo, hi = r["pairwise_ci95"]
    return f"{r['pairwise']:.0%} ({lo:.0%}–{hi:.0%})"


def _rows(d: dict) -> list[list[object]]:
    rows = []
    for r in d["results"].values():
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
                note,
            ]
        )
    return rows


def _pairwise_goal(d: dict, goal: float, small: int) -> list[str]:
    """The goal read pairwise (a 3-5 player table): ahead of a heuristic seat in ≥ goal of pairs."""
    rates = {k: r["pairwise"] for k, r in d["results"].items()}
    worst = min(rates, key=rates.get)
    return [
        f"{d['tested']} finishes ahead of a {d['opponent']} seat in ≥ {goal:.0%} of pairs, every table",
        f"lowest {rates[worst]:.0%} ({worst})",
        "**met**" if rates[worst] >= goal and small >= 200 else "**not met**",
    ]


def _budget(d: dict) -> str:
    if d.get("iterations"):
        return f", {d['iterations']} search iterations per mcts decision"
    return f", {d['seconds']:g} s per mcts decision"


def bots_section(heur: dict | None, mcts: dict | None) -> tuple[list[str], list[list[str]]]:
    lines: list[str] = []
    goals: list[list[str]] = []
    headers = [
        "ruleset",
        "players",
        "games",
        "win rate",
        "95% CI",
        "an even seat",
        "pairwise (95% CI)",
        "p50 (ms)",
        "p99 (ms)",
        "notes",
    ]
    for mode, d in (("heuristic", heur), ("mcts", mcts)):
        goal = WIN_GOAL[mode]
        if d is None:
            lines += [f"_{mode}: not measured (`python bench/bots.py --mode {mode}`)._", ""]
            goals.append([f"{mode} wins ≥ {goal:.0%} (seat-rotated)", "not measured", "n/a"])
            continue
        tested, opp = d["tested"], d["opponent"]
        small = min(r["games"] for r in d["results"].values())
        budget = _budget(d) if mode == "mcts" else ""
        lines += [
            f"**{tested} vs {opp}** — measured {d['measured_at']} on {d['machine']}{budget}; one seat "
            f"plays {tested}, the others {opp}, the seat rotating with the seed; a game is won when that "
            "seat is among the winners (Wilson 95% intervals; times per decision of the tested bot). "
            "Pairwise: the share of (tested seat, other seat) pairs the tested seat finishes ahead in "
            "(winners first, then scores; ties half; an even seat 50%).",
            "",
            table(headers, _rows(d)),
            "",
        ]
        rates = {k: r["win_rate"] for k, r in d["results"].items()}
        worst = min(rates, key=rates.get)
        sample = "" if small >= 200 else f" (only {small} games per table: below the 200 the goal asks)"
        goals.append(
            [
                f"{tested} beats {opp} in ≥ {goal:.0%} of games, every table",
                f"lowest {rates[worst]:.0%} ({worst}){sample}",
                "**met**" if rates[worst] >= goal and small >= 200 else "**not met**",
            ]
        )
        if mode == "mcts" and all("pairwise" in r for r in d["results"].values()):
            goals.append(_pairwise_goal(d, goal, small))
        if mode == "heuristic":
            p99 = max(r["decision_p99_ms"] for r in d["results"].values())
            worst_p99 = max(d["results"], key=lambda k: d["results"][k]["decision_p99_ms"])
            goals.append(
                [
                    f"heuristic decision p99 ≤ {P99_GOAL_MS:g} ms",
                    f"worst {p99:.1f} ms ({worst_p99})",
                    "**met**" if p99 <= P99_GOAL_MS else "**not met**",
                ]
            )
    return lines, goals
