"""Real servers in subprocesses for tests that need the ASGI server, several
processes or several nodes: free ports, a migrated database, a tiny HTTP client."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env(var_dir: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "SENGOKU_VAR_DIR": str(var_dir),
            "PYTHONUNBUFFERED": "1",
            "THROTTLE_ANON": "1000000/min",
            "THROTTLE_USER": "1000000/min",
            "THROTTLE_REGISTER": "1000000/min",
            "LOG_LEVEL": "WARNING",
        }
    )
    env.update(extra)
    return env


def migrate(env: dict[str, str]) -> None:
    subprocess.run([PY, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)


def request(
    port: int,
    method: str,
    path: str,
    token: str | None = None,
    body=None,
    headers=None,
    timeout: float = 10.0,
):
    """(status, JSON or bytes, headers) of one request on a fresh connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    h = {"Accept": "application/json", **(headers or {})}
    if token:
        h["Authorization"] = f"Bearer {token}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        h["Content-Type"] = "application/json"
    try:
        conn.request(method, "/api/v1" + path, body=data, headers=h)
        resp = conn.getresponse()
        raw = resp.read()
        try:
            payload = json.loads(raw) if raw else None
        except ValueError:
            payload = raw
        return resp.status, payload, dict(resp.getheaders())
    finally:
        conn.close()


def wait_healthy(port: int, proc: subprocess.Popen | None = None, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode} during startup")
        try:
            if request(port, "GET", "/health", timeout=2)[0] in (200, 503):
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"no server on port {port} after {timeout}s")


class Server:
    """`gunicorn -k uvicorn_worker.UvicornWorker config.asgi:application`, as deployed."""

    def __init__(self, env: dict[str, str], workers: int = 1, port: int | None = None):
        self.port = port or free_port()
        self.proc = subprocess.Popen(
            [
                PY,
                "-m",
                "gunicorn",
                "config.asgi:application",
                "-k",
                "uvicorn_worker.UvicornWorker",
                "-c",
                str(ROOT / "tests" / "support" / "gunicorn_toy.py"),
                "-w",
                str(workers),
                "-b",
                f"127.0.0.1:{self.port}",
                "--graceful-timeout",
                "3",
                "--no-control-socket",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            start_new_session=True,
        )
        try:
            wait_healthy(self.port, self.proc)
        except Exception:
            self.stop()
            raise

    def worker_pids(self) -> list[int]:
        out = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    stat = Path(f"/proc/{entry}/stat").read_text()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) == self.proc.pid:
                    out.append(int(entry))
        return out

    def stop(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=15)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()


def threads_of(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))


def sockets_of(pid: int) -> int:
    n = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:"):
                n += 1
        except OSError:
            pass
    return n


def register(port: int, name: str) -> dict:
    st, body, _ = request(
        port, "POST", "/accounts/register", body={"username": name, "password": "Tr0ub4dor&3-" + name[::-1]}
    )
    assert st == 201, body
    return body


def toy_game(port: int, users: list[dict]) -> str:
    st, g, _ = request(
        port, "POST", "/games", users[0]["token"], {"ruleset": "toy-auction", "players": len(users)}
    )
    assert st == 201, g
    for u in users[1:]:
        st, body, _ = request(port, "POST", f"/games/{g['id']}/seats", u["token"], {})
        assert st == 201, body
    st, body, _ = request(port, "POST", f"/games/{g['id']}/start", users[0]["token"])
    assert st == 200, body
    return g["id"]


def play_one(port: int, game_id: str, users: list[dict]) -> int:
    """Post one legal command as whoever may act; returns the new version."""
    for u in users:
        st, legal, _ = request(port, "GET", f"/games/{game_id}/legal-commands", u["token"])
        assert st == 200, legal
        if legal.get("commands"):
            st, res, _ = request(
                port,
                "POST",
                f"/games/{game_id}/commands",
                u["token"],
                {"command": legal["commands"][0], "expected_version": legal["version"]},
            )
            assert st == 201, res
            return res["version"]
    raise AssertionError("nobody may act")
