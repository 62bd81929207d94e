"""Small helpers shared by the benchmarks (stdlib only)."""

from __future__ import annotations

import json
import os
import platform
import statistics
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "var" / "bench"
PREVIOUS = RESULTS / "previous"  # the results the last `make bench` replaced (scripts/bench.sh)


def save(name: str, data: dict, directory: Path | None = None) -> Path:
    directory = directory or RESULTS
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.json"
    data = {
        **data,
        "measured_at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": machine(),
        "loadavg_1m_at_end": round(os.getloadavg()[0], 2),
    }
    path.write_text(json.dumps(data, indent=2))
    return path


def machine() -> str:
    return f"{os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}, {platform.machine()}"


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A GitHub-flavoured Markdown table (also readable in a terminal)."""
    cells = [[str(h) for h in headers]] + [[fmt(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = [
        "| " + " | ".join(c.ljust(w) for c, w in zip(cells[0], widths, strict=True)) + " |",
        "|" + "|".join("-" * (w + 2) for w in widths) + "|",
    ]
    lines += [
        "| "
        + " | ".join(
            c.ljust(w) if j == 0 else c.rjust(w) for j, (c, w) in enumerate(zip(r, widths, strict=True))
        )
        + " |"
        for r in cells[1:]
    ]
    return "\n".join(lines)


def fmt(v: object) -> str:
    if isinstance(v, float):
        return f"{v:,.1f}" if v < 100 else f"{v:,.0f}"
    if isinstance(v, int):
        return f"{v:,}"
    return str(v)


def percentile(values: Sequence[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = max(0, min(len(s) - 1, round(p / 100 * (len(s) - 1))))
    return s[k]


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def run_threads(
    n: int,
    duration: float,
    setup: Callable[[int], object],
    step: Callable[[object], int],
    teardown: Callable[[object], None] | None = None,
) -> tuple[int, float]:
    """Run `step(ctx)` in n threads for `duration` seconds (after all threads
    finished `setup`); returns (total count returned by step, elapsed seconds)."""
    barrier = threading.Barrier(n + 1)
    stop = threading.Event()
    counts = [0] * n
    errors: list[BaseException] = []

    def worker(i: int) -> None:
        ctx = None
        try:
            ctx = setup(i)
            barrier.wait()
            c = 0
            while not stop.is_set():
                c += step(ctx)
            counts[i] = c
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
            barrier.abort()
        finally:
            if teardown is not None and ctx is not None:
                teardown(ctx)

    threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    try:
        barrier.wait()
    except threading.BrokenBarrierError:
        pass
    t0 = time.perf_counter()
    time.sleep(duration) if not errors else None
    stop.set()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - t0
    if errors:
        raise errors[0]
    return sum(counts), elapsed


def cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far; 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def process_tree(pid: int) -> list[int]:
    """pid and all its descendants (a server's workers)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            with open(f"/proc/{p}/task/{p}/children") as f:
                todo += [int(x) for x in f.read().split()]
        except OSError:
            pass
    return out
