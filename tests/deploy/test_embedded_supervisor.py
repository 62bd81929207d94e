"""`make run` never falls over: kill -9 the Celery worker and beat of a
running embedded server; the supervisor starts each again within 5 s (and
says so), the web server answers throughout, /health reports both from their
heartbeats and returns to ok, and the killed worker's pool leaves no orphan."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.support import servers

pytestmark = pytest.mark.slow


def children(pid: int) -> dict[int, str]:
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            out[int(entry)] = cmd
    return out


def role_pid(sup: int, role: str) -> int | None:
    for pid, cmd in children(sup).items():
        if "celery" in cmd and f" {role} " in cmd:
            return pid
    return None


def wait_for(pred, timeout: float, step: float = 0.1):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = pred()
        if value:
            return value
        time.sleep(step)
    return None


def test_worker_and_beat_killed_come_back_and_web_never_stops(tmp_path):
    port = servers.free_port()
    env = servers.server_env(
        tmp_path,
        PORT=str(port),
        WEB_WORKERS="1",
        CELERY_CONCURRENCY="1",
        HEARTBEAT_SECONDS="1",
        HEARTBEAT_STALE_SECONDS="3",
        ACCESS_LOG="",
        CELERY_LOG_LEVEL="WARNING",
        REDIS_URL="",
    )
    env.pop("CELERY_BROKER_URL", None)
    env.pop("DATABASE_URL", None)
    log = open(tmp_path / "run.log", "w+b")
    sup = subprocess.Popen(
        [sys.executable, "scripts/run_embedded.py"],
        cwd=servers.ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    failures: list[str] = []
    answered: list[int] = []
    stop = threading.Event()

    def probe():
        while not stop.is_set():
            try:
                answered.append(servers.request(port, "GET", "/health?probe=live", timeout=3)[0])
            except OSError as exc:
                failures.append(repr(exc))
            time.sleep(0.1)

    try:
        assert wait_for(lambda: _health(port)[0] == 200, 90, 0.5), "the embedded server never became healthy"
        prober = threading.Thread(target=probe, daemon=True)
        prober.start()
        worker, beat = role_pid(sup.pid, "worker"), role_pid(sup.pid, "beat")
        assert worker and beat
        pool = [p for p in children(worker)]
        assert pool, "the worker has a pool process"
        killed_at = time.monotonic()
        os.kill(worker, signal.SIGKILL)
        os.kill(beat, signal.SIGKILL)
        new_worker = wait_for(lambda: (p := role_pid(sup.pid, "worker")) and p != worker and p, 10)
        new_beat = wait_for(lambda: (p := role_pid(sup.pid, "beat")) and p != beat and p, 10)
        assert new_worker and new_beat
        assert time.monotonic() - killed_at < 5.0, "both must be started again within 5 s"
        # the old worker's pool process does not linger (the supervisor is a subreaper)
        assert wait_for(lambda: not any(os.path.exists(f"/proc/{p}") and _alive(p) for p in pool), 5)
        body = wait_for(lambda: (r := _health(port))[0] == 200 and r[1], 30)
        assert body and body["worker"] == "ok" and body["scheduler"] == "ok"
        stop.set()
        prober.join(5)
        assert sup.poll() is None, "the supervisor must keep running"
        assert not failures, f"the web server stopped answering: {failures[:3]}"
        assert answered and set(answered) == {200}
        log.seek(0)
        text = log.read().decode(errors="replace")
        assert "worker killed by SIGKILL: starting it again" in text
        assert "beat killed by SIGKILL: starting it again" in text
    finally:
        stop.set()
        try:
            os.killpg(sup.pid, signal.SIGTERM)
            sup.wait(timeout=30)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(sup.pid, signal.SIGKILL)
            sup.wait()
        log.close()


def _health(port: int):
    try:
        return servers.request(port, "GET", "/health", timeout=5)[:2]
    except OSError:
        return None, None


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
