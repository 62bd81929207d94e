"""The web pages section of docs/benchmarks.md (results of bench/web_pages.py)."""

from __future__ import annotations

import statistics

from bench.common import table
from bench.report_replay import verdict


def web_section(d: dict | None) -> tuple[list[str], list[list[str]]]:
    name = "web pages: first paint ≤ 300 ms (median) and < 200 KB each (embedded default)"
    if d is None:
        return ["_Not measured (run `make bench`)._"], [[name, "n/a", verdict(None)]]
    runs = d["runs"]
    pages = list(dict.fromkeys(r["page"] for r in runs))
    rows, ok = [], True
    for page in pages:
        mine = [r for r in runs if r["page"] == page]
        paint = statistics.median(r["paint_ms"] for r in mine)
        kb = max(r["bytes"] for r in mine) / 1024
        ok = ok and paint <= d["goal_paint_ms"] and kb < d["goal_kb"]
        rows.append([page, f"{paint:.0f}", f"{max(r['paint_ms'] for r in mine):.0f}", f"{kb:.1f}"])
    lines = [
        f"Measured {d['measured_at']} on {d['machine']} (load average at the end "
        f"{d.get('loadavg_1m_at_end', '?')}): `bench/web_pages.py` serves a fresh SQLite database with "
        "`scripts/run_embedded.py` (no Celery), plays a Rising Sun game against two bots to its end "
        f"({d['game_versions']} versions), then headless Chromium signs in and loads each page "
        f"{d['rounds']} times (the first cold). Weight: everything the page loads, its API answers included.",
        "",
        table(["page", "first paint ms (median)", "worst ms", "KB on the wire (largest)"], rows),
    ]
    worst = max(statistics.median(r["paint_ms"] for r in runs if r["page"] == p) for p in pages)
    heaviest = max(r["bytes"] for r in runs) / 1024
    return lines, [[name, f"{worst:.0f} ms, {heaviest:.0f} KB", verdict(ok)]]
