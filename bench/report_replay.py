"""The range-replay section of docs/benchmarks.md (results of bench/replay_range.py)."""

from __future__ import annotations

from bench.common import table


def verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("**met**" if ok else "**not met**")


def replay_section(d: dict | None) -> tuple[list[str], list[list[str]]]:
    name = "replay: a 5-player Shogun game in ≤ 5 requests and ≤ 1 s (embedded default)"
    if d is None:
        return ["_Not measured (run `make bench`)._"], [[name + ", cold", "n/a", verdict(None)]]
    runs = d["runs"]
    cold = [r for r in runs if r["round"] == 1]
    warm = [r for r in runs if r["round"] > 1]
    worst = lambda rs: f"{max(r['requests'] for r in rs)} req, {max(r['seconds'] for r in rs):.2f} s"  # noqa: E731
    lines = [
        f"Measured {d['measured_at']} on {d['machine']} (load average at the end "
        f"{d.get('loadavg_1m_at_end', '?')}): `bench/replay_range.py` plays a 5-player Shogun game "
        f"({d['game_versions']:,} versions) on a fresh SQLite database, serves it with "
        "`scripts/run_embedded.py` (gunicorn + 2 uvicorn workers, no Celery) and replays it over HTTP "
        "with `/replay?from=1` and its `next` links, as seat 0 and as a spectator. Round 1 is cold; "
        "later rounds may hit the page cache of the worker that serves them (pages are cached per "
        "game, seat, omniscience and range; each worker has its own cache without Redis).",
        "",
        "The server CPU column (all its processes, from /proc) is what the replay cost the server, "
        "whatever else the machine was doing: on a loaded machine the wall time is that CPU "
        "stretched by the share of the cores the server got.",
        "",
        table(
            ["round", "viewer", "versions", "requests", "seconds", "server CPU (s)"],
            [
                [
                    r["round"],
                    r["viewer"],
                    r["versions"],
                    r["requests"],
                    f"{r['seconds']:.3f}",
                    f"{r['server_cpu_seconds']:.2f}" if "server_cpu_seconds" in r else "n/a",
                ]
                for r in runs
            ],
        ),
    ]
    goals = [[name + ", cold", worst(cold), verdict(all(r["met"] for r in cold))]]
    if all("server_cpu_seconds" in r for r in cold):
        cpu = max(r["server_cpu_seconds"] for r in cold)
        goals.append(
            [
                "replay: server CPU for one cold replay ≤ 1 s (the wall-time goal on an idle machine)",
                f"{cpu:.2f} s",
                verdict(cpu <= d["goal_seconds"]),
            ]
        )
    if warm:
        goals.append([name + ", cached", worst(warm), verdict(all(r["met"] for r in warm))])
    return lines, goals
