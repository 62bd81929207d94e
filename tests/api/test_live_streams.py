"""Live streams on the real ASGI server (gunicorn + uvicorn worker, SQLite):
open streams hold no thread, /health stays fast while they are open, an event
reaches every stream, Last-Event-ID resumes, the per-account cap answers 429,
and closing a stream frees its slot and its connection."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.support import servers
from tests.support.sse_client import Stream, ids


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    env = servers.server_env(
        tmp_path_factory.mktemp("live"),
        HOOKS_INLINE="1",
        STREAMS_PER_ACCOUNT="8",
        SSE_KEEPALIVE_SECONDS="2",
        REDIS_URL="",
        CELERY_BROKER_URL="memory://",
    )
    env.pop(
        "DATABASE_URL", None
    )  # its own SQLite file on both passes (tests/deploy/test_multi_node.py does PG)
    servers.migrate(env)
    s = servers.Server(env, workers=1)
    yield s
    s.stop()


@pytest.fixture(scope="module")
def table(server):
    """Two seated players and eight watchers, one toy game."""
    port = server.port
    users = [servers.register(port, f"live{i}") for i in range(10)]
    gid = servers.toy_game(port, users[:2])
    return port, users, gid


def worker(server) -> int:
    (pid,) = server.worker_pids()
    return pid


def event_with_id(n):
    return lambda f: f"id: {n}\n" in f + "\n"


def test_fifty_streams_cost_no_thread_and_all_get_the_event(server, table):
    port, users, gid = table
    pid = worker(server)
    version = servers.request(port, "GET", f"/games/{gid}", users[0]["token"])[1]["version"]

    async def run():
        warm = await Stream.open(port, f"/games/{gid}/events?stream=1&after={version}", users[0]["token"])
        await warm.until(lambda f: f.startswith("retry:"), 5)
        await warm.close()
        # The sync thread pools (WEB_THREADS, and HEALTH_THREADS for /health) grow
        # lazily: fill them first, so the baseline counts their threads and only
        # the streams' own cost is compared.
        loop = asyncio.get_running_loop()
        with ThreadPoolExecutor(16) as clients:
            await asyncio.gather(
                *(
                    loop.run_in_executor(
                        clients, servers.request, port, "GET", f"/games/{gid}", users[0]["token"]
                    )
                    for _ in range(32)
                ),
                *(loop.run_in_executor(clients, servers.request, port, "GET", "/health") for _ in range(8)),
            )
        await asyncio.sleep(0.5)
        threads0, sockets0 = servers.threads_of(pid), servers.sockets_of(pid)

        streams = [
            await Stream.open(port, f"/games/{gid}/events?stream=1&after={version}", users[i % 10]["token"])
            for i in range(50)
        ]
        assert [s.status for s in streams] == [200] * 50
        await asyncio.gather(*(s.until(lambda f: f.startswith("retry:"), 10) for s in streams))
        assert servers.threads_of(pid) <= threads0 + 2, "open streams must not hold threads"

        health = []
        for _ in range(20):
            t0 = time.perf_counter()
            st = (await loop.run_in_executor(None, servers.request, port, "GET", "/health"))[0]
            health.append(time.perf_counter() - t0)
            assert st in (200, 503)  # no Celery worker runs here: 503 is health's honest answer
        # Not a speed goal (that is make bench's): a thread-bound server never answers
        # at all while the streams hold every thread, so a generous bound tells them apart.
        assert max(health) < 5.0, health

        t0 = time.perf_counter()
        new = await loop.run_in_executor(None, servers.play_one, port, gid, users[:2])
        await asyncio.gather(*(s.until(event_with_id(new), 5) for s in streams))
        assert time.perf_counter() - t0 < 10.0  # delivered while the 50 streams stay open

        for s in streams:
            await s.close()
        await asyncio.sleep(1.0)
        assert servers.threads_of(pid) <= threads0 + 2
        assert servers.sockets_of(pid) <= sockets0 + 1, "closed streams must leave no connection behind"

    asyncio.run(run())


def test_last_event_id_resumes_and_keepalives_flow(server, table):
    port, users, gid = table
    v = servers.play_one(port, gid, users[:2])

    async def run():
        s = await Stream.open(port, f"/games/{gid}/events", users[0]["token"], last_id=v - 2)
        await s.until(event_with_id(v), 5)
        assert ids(s.frames) == [v - 1, v]
        await s.until(lambda f: f.startswith(": keep-alive"), 5)
        await s.close()

    asyncio.run(run())


def test_user_stream_wakes_on_a_new_notice(server, table):
    port, users, _ = table
    a, b = servers.register(port, "note_a"), servers.register(port, "note_b")

    async def run():
        s = await Stream.open(port, "/accounts/me/stream", b["token"])
        await s.until(lambda f: f.startswith("retry:"), 5)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, servers.toy_game, port, [a, b])
        await s.until(lambda f: "event: game_started" in f or "event: your_turn" in f, 5)
        await s.close()

    asyncio.run(run())


def test_stream_cap_is_429_with_retry_after_and_a_closed_stream_frees_its_slot(server, table):
    port, users, gid = table
    capped = servers.register(port, "capped")
    path = f"/games/{gid}/events?stream=1"

    async def run():
        streams = [await Stream.open(port, path, capped["token"]) for _ in range(8)]
        assert [s.status for s in streams] == [200] * 8
        extra = await Stream.open(port, path, capped["token"])
        assert extra.status == 429
        assert int(extra.headers["retry-after"]) > 0
        import json

        body = json.loads(extra.body)
        assert body["code"] == "too_many_streams" and "8" in body["detail"]
        await extra.close()
        # the user stream counts against the same cap
        extra = await Stream.open(port, "/accounts/me/stream", capped["token"])
        assert extra.status == 429
        await extra.close()
        await streams[0].close()
        for _ in range(20):  # the server notices the disconnect
            await asyncio.sleep(0.1)
            again = await Stream.open(port, path, capped["token"])
            if again.status == 200:
                break
            await again.close()
        assert again.status == 200
        for s in [again, *streams[1:]]:
            await s.close()

    asyncio.run(run())
