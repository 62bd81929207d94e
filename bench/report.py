#!/usr/bin/env python3
"""Render docs/benchmarks.md from the JSON results in var/bench/ (written by
bench/event_store.py, bench/api_load.py and bench/engines.py), with the goals
and whether each is met.

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

from bench.common import RESULTS, table  # noqa: E402
from bench.report_replay import replay_section  # noqa: E402
from bench.report_streams import streams_section  # noqa: E402

OUT = ROOT / "docs" / "benchmarks.md"

# Reference figures measured on this machine type before the store existed
# (2 cores, PostgreSQL 15 with default durability), for orientation only.
REFERENCE = {"raw": (1631, 5606), "eventsourcing (fastest)": (744, 1372)}


def load(name: str) -> dict | None:
    path = RESULTS / f"{name}.json"
    return json.loads(path.read_text()) if path.exists() else None


def verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("**met**" if ok else "**not met**")


def ok_num(x: float | None) -> bool:
    return x is not None and not (isinstance(x, float) and math.isnan(x))


def load_note(d: dict) -> str:
    la = d.get("loadavg_1m_at_end")
    if la is None:
        return ""
    busy = " — the machine was shared with other work, so absolute figures are low and noisy; compare " \
           "rows measured in the same run" if la > 2.5 else ""
    return f"1-minute load average at the end: {la:.1f} on 2 cores{busy}."


def event_store_section(d: dict | None) -> tuple[list[str], list[list[str]]]:
    if d is None:
        return ["_Not measured (run `make bench`)._"], []
    r, n = d["results"], str(d["threads"])
    lines = [f"Measured {d['measured_at']} on {d['machine']}; each cell is the median of "
             f"{d.get('rounds', 1)} interleaved round(s) of {d['seconds']:.0f} s; one event per "
             "transaction; PostgreSQL 15 on loopback with its default durability (fsync on, "
             f"synchronous_commit on). {load_note(d)}", ""]
    rows = []
    labels = {"sengoku": "Sengoku `events.store.append` (Django)",
              "eventsourcing": "eventsourcing 9.5, default config",
              "eventsourcing-fn": "eventsourcing 9.5, `POSTGRES_ENABLE_DB_FUNCTIONS=y`",
              "raw": "raw psycopg INSERT + COMMIT"}
    for key, label in labels.items():
        if key in r:
            rows.append([label, r[key].get("1", float("nan")), r[key].get(n, float("nan"))])
        else:
            rows.append([label, "not measured", "not measured"])
    lines.append(table(["backend", "1 writer, 1 game (ev/s)", f"{n} writers, {n} games (ev/s)"], rows))
    lines += ["", "Reference figures for this machine type: raw " + " / ".join(f"{x:,}" for x in REFERENCE["raw"])
              + " ev/s, eventsourcing (fastest) " + " / ".join(f"{x:,}" for x in REFERENCE["eventsourcing (fastest)"])
              + " ev/s (1 writer / 16 writers)."]
    goals = []
    for w in ("1", n):
        s = r.get("sengoku", {}).get(w)
        es = [r[k][w] for k in ("eventsourcing", "eventsourcing-fn") if k in r and w in r[k]]
        raw = r.get("raw", {}).get(w)
        best = max(es) if es else None
        goals.append([f"store ≥ 1.0× eventsourcing at its fastest ({w} writer{'s' if w != '1' else ''})",
                      f"{s / best:.2f}×" if ok_num(s) and best else "n/a",
                      verdict(s / best >= 1.0 if ok_num(s) and best else None)])
        goals.append([f"store ≥ 0.5× raw INSERT ({w} writer{'s' if w != '1' else ''})",
                      f"{s / raw:.2f}×" if ok_num(s) and raw else "n/a",
                      verdict(s / raw >= 0.5 if ok_num(s) and raw else None)])
    return lines, goals


def api_section(d: dict | None) -> tuple[list[str], list[list[str]]]:
    if d is None:
        return ["_Not measured (run `make bench`)._"], [
            ["API ≥ 250 commands/s", "n/a", verdict(None)],
            ["POST commands p99 < 100 ms", "n/a", verdict(None)],
            ["GET view p99 < 20 ms", "n/a", verdict(None)]]
    req = d["requests"]
    lines = [f"Measured {d['measured_at']} on {d['machine']}: gunicorn gthread, {d['workers']} workers × "
             f"{d['threads']} threads, database {d['database']}; {d['clients']} concurrent clients over "
             f"{d['games']} `{d['ruleset']}` games ({d['players']} players), {d['seconds']:.0f} s. "
             "Clients and server share the machine's 2 cores. Each client cycle is GET game → "
             f"GET legal-commands → POST a random legal command → GET view. {load_note(d)}", ""]
    rows = [[k, v["count"], v["per_s"], v["p50_ms"], v["p90_ms"], v["p99_ms"]] for k, v in req.items()]
    lines.append(table(["request", "count", "per second", "p50 (ms)", "p90 (ms)", "p99 (ms)"], rows))
    lines += ["", f"Commands accepted: **{d['commands_per_s']:,.1f} commands/s**. Outcomes: "
              + ", ".join(f"{k} {v}" for k, v in sorted(d["counters"].items())) + "."]
    single = load("api_single")
    if single is not None:
        sreq = single["requests"]
        lines += ["", "For comparison, **one client alone** (no queueing: the server's own service time), "
                  f"measured {single['measured_at']}:", "",
                  table(["request", "count", "p50 (ms)", "p90 (ms)", "p99 (ms)"],
                        [[k, v["count"], v["p50_ms"], v["p90_ms"], v["p99_ms"]] for k, v in sreq.items()])]
    cps, p99, v99 = d["commands_per_s"], req["POST commands"]["p99_ms"], req["GET view"]["p99_ms"]
    goals = [["API ≥ 250 commands/s sustained", f"{cps:,.1f}", verdict(cps >= 250)],
             ["POST commands p99 < 100 ms", f"{p99:,.0f} ms", verdict(p99 < 100)],
             ["GET view p99 < 20 ms", f"{v99:,.0f} ms", verdict(v99 < 20)]]
    return lines, goals


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
            rows.append([rid, r["players"], r["games"], sim_ms, r["replay_median_ms"],
                         int(r["events_median"]), note])
    return [f"Measured {d['measured_at']} on {d['machine']}. Seeded random games through the engine "
            "contract (`games.rules.testing.play_random_game`, periodic self-checks off); replay = "
            f"`games.rules.base.fold` of the finished game's events. {load_note(d)}", "",
            table(["ruleset", "players", "games", "simulation median (ms)", "replay median (ms)",
                   "events/game (median)", "notes"], rows)]


def render() -> str:
    store_lines, store_goals = event_store_section(load("event_store"))
    api_lines, api_goals = api_section(load("api_load"))
    streams_lines, streams_goals = streams_section(load("streams"))
    replay_lines, replay_goals = replay_section(load("replay_range"))
    out = [
        "# Benchmarks",
        "",
        f"Generated by `make bench` (`bench/report.py`) on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. "
        "`make bench` starts a project-local PostgreSQL 15 (+ Redis) with default durability "
        "(`scripts/services.sh`, `SERVICES_DURABLE=1`), then runs `bench/event_store.py`, "
        "`bench/api_load.py` and `bench/engines.py`. It is never part of `make test`.",
        "",
        "## Goals",
        "",
        table(["goal", "measured", "verdict"], store_goals + api_goals + streams_goals + replay_goals),
        "",
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
        "## Range replay",
        "",
        *replay_lines,
        "",
        "## Engines",
        "",
        *engines_section(load("engines")),
        "",
        "## Reproduce",
        "",
        "```sh",
        "make bench                                   # everything, ~4 minutes",
        "BENCH_SECONDS=2 BENCH_API_SECONDS=10 make bench   # quicker, noisier",
        "python bench/event_store.py --help           # each script runs alone with DATABASE_URL set",
        "python bench/api_load.py --url http://127.0.0.1:8000   # against a running server",
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
        print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
