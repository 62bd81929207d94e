#!/usr/bin/env python3
"""The embedded default behind `make run`: one command, no external services.

Migrates the database (SQLite under var/ unless DATABASE_URL says otherwise),
collects static files, then runs together

  * gunicorn (gthread workers: Server-Sent-Event streams hold a thread each),
  * a Celery worker and Celery beat (broker: kombu's filesystem transport under
    var/ when neither CELERY_BROKER_URL nor REDIS_URL is set -- see settings),

and stops them together. Ctrl-C, SIGTERM or SIGHUP to this process (or to the
whole process group, which is what a terminal or `kill -- -PGID` does) stops
every child; if any child dies on its own, the others are stopped too and the
exit code is non-zero. Children stay in our process group (a group kill reaches
them directly) and get PR_SET_PDEATHSIG, so even a SIGKILL of this supervisor
alone leaves no orphan server behind.

Environment: PORT (8000), BIND_HOST (127.0.0.1), WEB_WORKERS (2), WEB_THREADS (8), ACCESS_LOG
(- = stdout, empty = off),
CELERY_CONCURRENCY (2), CELERY_LOG_LEVEL (WARNING), NO_CELERY=1 (web only), plus everything settings read.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VAR = ROOT / "var"
STOP_GRACE_SECONDS = 10
COLD_SHUTDOWN_AFTER = 4


def log(msg: str) -> None:
    print(f"[run] {msg}", flush=True)


def _die_with_parent() -> None:  # runs in the child between fork and exec
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass
    # Ctrl-C reaches children directly from the terminal; restore default
    # dispositions that the supervisor changed.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def descendants(pid: int) -> set[int]:
    """All live descendants of pid (from /proc), to catch grandchildren."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    out: set[int] = set()
    todo = [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            if c not in out:
                out.add(c)
                todo.append(c)
    return out


class Supervisor:
    def __init__(self) -> None:
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.stopping = False
        self.exit_code = 0

    def spawn(self, name: str, argv: list[str], env: dict[str, str]) -> None:
        log(f"starting {name}: {' '.join(argv)}")
        self.procs[name] = subprocess.Popen(argv, cwd=ROOT, env=env, preexec_fn=_die_with_parent)

    def on_signal(self, signum: int, _frame: object) -> None:
        if not self.stopping:
            log(f"got {signal.Signals(signum).name}: stopping")
        self.stopping = True

    def stop_all(self) -> None:
        self.stopping = True
        tracked = descendants(os.getpid())
        for p in self.procs.values():
            if p.poll() is None:
                try:
                    p.send_signal(signal.SIGTERM)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + STOP_GRACE_SECONDS
        cold = time.monotonic() + COLD_SHUTDOWN_AFTER
        while time.monotonic() < deadline and any(p.poll() is None for p in self.procs.values()):
            if time.monotonic() > cold:
                # Celery's warm shutdown can wait on its consumer; a cold one is
                # safe (tasks are acks_late: unacknowledged ones are redelivered).
                for name, p in self.procs.items():
                    if name in ("worker", "beat") and p.poll() is None:
                        p.send_signal(signal.SIGQUIT)
                cold = deadline
            time.sleep(0.1)
        for name, p in self.procs.items():
            if p.poll() is None:
                log(f"{name} did not stop in {STOP_GRACE_SECONDS}s: killing it")
                p.kill()
            p.wait()
        # grandchildren (gunicorn workers, celery pool processes) that outlived
        # their parent: end them -- only if still in our process group, so a
        # recycled pid of some unrelated process is never touched.
        for pid in tracked | descendants(os.getpid()):
            try:
                if os.getpgid(pid) == os.getpgrp():
                    os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def watch(self) -> None:
        while not self.stopping:
            for name, p in self.procs.items():
                rc = p.poll()
                if rc is not None:
                    log(f"{name} exited with code {rc}: stopping everything")
                    self.exit_code = rc or 1
                    self.stopping = True
                    break
            time.sleep(0.2)


def manage(py: str, *args: str, env: dict[str, str], check: bool = True) -> int:
    rc = subprocess.run([py, "manage.py", *args], cwd=ROOT, env=env).returncode
    if rc and check:
        log(f"manage.py {' '.join(args)} failed with code {rc}")
        sys.exit(rc)
    return rc


def main() -> int:
    host = os.environ.get("BIND_HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "8000"))
    py = sys.executable
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    env["PYTHONUNBUFFERED"] = "1"
    # Metrics of gunicorn workers, the Celery worker and beat add up in one /metrics (config/metrics.py).
    env.setdefault("PROMETHEUS_MULTIPROC_DIR", str(VAR / f"prometheus-{port}"))
    shutil.rmtree(env["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)
    os.makedirs(env["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)
    VAR.mkdir(exist_ok=True)

    if port_open(host, port):
        log(f"something already listens on {host}:{port}; set PORT=... to use another port")
        return 1

    sup = Supervisor()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, sup.on_signal)

    manage(py, "migrate", "--noinput", env=env)
    if manage(py, "collectstatic", "--noinput", "-v", "0", env=env, check=False):
        log("collectstatic failed; continuing (static files are also served from the apps)")
    if sup.stopping:
        return 130

    sup.spawn("web", [
        py, "-m", "gunicorn", "config.wsgi:application",
        "-k", "gthread", "--threads", os.environ.get("WEB_THREADS", "8"),
        "-w", os.environ.get("WEB_WORKERS", "2"),
        "-b", f"{host}:{port}", "--graceful-timeout", "5", "--timeout", "60", "--no-control-socket",
        *(["--access-logfile", os.environ.get("ACCESS_LOG", "-")] if os.environ.get("ACCESS_LOG", "-") else []),
    ], env)
    # beat sends a deadline sweep every few seconds: INFO would flood the console
    celery_level = os.environ.get("CELERY_LOG_LEVEL", "WARNING")
    if os.environ.get("NO_CELERY") != "1":
        sup.spawn("worker", [
            py, "-m", "celery", "-A", "config.celery:app", "worker", "--loglevel", celery_level,
            "--concurrency", os.environ.get("CELERY_CONCURRENCY", "2"), "--hostname", f"embedded-{port}@%h",
        ], env)
        sup.spawn("beat", [
            py, "-m", "celery", "-A", "config.celery:app", "beat", "--loglevel", celery_level,
            "--schedule", str(VAR / "celerybeat-schedule"), "--pidfile", str(VAR / f"celerybeat-{port}.pid"),
        ], env)

    deadline = time.monotonic() + 60
    while not sup.stopping and not port_open(host, port):
        if sup.procs["web"].poll() is not None or time.monotonic() > deadline:
            log("the web server did not come up")
            sup.stop_all()
            return 1
        time.sleep(0.2)
    if not sup.stopping:
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
        print(f"Sengoku serving on http://{shown}:{port} (docs at /api/v1/docs)", flush=True)
        sup.watch()
    sup.stop_all()
    log("stopped")
    return sup.exit_code


if __name__ == "__main__":
    sys.exit(main())
