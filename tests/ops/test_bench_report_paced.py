"""The paced mixed run's latency goal (bench/report.py): met only when >= 150
cycles/s were offered, the server kept up with them and every p99 is < 100 ms."""

import pytest

from bench import report


def run(offered=150.0, done=149.6, late_p99=0.0, p99=(90.0, 60.0)):
    kinds = ("POST commands", "GET view")
    return {
        "measured_at": "2026-11-26 16:00 UTC",
        "clients": 50,
        "commands_per_s": done,
        "pacing": {
            "offered_per_s": offered,
            "cycles": 4500,
            "late_p50_ms": 0.0,
            "late_p99_ms": late_p99,
            "late_max_ms": late_p99,
            "late_over_100ms": 0.0,
        },
        "requests": {
            k: {"count": 4500, "per_s": done, "p50_ms": 10.0, "p90_ms": 40.0, "p99_ms": v}
            for k, v in zip(kinds, p99, strict=True)
        },
    }


@pytest.mark.parametrize(
    ("d", "met", "why"),
    [
        (run(), True, ""),
        (run(p99=(130.0, 60.0)), False, "1.3× over"),
        (run(late_p99=400.0), False, "did not keep up"),
        (run(done=120.0), False, "did not keep up"),
        (run(offered=120.0, done=120.0), False, ""),
    ],
)
def test_the_paced_goal(d, met, why):
    lines, [[name, figure, verdict]] = report.paced_section(d)
    assert "pacing clients" in name and "POST commands" in figure
    assert verdict.startswith("**met**") == met
    assert why in verdict
    assert any("Paced" in line for line in lines)


def test_a_missing_paced_run_is_not_a_verdict():
    lines, [[_, figure, verdict]] = report.paced_section(None)
    assert lines == [] and figure == "not measured" and "n/a" in verdict
