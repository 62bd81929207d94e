#!/usr/bin/env python3
"""Render docs/benchmarks.md from the JSON results in var/bench/ (written by
bench/event_store.py, bench/api_load.py, bench/fairness.py and bench/engines.py),
with the goals and whether each is met; bench/pairs.md (before/after pairs measured
back to back by hand) is copied in under the goals.

    python bench/report.py            # writes docs/benchmarks.md
    python bench/report.py --stdout
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import PREVIOUS, RESULTS, table  # noqa: E402
from bench.report_bots import bots_section  # noqa: E402
from bench.report_replay import replay_section  # noqa: E402
from bench.report_streams import streams_section  # noqa: E402
from bench.report_web import web_section  # noqa: E402

OUT = ROOT / "docs" / "benchmarks.md"

# Reference figures measured on this machine type before the store existed
# (2 cores, PostgreSQL 15 with default durability), for orientation only.
REFERENCE = {"raw": (1631, 5606), "eventsourcing (fastest)": (744, 1372)}


# Where `load` reads: the newest results, or (while the previous column is being
# rendered) the copies scripts/bench.sh made of the run before (var/bench/previous/).
_DIR = [RESULTS]


def load(name: str) -> dict | None:
    path = _DIR[-1] / f"{name}.json"
    return json.loads(path.read_text()) if path.exists() else None


def goal_rows() -> list[list[str]]:
    """[goal, measured, verdict] for every goal, from the results `load` reads."""
    return (
        event_store_section(load("event_store"))[1]
        + api_section(load("api_load"))[1]
        + post_only_goals(load("api_post_only"))
        + streams_section(load("streams"))[1]
        + fairness_section(load("fairness"))[1]
        + replay_section(load("replay_range"))[1]
        + bots_section(load("bots_heuristic"), load("bots_mcts"))[1]
        + web_section(load("web_pages"))[1]
    )


def previous_rows() -> dict[str, str]:
    """The previous run's measured value per goal (by the goal's text)."""
    if not PREVIOUS.is_dir():
        return {}
    _DIR.append(PREVIOUS)
    try:
        return {row[0]: row[1] for row in goal_rows()}
    finally:
        _DIR.pop()


def goals_table() -> str:
    before = previous_rows()
    return table(
        ["goal", "previous run", "this run", "verdict"],
        [[goal, before.get(goal, "—"), now, verdict] for goal, now, verdict in goal_rows()],
    )


def verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("**met**" if ok else "**not met**")


def ok_num(x: float | None) -> bool:
    return x is not None and not (isinstance(x, float) and math.isnan(x))


def _server(d: dict) -> str:
    """The server the API bench ran (results before `--server` existed were gthread)."""
    return {"asgi": "with uvicorn workers (ASGI, as `make run` and compose)", "external": "(external)"}.get(
        d.get("server", "gthread"), "gthread (WSGI)"
    )


def load_note(d: dict) -> str:
    la = d.get("loadavg_1m_at_end")
    if la is None:
        return ""
    busy = (
        " — the machine was shared with other work, so absolute figures are low and noisy; compare "
        "rows measured in the same run"
        if la > 2.5
        else ""
    )
    return f"1-minute load average at the end: {la:.1f} on 2 cores{busy}."


def event_store_section(d: dict | None) -> tuple[list[str], list[list[str]]]:
    if d is None:
        return ["_Not measured (run `make bench`)._"], []
    r, n = d["results"], str(d["threads"])
    lines = [
        f"Measured {d['measured_at']} on {d['machine']}; each cell is the median of "
        f"{d.get('rounds', 1)} interleaved round(s) of {d['seconds']:.0f} s; one event per "
        "transaction; PostgreSQL 15 on loopback with its default durability (fsync on, "
        f"synchronous_commit on). {load_note(d)}",
        "",
    ]
    rows = []
    labels = {
        "sengoku": "Sengoku `events.store.append` (Django, in a transaction block, COMMIT in the INSERT's round trip)",
        "sengoku-commit-apart": "Sengoku `events.store.append` (in a transaction block, COMMIT in a second round trip)",
        "sengoku-standalone": "Sengoku `events.store.append`, standalone (its INSERT commits)",
        "eventsourcing": "eventsourcing 9.5, default config",
        "eventsourcing-fn": "eventsourcing 9.5, `POSTGRES_ENABLE_DB_FUNCTIONS=y`",
        "raw": "raw psycopg INSERT + COMMIT",
    }
    for key, label in labels.items():
        if key in r:
            rows.append([label, r[key].get("1", float("nan")), r[key].get(n, float("nan"))])
        else:
            rows.append([label, "not measured", "not measured"])
    lines.append(table(["backend", "1 writer, 1 game (ev/s)", f"{n} writers, {n} games (ev/s)"], rows))
    lines += [
        "",
        "Reference figures for this machine type: raw "
        + " / ".join(f"{x:,}" for x in REFERENCE["raw"])
        + " ev/s, eventsourcing (fastest) "
        + " / ".join(f"{x:,}" for x in REFERENCE["eventsourcing (fastest)"])
        + " ev/s (1 writer / 16 writers).",
    ]
    goals = []
    for key, how in (("sengoku", ""), ("sengoku-standalone", ", standalone append")):
        if key in r:
            goals += _store_goals(r, n, key, how)
    return lines, goals


def _store_goals(r: dict, n: str, key: str, how: str) -> list[list[str]]:
    goals = []
    for w in ("1", n):
        s = r.get(key, {}).get(w)
        es = [r[k][w] for k in ("eventsourcing", "eventsourcing-fn") if k in r and w in r[k]]
        raw = r.get("raw", {}).get(w)
        best = max(es) if es else None
        goals.append(
            [
                f"store ≥ 1.0× eventsourcing at its fastest ({w} writer{'s' if w != '1' else ''}{how})",
                f"{s / best:.2f}×" if ok_num(s) and best else "n/a",
                verdict(s / best >= 1.0 if ok_num(s) and best else None),
            ]
        )
        goals.append(
            [
                f"store ≥ 0.5× raw INSERT ({w} writer{'s' if w != '1' else ''}{how})",
                f"{s / raw:.2f}×" if ok_num(s) and raw else "n/a",
                verdict(s / raw >= 0.5 if ok_num(s) and raw else None),
            ]
        )
    return goals


def api_section(d: dict | None) -> tuple[list[str], list[list[str]]]:
    if d is None:
        return ["_Not measured (run `make bench`)._"], [
            ["API ≥ 250 commands/s", "n/a", verdict(None)],
            ["POST commands p99 < 100 ms", "n/a", verdict(None)],
            ["GET view p99 < 20 ms", "n/a", verdict(None)],
        ]
    req = d["requests"]
    lines = [
        f"Measured {d['measured_at']} on {d['machine']}: gunicorn {_server(d)}, {d['workers']} workers × "
        f"{d['threads']} threads, database {d['database']}; {d['clients']} concurrent clients over "
        f"{d['games']} `{d['ruleset']}` games ({d['players']} players), {d['seconds']:.0f} s. "
        "Clients and server share the machine's 2 cores. Each client cycle is GET game → "
        f"GET legal-commands → POST a random legal command → GET view. {load_note(d)}",
        "",
    ]
    rows = [[k, v["count"], v["per_s"], v["p50_ms"], v["p90_ms"], v["p99_ms"]] for k, v in req.items()]
    lines.append(table(["request", "count", "per second", "p50 (ms)", "p90 (ms)", "p99 (ms)"], rows))
    lines += [
        "",
        f"Commands accepted: **{d['commands_per_s']:,.1f} commands/s**. Outcomes: "
        + ", ".join(f"{k} {v}" for k, v in sorted(d["counters"].items()))
        + ".",
    ]
    single = load("api_single")
    if single is not None:
        sreq = single["requests"]
        lines += [
            "",
            "For comparison, **one client alone** (no queueing: the server's own service time), "
            f"measured {single['measured_at']}:",
            "",
            table(
                ["request", "count", "p50 (ms)", "p90 (ms)", "p99 (ms)"],
                [[k, v["count"], v["p50_ms"], v["p90_ms"], v["p99_ms"]] for k, v in sreq.items()],
            ),
        ]
    if d.get("cpu_shares"):
        lines += [
            "",
            "CPU during the mixed run, as shares of the machine's cores: "
            + ", ".join(f"{k} {v:.0%}" for k, v in d["cpu_shares"].items())
            + " (`other` is everything else on the machine).",
        ]
        if d.get("cpu_ms_per_request"):
            lines[-1] += (
                " CPU per request (ms): "
                + ", ".join(f"{k} {v}" for k, v in d["cpu_ms_per_request"].items())
                + "."
            )
    cps = d["commands_per_s"]
    worst = max(req, key=lambda k: req[k]["p99_ms"])
    p99 = req[worst]["p99_ms"]
    goals = [
        ["mixed 50-client run ≥ 150 cycles/s", f"{cps:,.1f}", short(cps, 150)],
        [
            f"every request's p99 < 100 ms, clients that never pause (worst: {worst})",
            f"{p99:,.0f} ms",
            over(p99, 100),
        ],
    ]
    paced_lines, paced_goal = paced_section(load("api_paced"))
    lines += paced_lines
    goals += paced_goal
    if single is not None:
        for kind, limit in (("POST commands", 4.0), ("GET view", 2.0)):
            v = single["requests"][kind]["p50_ms"]
            goals.append([f"one client: {kind} p50 ≤ {limit:g} ms", f"{v:,.1f} ms", over(v, limit)])
    return lines, goals


def paced_section(d: dict | None) -> tuple[list[str], list[list[str]]]:
    """The mixed run with clients that pace themselves (`--rate`): latency at the
    goal's load. Met only if the run reached 150 cycles/s, its cycles started on
    time (p99 lateness < 100 ms: the server kept up) and every p99 is < 100 ms."""
    name = "every request's p99 < 100 ms with 50 pacing clients offering ≥ 150 cycles/s"
    if d is None or not d.get("pacing"):
        return [], [[name, "not measured", "n/a (run `make bench`)"]]
    req, pace = d["requests"], d["pacing"]
    worst = max(req, key=lambda k: req[k]["p99_ms"])
    p99, cps, late = req[worst]["p99_ms"], d["commands_per_s"], pace["late_p99_ms"]
    lines = [
        "",
        f"**Paced** ({d['measured_at']}): the same {d['clients']} clients offering "
        f"{pace['offered_per_s']:g} cycles/s together (each one cycle every "
        f"{d['clients'] / pace['offered_per_s']:.2f} s from a random phase), as people and bots that pause "
        f"do; {cps:,.1f} cycles/s done. Cycle start lateness p50 {pace['late_p50_ms']:.0f} ms, "
        f"p99 {late:,.0f} ms ({pace['late_over_100ms']:.1%} of cycles over 100 ms late). "
        "In the run above every client starts its next cycle at once, which measures capacity: "
        "there the mean latency is set by the client count (Little's law: 50 / (4 × cycles/s)).",
        "",
        table(
            ["request (paced)", "count", "p50 (ms)", "p90 (ms)", "p99 (ms)"],
            [[k, v["count"], v["p50_ms"], v["p90_ms"], v["p99_ms"]] for k, v in req.items()],
        ),
    ]
    # The clients start from random phases, so the rate done is a little under the
    # rate offered even when every cycle starts on time: what is judged is that the
    # server kept up with >= 150 cycles/s offered.
    kept_up = late < 100 and cps >= 0.98 * pace["offered_per_s"]
    ok = pace["offered_per_s"] >= 150 and kept_up and p99 < 100
    figure = f"{p99:,.0f} ms (worst: {worst}; {cps:,.1f} cycles/s, lateness p99 {late:,.0f} ms)"
    why = over(p99, 100).split("(")[-1].rstrip(")") if p99 >= 100 else "the server did not keep up"
    return lines, [[name, figure, verdict(True) if ok else f"{verdict(False)} ({why})"]]


def short(value: float, goal: float) -> str:
    return verdict(True) if value >= goal else f"{verdict(False)} ({goal / max(value, 1e-9):.1f}× short)"


def over(value: float, goal: float) -> str:
    ratio = value / goal
    return verdict(True) if value <= goal else f"{verdict(False)} ({ratio:.{2 if ratio < 1.1 else 1}f}× over)"


def fairness_section(d: dict | None) -> tuple[list[str], list[list[str]]]:
    if d is None:
        return ["_Not measured (run `python bench/fairness.py`)._"], [
            ["deadlines fire ≤ 2 s late while 20 bot games run", "n/a", verdict(None)]
        ]
    worst = max(d.get("late_max") or 0.0, d.get("overdue_unfired_max") or 0.0)
    lines = [
        f"Measured {d['measured_at']} on {d['machine']}: a Celery worker ({d['concurrency']} processes) "
        f"and beat on Redis; {d['bot_games']} Rising Sun games played by bots only and "
        f"{d['timed_games']} games of people who never move, 5 s per decision, for {d['seconds']:.0f} s. "
        f"{load_note(d)}",
        "",
        table(
            ["measure", "value"],
            [
                ["deadlines fired", d["fired"]],
                [
                    "lateness p50 / p95 / max (s)",
                    " / ".join(
                        "-" if d[k] is None else f"{d[k]:.2f}" for k in ("late_p50", "late_p95", "late_max")
                    ),
                ],
                ["longest overdue, never fired (s)", d["overdue_unfired_max"]],
                ["bot events per second (all games)", round(d["bot_events_per_second"], 1)],
                ["broker queue length median / max", f"{d['queue_median']} / {d['queue_max']}"],
            ],
        ),
    ]
    return lines, [
        [
            f"deadlines fire ≤ 2 s late while {d['bot_games']} bot games run",
            f"{worst:.1f} s",
            over(worst, 2.0),
        ]
    ]


def engines_section(d: dict | None) -> list[str]:
    if d is None:
        return ["_Not measured (run `make bench`)._"]
    rows = []
    for rid, r in d["results"].items():
        if "skipped" in r:
            rows.append([rid, "-", "-", "-", "-", "-", f"skipped: {r['skipped']}"])
        else:
            note = f"{len(r['failures'])} game(s) failed: {r['failures'][0]}" if r["failures"] else "ok"
            sim_ms = r["sim_median_ms"] if "sim_median_ms" in r else r["sim_median_s"] * 1000
            rows.append(
                [rid, r["players"], r["games"], sim_ms, r["replay_median_ms"], int(r["events_median"]), note]
            )
    return [
        f"Measured {d['measured_at']} on {d['machine']}. Seeded random games through the engine "
        "contract (`games.rules.testing.play_random_game`, periodic self-checks off); replay = "
        f"`games.rules.base.fold` of the finished game's events. {load_note(d)}",
        "",
        table(
            [
                "ruleset",
                "players",
                "games",
                "simulation median (ms)",
                "replay median (ms)",
                "events/game (median)",
                "notes",
            ],
            rows,
        ),
    ]


def post_only_goals(d: dict | None) -> list[list[str]]:
    name = "POST-only run ≥ 250 accepted commands/s"
    if d is None:
        return [[name, "not measured", "n/a (run `make bench`)"]]
    per_s = d["commands_per_s"]
    measured = (
        f"{per_s:,.1f} (p50 {d['post']['p50_ms']:,.0f} ms, p99 {d['post']['p99_ms']:,.0f} ms; "
        f"server CPU {d['server_cpu_ms_per_post']} ms per POST)"
    )
    short = "" if per_s >= 250 else f" ({250 / max(per_s, 1e-9):.1f}× short)"
    return [[name, measured, ("**met**" if per_s >= 250 else "**not met**") + short]]


def render() -> str:
    store_lines, _ = event_store_section(load("event_store"))
    api_lines, _ = api_section(load("api_load"))
    streams_lines, _ = streams_section(load("streams"))
    fair_lines, _ = fairness_section(load("fairness"))
    replay_lines, _ = replay_section(load("replay_range"))
    bots_lines, _ = bots_section(load("bots_heuristic"), load("bots_mcts"))
    web_lines, _ = web_section(load("web_pages"))
    pairs = ROOT / "bench" / "pairs.md"
    out = [
        "# Benchmarks",
        "",
        f"Generated by `bench/report.py` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} from the "
        "results in var/bench/ (the bot tables: from the committed game log, bench/records/). `make bench` starts a project-local PostgreSQL 15 (+ Redis) with default "
        "durability (`scripts/services.sh`, `SERVICES_DURABLE=1`), then runs `bench/event_store.py`, "
        "`bench/api_load.py`, `bench/fairness.py` and `bench/engines.py`, then this report; each script "
        "also runs alone with DATABASE_URL (and REDIS_URL) set. It is never part of `make test`.",
        "",
        "## Goals",
        "",
        "Each goal with this run's figure and the previous run's (`make bench` keeps the results it "
        "replaces in var/bench/previous/).",
        "",
        goals_table(),
        "",
        *([pairs.read_text().rstrip(), ""] if pairs.exists() else []),
        "## Event store: appends per second",
        "",
        *store_lines,
        "",
        "## API under load",
        "",
        *api_lines,
        "",
        "## Live streams (SSE) under load",
        "",
        *streams_lines,
        "",
        "## Background work: deadlines while bots play",
        "",
        *fair_lines,
        "",
        "## Range replay",
        "",
        *replay_lines,
        "",
        "## Web pages",
        "",
        *web_lines,
        "",
        "## Engines",
        "",
        *engines_section(load("engines")),
        "",
        "## Bots: strength and speed",
        "",
        *bots_lines,
        "## Reproduce",
        "",
        "```sh",
        "make bench                                   # everything, ~4 minutes",
        "BENCH_SECONDS=2 BENCH_API_SECONDS=10 make bench   # quicker, noisier",
        "python bench/event_store.py --help           # each script runs alone with DATABASE_URL set",
        "python bench/api_load.py --url http://127.0.0.1:8000   # against a running server",
        "python bench/api_load.py --mode post-only --clients 50 --games 200   # commands only (untimed refills)",
        "python bench/replay_range.py                 # range replay on the embedded default",
        "make bench-bots                              # bot tables to 200 games each (resumes; hours for mcts)",
        "```",
        "",
    ]
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--stdout", action="store_true")
    args = ap.parse_args()
    text = render()
    if args.stdout:
        print(text)
    else:
        OUT.parent.mkdir(exist_ok=True)
        OUT.write_text(text)
        print(goals_table())
        print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
