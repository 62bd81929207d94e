"""The streams section of docs/benchmarks.md (bench/report_streams.py): the drop and
its verdict, and whether each run played games of its own (since 2026-11-27)."""

from __future__ import annotations

from bench.report_streams import streams_section


def _result(**extra) -> dict:
    return {
        "measured_at": "2026-11-27 01:00 UTC",
        "machine": "2 cores",
        "workers": 2,
        "database": "postgres",
        "redis": True,
        "streams_open": 1000,
        "streams": 1000,
        "users": 100,
        "games": 100,
        "ruleset": "rising-sun",
        "clients": 10,
        "seconds": 20,
        "commands_per_s_without": 232.1,
        "commands_per_s_with": 195.0,
        "delivery_ms": {"count": 10, "missing": 0, "p50": 1, "p99": 29, "max": 100},
        "health_ms": {"p50": 2.7, "p99": 17.5},
        "resources": {
            "before": {"sockets": 27},
            "during": {"sockets": 1041},
            "after": {"sockets": 41},
            "after_round_2": {"sockets": 41},
        },
        **extra,
    }


def test_fresh_games_per_run_are_said_and_the_drop_judged():
    lines, goals = streams_section(_result(fresh_games=True, drop_percent=14.8))
    assert "each run on games of its own" in "\n".join(lines)
    assert goals[2] == ["streams: command throughput drop < 20%", "14.8%", "**met**"]


def test_older_results_say_they_shared_the_games():
    lines, goals = streams_section(_result(drop_percent=24.8))
    text = "\n".join(lines)
    assert "ran first without streams" in text and "games of its own" not in text
    assert goals[2][1:] == ["24.8%", "**not met**"]
