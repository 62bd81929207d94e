"""examples/bot_client.py, an external bot on the typed generated client, plays
a whole game against a live server (gunicorn + uvicorn, as deployed): it
registers, marks itself a bot, is invited by the host, accepts, learns of its
turns from its stream and inbox and plays through the ordinary endpoints, next
to a platform `heuristic` seat and the host (played here)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support import servers

ROOT = Path(__file__).resolve().parents[2]
BOT = "kenji-bot"
PASSWORD = "Qz8#harbour-lights"


@pytest.fixture(scope="module")
def client_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("gen") / "sengoku_client"
    exe = Path(sys.executable).with_name("openapi-python-client")
    if not exe.exists():
        exe = Path(shutil.which("openapi-python-client") or "openapi-python-client")
    cfg = ROOT / "openapi-python-client.yml"
    args = ["generate", "--path", str(ROOT / "schema.yml"), "--meta", "none", "--config", str(cfg)]
    subprocess.run([str(exe), *args, "--output-path", str(out)], capture_output=True, timeout=300)
    assert (out / "__init__.py").exists()
    return out.parent


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    env = servers.server_env(
        tmp_path_factory.mktemp("botclient"),
        HOOKS_INLINE="1",
        BOTS_INLINE="1",
        REDIS_URL="",
        CELERY_BROKER_URL="memory://",
    )
    env.pop("DATABASE_URL", None)  # its own SQLite file on both passes
    servers.migrate(env)
    s = servers.Server(env, workers=1)
    yield s
    s.stop()


def _until(what, seconds: float = 60.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = what()
        if got:
            return got
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def test_example_bot_accepts_an_invitation_and_plays_a_whole_game(server, client_dir):
    port = server.port
    host = servers.register(port, "hana-host")
    bot = subprocess.Popen(
        [sys.executable, str(ROOT / "examples" / "bot_client.py"), "--url", f"http://127.0.0.1:{port}"]
        + ["--username", BOT, "--password", PASSWORD, "--games", "1", "--idle", "120"],
        env={**os.environ, "PYTHONPATH": str(client_dir)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        tok = host["token"]
        st, game, _ = servers.request(port, "POST", "/games", tok, {"ruleset": "rising-sun", "players": 3})
        assert st == 201, game
        gid = game["id"]
        # the bot registers itself at start: invite it as soon as its account exists
        _until(
            lambda: (
                servers.request(port, "POST", f"/games/{gid}/invitations", tok, {"username": BOT})[0] == 201
            )
        )
        _until(lambda: len(servers.request(port, "GET", f"/games/{gid}", tok)[1]["seats"]) == 2)
        assert servers.request(port, "POST", f"/games/{gid}/seats", tok, {"bot": "heuristic"})[0] == 201
        seats = servers.request(port, "GET", f"/games/{gid}", tok)[1]["seats"]
        assert seats[1]["user"] == {"id": seats[1]["user"]["id"], "username": BOT, "is_bot": True}
        assert servers.request(port, "POST", f"/games/{gid}/start", tok)[0] == 200
        end = time.monotonic() + 600
        while time.monotonic() < end:
            meta = servers.request(port, "GET", f"/games/{gid}", tok)[1]
            if meta["status"] != "running":
                break
            if any(p["seat"] == 0 for p in meta["pending"]):
                legal = servers.request(port, "GET", f"/games/{gid}/legal-commands", tok)[1]
                options = legal["commands"] or legal["samples"]
                if options:
                    body = {"command": options[-1], "expected_version": legal["version"]}
                    assert servers.request(port, "POST", f"/games/{gid}/commands", tok, body)[0] in (201, 409)
                    continue
            time.sleep(0.05)
        assert meta["status"] == "finished", meta
        out, _ = bot.communicate(timeout=60)
        assert bot.returncode == 0, out
        assert f"joined rising-sun game {gid}" in out and f"game {gid} is over" in out
        st, events, _ = servers.request(port, "GET", f"/games/{gid}/events?limit=200", tok)
        assert st == 200
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
