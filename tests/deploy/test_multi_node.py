"""More than one node: two web servers on different ports sharing one
PostgreSQL and one Redis behave as one -- a command through one reaches live
streams on the other within 1 s; idempotency keys, throttles and the stream
cap hold across them; two beat schedulers running by mistake still fire each
deadline once. Runs on the PostgreSQL + Redis pass only (servers and Celery
processes are started as subprocesses on DATABASE_URL / REDIS_URL)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import time
import uuid

import pytest

from tests.support import servers
from tests.support.sse_client import Stream

DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    # one xdist worker for the whole module: its servers share DATABASE_URL itself (not a per-worker test DB)
    pytest.mark.xdist_group("multi_node"),
    pytest.mark.skipif(
        not (DATABASE_URL.startswith("postgres") and REDIS_URL),
        reason="needs PostgreSQL and Redis (DATABASE_URL=postgres://..., REDIS_URL)",
    ),
]


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    e = servers.server_env(
        tmp_path_factory.mktemp("nodes"),
        DATABASE_URL=DATABASE_URL,
        REDIS_URL=REDIS_URL,
        HOOKS_INLINE="1",
        STREAMS_PER_ACCOUNT="4",
        THROTTLE_PRESS="4/min",
        DEADLINE_SWEEP_SECONDS="1",
        HEARTBEAT_SECONDS="1",
        DEADLINE_OUTAGE_SECONDS="100000000",
    )  # earlier runs left the sweeper state behind
    e.pop("CELERY_BROKER_URL", None)
    servers.migrate(e)
    return e


@pytest.fixture(scope="module")
def nodes(env):
    a = servers.Server(env, workers=1)
    try:
        b = servers.Server(env, workers=1)
    except Exception:
        a.stop()
        raise
    yield a, b
    a.stop()
    b.stop()


def people(port, n):
    tag = uuid.uuid4().hex[:6]
    return [servers.register(port, f"n{tag}{i}") for i in range(n)]


def test_a_command_through_one_node_reaches_streams_on_the_other_within_a_second(nodes):
    a, b = nodes
    users = people(a.port, 2)
    gid = servers.toy_game(a.port, users)
    version = servers.request(b.port, "GET", f"/games/{gid}", users[0]["token"])[1]["version"]

    async def run():
        game_stream = await Stream.open(
            b.port, f"/games/{gid}/events?stream=1&after={version}", users[1]["token"]
        )
        user_stream = await Stream.open(b.port, "/accounts/me/stream", users[1]["token"])
        for s in (game_stream, user_stream):
            assert s.status == 200
            await s.until(lambda f: f.startswith("retry:"), 5)
        loop = asyncio.get_running_loop()
        t0 = time.perf_counter()
        new = await loop.run_in_executor(None, servers.play_one, a.port, gid, users)
        await game_stream.until(lambda f: f"id: {new}\n" in f + "\n", 5)
        elapsed = time.perf_counter() - t0
        # the command's own request/response is inside `elapsed`: the stream is faster still
        assert elapsed < 1.0, f"event reached the other node after {elapsed:.2f}s"
        await game_stream.close()
        await user_stream.close()

    asyncio.run(run())


def test_an_idempotency_key_holds_across_nodes(nodes):
    a, b = nodes
    users = people(a.port, 2)
    gid = servers.toy_game(a.port, users)
    for u in users:
        st, legal, _ = servers.request(a.port, "GET", f"/games/{gid}/legal-commands", u["token"])
        if legal["commands"]:
            break
    body = {"command": legal["commands"][0], "expected_version": legal["version"]}
    key = {"Idempotency-Key": uuid.uuid4().hex}
    st1, first, _ = servers.request(a.port, "POST", f"/games/{gid}/commands", u["token"], body, key)
    st2, again, _ = servers.request(b.port, "POST", f"/games/{gid}/commands", u["token"], body, key)
    assert st1 == 201 and st2 in (200, 201) and again == first
    meta = servers.request(b.port, "GET", f"/games/{gid}", u["token"])[1]
    assert meta["version"] == first["version"], "the retry through the other node must not play again"


def test_throttles_hold_across_nodes(nodes):
    a, b = nodes
    users = people(a.port, 2)
    gid = servers.toy_game(a.port, users)
    codes = [
        servers.request(node.port, "POST", f"/games/{gid}/messages", users[0]["token"], {"text": f"hi {i}"})[
            0
        ]
        for i, node in enumerate([a, b, a, b, a, b])
    ]
    assert codes[:4] == [201] * 4 and codes[4:] == [429, 429], codes


def test_the_stream_cap_holds_across_nodes(nodes):
    a, b = nodes
    (u,) = people(a.port, 1)

    async def run():
        opened = []
        for node in (a, b, a, b):
            s = await Stream.open(node.port, "/accounts/me/stream", u["token"])
            assert s.status == 200
            opened.append(s)
        for node in (a, b):
            s = await Stream.open(node.port, "/accounts/me/stream", u["token"])
            assert s.status == 429, (s.status, s.body)
            assert json.loads(s.body)["code"] == "too_many_streams", s.body
            assert s.headers.get("retry-after")
            await s.close()
        for s in opened:
            await s.close()

    asyncio.run(run())


def _celery(env, log, *args):
    return subprocess.Popen(
        [servers.PY, "-m", "celery", "-A", "config.celery:app", *args, "--loglevel", "WARNING"],
        cwd=servers.ROOT,
        env=env,
        start_new_session=True,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def test_two_beats_by_mistake_still_fire_each_deadline_once(env, nodes, tmp_path):
    import psycopg

    a, _ = nodes
    users = people(a.port, 2)
    st, g, _ = servers.request(
        a.port,
        "POST",
        "/games",
        users[0]["token"],
        # a production ruleset: the Celery processes do not know the test-only toy
        # excused misses: seats never turn zombie, so deadlines keep coming
        {
            "ruleset": "imjin",
            "players": 2,
            "time_control": {"seconds_per_decision": 5, "excused_misses": 1000},
        },
    )
    assert st == 201, g
    gid = g["id"]
    assert servers.request(a.port, "POST", f"/games/{gid}/seats", users[1]["token"], {})[0] == 201
    log = open(tmp_path / "celery.log", "wb")
    procs = [
        _celery(env, log, "worker", "-c", "1", "-n", f"w1-{gid[:6]}@%h", "-Q", "celery"),
        _celery(env, log, "worker", "-c", "1", "-n", f"w2-{gid[:6]}@%h", "-Q", "celery"),
        _celery(
            env, log, "beat", "--schedule", str(tmp_path / "beat1"), "--pidfile", str(tmp_path / "beat1.pid")
        ),
        _celery(
            env, log, "beat", "--schedule", str(tmp_path / "beat2"), "--pidfile", str(tmp_path / "beat2.pid")
        ),
    ]
    try:
        time.sleep(4)  # workers and beats up
        assert servers.request(a.port, "POST", f"/games/{gid}/start", users[0]["token"])[0] == 200
        deadline = time.monotonic() + 60
        fired = missed = 0
        while time.monotonic() < deadline:
            time.sleep(1)
            with psycopg.connect(DATABASE_URL.replace("postgres://", "postgresql://", 1)) as conn:
                fired = conn.execute(
                    "SELECT count(*) FROM games_deadline WHERE game_id = %s AND status = 'fired'", (gid,)
                ).fetchone()[0]
                missed = conn.execute(
                    "SELECT count(*) FROM events_storedevent WHERE stream = %s "
                    "AND type = 'core.DeadlineMissed'",
                    (gid,),
                ).fetchone()[0]
            if fired >= 4:
                break
        assert fired >= 4, (
            "the deadlines should have fired by now: " + (tmp_path / "celery.log").read_text()[-3000:]
        )
        assert missed == fired, f"{missed} defaults applied for {fired} deadlines: one fired twice"
    finally:
        for p in procs:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for p in procs:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        log.close()
