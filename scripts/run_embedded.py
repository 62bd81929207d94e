#!/usr/bin/env python3
"""The embedded default behind `make run`: one command, no external services.

Migrates the database (SQLite under var/ unless DATABASE_URL says otherwise),
collects static files, then runs together

Why, with the measurements and history: docs/modules.md, `scripts/run_embedded.py`.
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
VAR = Path(os.environ.get("SENGOKU_VAR_DIR") or ROOT / "var")
STOP_GRACE_SECONDS = 10
COLD_SHUTDOWN_AFTER = 4
RESTART_DELAYS = (0.5, 1.0, 2.0, 3.0)  # after quick successive crashes; always < 5 s
RESTART_LIMIT, RESTART_WINDOW = 5, 60.0  # the web server only: then give up
PR_SET_PDEATHSIG, PR_SET_CHILD_SUBREAPER = 1, 36


def log(msg: str) -> None:
    print(f"[run] {msg}", flush=True)


def _die_with_parent() -> None:  # runs in the child between fork and exec
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
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


def describe(rc: int) -> str:
    if rc < 0:
        try:
            return f"killed by {signal.Signals(-rc).name}"
        except ValueError:
            return f"killed by signal {-rc}"
    return f"exited with code {rc}"


class Supervisor:
    def __init__(self) -> None:
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.specs: dict[str, tuple[list[str], dict[str, str]]] = {}
        self.started: dict[str, float] = {}
        self.quick_crashes: dict[str, int] = {}
        self.exits: dict[str, list[float]] = {}
        self.stopping = False
        self.exit_code = 0
        try:  # orphans of a killed child (its pool processes) are reparented to us
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1)
        except OSError:
            pass

    def spawn(self, name: str, argv: list[str], env: dict[str, str]) -> None:
        log(f"starting {name}: {' '.join(argv)}")
        self.specs[name] = (argv, env)
        self.started[name] = time.monotonic()
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
        self._wait_for_children()
        self._kill_stragglers(tracked | descendants(os.getpid()))
        self.reap_orphans()

    def _running(self) -> bool:
        return any(p.poll() is None for p in self.procs.values())

    def _wait_for_children(self) -> None:
        """Up to STOP_GRACE_SECONDS for the children to stop (Celery gets a cold
        shutdown after COLD_SHUTDOWN_AFTER), then kill what is left."""
        deadline = time.monotonic() + STOP_GRACE_SECONDS
        cold = time.monotonic() + COLD_SHUTDOWN_AFTER
        while time.monotonic() < deadline and self._running():
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

    @staticmethod
    def _kill_stragglers(pids: set[int]) -> None:
        """Grandchildren (gunicorn workers, celery pool processes) that outlived
        their parent: end them -- only if still in our process group, so a
        recycled pid of some unrelated process is never touched."""
        for pid in pids:
            try:
                if os.getpgid(pid) == os.getpgrp():
                    os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def reap_orphans(self) -> None:
        """End and reap processes reparented to us (we are a subreaper) that are
        none of our supervised children: the pool of a worker that was killed."""
        ours = {p.pid for p in self.procs.values()}
        for pid in descendants(os.getpid()):
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) != os.getpid() or pid in ours:
                continue
            try:
                if stat.rsplit(")", 1)[1].split()[0] != "Z":
                    os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError, PermissionError):
                pass

    def restart(self, name: str, rc: int) -> bool:
        """Start `name` again after a short pause; False when we should give up."""
        now = time.monotonic()
        quick = now - self.started.get(name, now) < 10
        self.quick_crashes[name] = self.quick_crashes.get(name, 0) + 1 if quick else 0
        delay = RESTART_DELAYS[min(self.quick_crashes[name], len(RESTART_DELAYS) - 1)]
        if name == "web":
            recent = [t for t in self.exits.get(name, []) if now - t < RESTART_WINDOW] + [now]
            self.exits[name] = recent
            if len(recent) >= RESTART_LIMIT:
                log(f"web {describe(rc)} {len(recent)} times in {RESTART_WINDOW:.0f}s: stopping everything")
                return False
        log(f"{name} {describe(rc)}: starting it again in {delay:.1f}s")
        end = time.monotonic() + delay
        while time.monotonic() < end and not self.stopping:
            time.sleep(0.05)
        if not self.stopping:
            self.reap_orphans()
            argv, env = self.specs[name]
            self.spawn(name, argv, env)
        return True

    def watch(self) -> None:
        while not self.stopping:
            for name, p in list(self.procs.items()):
                rc = p.poll()
                if rc is not None and not self.stopping and not self.restart(name, rc):
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
    # Metrics of gunicorn workers, the Celery worker and beat add up in one /metrics (telemetry/metrics.py).
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

    sup.spawn(
        "web",
        [
            py,
            "-m",
            "gunicorn",
            "config.asgi:application",
            "-k",
            "uvicorn_worker.UvicornWorker",
            "-w",
            os.environ.get("WEB_WORKERS", "2"),
            "-b",
            f"{host}:{port}",
            "--graceful-timeout",
            "5",
            "--timeout",
            "60",
            "--no-control-socket",
            # No proxy stands in front of the embedded server and every client is on
            # loopback: trusting X-Forwarded-For from 127.0.0.1 (gunicorn's default)
            # would let any client pick its address and dodge the rate limits.
            "--forwarded-allow-ips",
            os.environ.get("FORWARDED_ALLOW_IPS", ""),
            *(
                ["--access-logfile", os.environ.get("ACCESS_LOG", "-")]
                if os.environ.get("ACCESS_LOG", "-")
                else []
            ),
        ],
        env,
    )
    # beat sends a deadline sweep every few seconds: INFO would flood the console
    celery_level = os.environ.get("CELERY_LOG_LEVEL", "WARNING")
    if os.environ.get("NO_CELERY") != "1":
        sup.spawn(
            "worker",
            [
                py,
                "-m",
                "celery",
                "-A",
                "config.celery:app",
                "worker",
                "--loglevel",
                celery_level,
                "--concurrency",
                os.environ.get("CELERY_CONCURRENCY", "2"),
                "--hostname",
                f"embedded-{port}@%h",
            ],
            env,
        )
        sup.spawn(
            "beat",
            [
                py,
                "-m",
                "celery",
                "-A",
                "config.celery:app",
                "beat",
                "--loglevel",
                celery_level,
                "--schedule",
                str(VAR / "celerybeat-schedule"),
                "--pidfile",
                str(VAR / f"celerybeat-{port}.pid"),
            ],
            env,
        )

    deadline = time.monotonic() + 60
    while not sup.stopping and not port_open(host, port):
        if sup.procs["web"].poll() is not None or time.monotonic() > deadline:
            log("the web server did not come up")
            sup.stop_all()
            return 1
        time.sleep(0.2)
    if not sup.stopping:
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
        print(f"Sengoku serving on http://{shown}:{port} (play at /, API docs at /api/v1/docs)", flush=True)
        sup.watch()
    sup.stop_all()
    log("stopped")
    return sup.exit_code


if __name__ == "__main__":
    sys.exit(main())
