"""Request bodies sent with `Transfer-Encoding: chunked` (no Content-Length) are
read, or refused with 411 `length_required` where no server vouches for their
end -- never read as empty (issue 31) -- and held to MAX_REQUEST_BYTES.

Under ASGI (what `make run` and compose serve) uvicorn de-chunks the body and
Django had it whole, but Django and DRF read a body only up to Content-Length:
the view saw `{}`. Tested three ways: the ASGI application in-process, Django's
test client (WSGI, no server to de-chunk: 411), and the real server `make run`
uses (gunicorn + uvicorn workers) -- which also shows, with three worker
processes, that the stream cap and the press limit count across processes."""

from __future__ import annotations

import asyncio
import json
import socket

import pytest
from asgiref.testing import ApplicationCommunicator

from tests.support import servers
from tests.support.sse_client import Stream

LIMIT = 64 * 1024  # MAX_REQUEST_BYTES's default (docs/api.md)


def _register_body(name: str) -> bytes:
    return json.dumps({"username": name, "password": "Tr0ub4dor&3-" + name[::-1]}).encode()


# -- in process: the ASGI application -----------------------------------------------------------
def _scope(path: str, headers: list[tuple[bytes, bytes]]) -> dict:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 1234),
        "server": ("testserver", 80),
    }


async def _asgi_post(path: str, pieces: list[bytes], headers=None) -> tuple[int, dict]:
    from config.asgi import application

    hdrs = headers or [(b"content-type", b"application/json"), (b"transfer-encoding", b"chunked")]
    comm = ApplicationCommunicator(application, _scope(path, hdrs))
    for i, piece in enumerate(pieces):
        await comm.send_input({"type": "http.request", "body": piece, "more_body": i < len(pieces) - 1})
    start = await comm.receive_output(20)
    body = b""
    while True:
        msg = await comm.receive_output(20)
        body += msg.get("body", b"")
        if not msg.get("more_body"):
            break
    await comm.wait(5)
    return start["status"], json.loads(body)


@pytest.mark.django_db(transaction=True)
def test_asgi_reads_a_chunked_body():
    raw = _register_body("chunky")
    status, body = asyncio.run(_asgi_post("/api/v1/accounts/register", [raw[:10], raw[10:30], raw[30:]]))
    assert status == 201, body
    assert body["username"] == "chunky" and body["token"]


@pytest.mark.django_db(transaction=True)
def test_asgi_holds_a_chunked_body_to_the_size_limit():
    filler = json.dumps({"username": "big", "password": "x" * LIMIT}).encode()
    pieces = [filler[i : i + 8192] for i in range(0, len(filler), 8192)]
    status, body = asyncio.run(_asgi_post("/api/v1/accounts/register", pieces))
    assert status == 413 and body["code"] == "request_too_large", body


@pytest.mark.django_db(transaction=True)
def test_asgi_stops_reading_an_oversized_body_even_with_a_small_content_length():
    """The size check does not trust the header: a body longer than it says is cut off too."""
    pieces = [b"{" + b" " * 8192] * (LIMIT // 8192 + 2)
    headers = [(b"content-type", b"application/json"), (b"content-length", b"10")]
    status, body = asyncio.run(_asgi_post("/api/v1/accounts/register", pieces, headers))
    assert status == 413 and body["code"] == "request_too_large", body


# -- Django's test client: WSGI with no server to de-chunk ----------------------------------------
@pytest.mark.django_db
def test_wsgi_without_a_terminated_input_answers_411(api):
    r = api.client.generic(
        "POST",
        "/api/v1/accounts/register",
        _register_body("nochunk"),
        content_type="application/json",
        HTTP_TRANSFER_ENCODING="chunked",
    )
    assert r.status_code == 411 and r.json()["code"] == "length_required"


# -- the real server ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server(tmp_path_factory):
    env = servers.server_env(
        tmp_path_factory.mktemp("chunked"),
        HOOKS_INLINE="1",
        REDIS_URL="",
        CELERY_BROKER_URL="memory://",
        THROTTLE_PRESS="30/min",
        STREAMS_PER_ACCOUNT="8",
    )
    env.pop("DATABASE_URL", None)  # its own SQLite file, as `make run`
    servers.migrate(env)
    s = servers.Server(env, workers=3)
    yield s
    s.stop()


def _raw(port: int, head: str, pieces: list[bytes]) -> tuple[int, dict]:
    """Send a request by hand: the head, then the body as HTTP/1.1 chunks."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(head.encode() + b"\r\n")
        for piece in pieces:
            sock.sendall(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
        sock.sendall(b"0\r\n\r\n")
        data = b""
        while b"\r\n\r\n" not in data:
            data += sock.recv(65536)
        head_bytes, rest = data.split(b"\r\n\r\n", 1)
        status = int(head_bytes.split()[1])
        length = next(
            int(line.split(b":", 1)[1])
            for line in head_bytes.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        while len(rest) < length:
            chunk = sock.recv(65536)
            if not chunk:
                break
            rest += chunk
        return status, json.loads(rest[:length])


def _chunked_post(port: int, path: str, pieces: list[bytes], token: str | None = None) -> tuple[int, dict]:
    head = (
        f"POST /api/v1{path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\nConnection: close\r\n"
    )
    if token:
        head += f"Authorization: Bearer {token}\r\n"
    return _raw(port, head, pieces)


def test_the_server_reads_a_chunked_body(server):
    raw = _register_body("chunked1")
    status, body = _chunked_post(server.port, "/accounts/register", [raw[:7], raw[7:]])
    assert status == 201, body
    st, me, _ = servers.request(server.port, "GET", "/accounts/me", body["token"])
    assert st == 200 and me["username"] == "chunked1"
    # and a chunked command body reaches the view as written
    other = servers.register(server.port, "chunked2")
    game = json.dumps({"ruleset": "toy-auction", "players": 2}).encode()
    status, created = _chunked_post(server.port, "/games", [game[:5], game[5:]], other["token"])
    assert status == 201 and created["ruleset"] == "toy-auction", created


def test_the_server_holds_a_chunked_body_to_the_size_limit(server):
    filler = json.dumps({"username": "big", "password": "x" * LIMIT}).encode()
    status, body = _chunked_post(
        server.port, "/accounts/register", [filler[i : i + 4096] for i in range(0, len(filler), 4096)]
    )
    assert status == 413 and body["code"] == "request_too_large", body


def test_the_server_refuses_a_huge_stream_position_before_streaming(server):
    user = servers.register(server.port, "streamer0")
    gid = servers.toy_game(server.port, [user, servers.register(server.port, "streamer1")])

    async def run():
        for after in (2**63, 99999999999999999999, -1):
            s = await Stream.open(server.port, f"/games/{gid}/events?stream=1&after={after}", user["token"])
            try:
                assert s.status == 400, (after, s.status)
                assert json.loads(s.body)["code"] == "invalid"
            finally:
                await s.close()

    asyncio.run(run())


def test_the_stream_cap_holds_across_worker_processes(server):
    """Twenty streams of one account over three worker processes: exactly 8 open."""
    assert len(server.worker_pids()) == 3
    user = servers.register(server.port, "capped")
    gid = servers.toy_game(server.port, [user, servers.register(server.port, "capped2")])

    async def run():
        streams = [
            await Stream.open(server.port, f"/games/{gid}/events?stream=1", user["token"]) for _ in range(20)
        ]
        try:
            statuses = [s.status for s in streams]
            assert statuses.count(200) == 8, statuses
            assert statuses.count(429) == 12, statuses
            # closing one frees its slot for a stream in any process
            first = next(s for s in streams if s.status == 200)
            await first.until(lambda f: f.startswith("retry:") or f.startswith("id:"), 10)
            await first.close()
            for _ in range(50):
                again = await Stream.open(server.port, f"/games/{gid}/events?stream=1", user["token"])
                streams.append(again)
                if again.status == 200:
                    break
                await asyncio.sleep(0.1)
            assert again.status == 200
            extra = await Stream.open(server.port, f"/games/{gid}/events?stream=1", user["token"])
            streams.append(extra)
            assert extra.status == 429
        finally:
            for s in streams:
                await s.close()

    asyncio.run(run())


def test_the_press_limit_holds_across_worker_processes(server):
    users = [servers.register(server.port, f"talker{i}") for i in range(2)]
    gid = servers.toy_game(server.port, users)
    statuses = [
        servers.request(server.port, "POST", f"/games/{gid}/messages", users[0]["token"], {"text": f"m{i}"})[
            0
        ]
        for i in range(45)
    ]
    assert statuses.count(201) == 30, statuses
    assert statuses.count(429) == 15, statuses
