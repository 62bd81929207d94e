"""The fan-out writes a game stream's batch itself when it can (api/live/writer.py):
the stream's task is not woken, chunks reach the client in order whatever
suspends, a slow client's later chunks wait behind its unfinished one, and a
batch that ends the stream, or one that arrives while the stream's task
writes, goes through the task's outbox."""

from __future__ import annotations

import asyncio

import pytest

from api.live import asgi as live_streams
from api.live.fanout import Fanout
from api.live.writer import EagerWriter
from tests.api.test_live_fanout import Log, inline, received, settle


class ClientSocket:
    """uvicorn's `send` as far as a writer can tell: it waits while the client's
    buffer is full (flow control), then writes; after a disconnect it drops."""

    def __init__(self):
        self.chunks: list[bytes] = []
        self.writable = asyncio.Event()
        self.writable.set()
        self.refuse: Exception | None = None
        self.ended = False

    async def __call__(self, message: dict) -> None:
        if not self.writable.is_set():
            await self.writable.wait()
        if self.refuse is not None:
            raise self.refuse
        if message["type"] == "http.response.body":
            if message.get("body"):
                self.chunks.append(message["body"])
            if not message.get("more_body"):
                self.ended = True

    def seqs(self) -> list[int]:
        out = []
        for chunk in self.chunks:
            out += [int(line[4:]) for line in chunk.decode().split("\n") if line.startswith("id: ")]
        return out


def test_a_batch_goes_straight_to_the_client_and_the_stream_stays_asleep():
    async def run():
        log, sock, writer = Log(2), ClientSocket(), EagerWriter()
        writer.send = sock
        fan = Fanout("g", inline)
        sub = fan.join(log.fetch(), 0, writer)
        await settle(fan)
        assert sock.seqs() == [1, 2] and not sub.out and not sub.event.is_set()
        assert writer.last > 0 and writer.tail is None  # done without a task

        log.n = 3
        fan.kick()
        await settle(fan)
        assert sock.seqs() == [1, 2, 3] and not sub.event.is_set()

    asyncio.run(run())


def test_no_eager_write_before_the_stream_started_nor_while_its_task_writes():
    async def run():
        log, sock, writer = Log(1), ClientSocket(), EagerWriter()
        fan = Fanout("g", inline)
        sub = fan.join(log.fetch(), 0, writer)  # writer.send unset: retry: not out yet
        await settle(fan)
        assert sock.chunks == [] and received(sub) == [1] and sub.event.is_set()

        writer.send, writer.busy = sock, True
        log.n = 2
        fan.kick()
        await settle(fan)
        assert sock.chunks == [] and received(sub) == [2]

    asyncio.run(run())


def test_a_slow_client_keeps_its_chunks_in_order():
    async def run():
        log, sock, writer = Log(1), ClientSocket(), EagerWriter()
        writer.send = sock
        fan = Fanout("g", inline)
        sub = fan.join(log.fetch(), 0, writer)
        await settle(fan)
        sock.writable.clear()  # the client stops reading
        log.n = 2
        fan.kick()
        await settle(fan)
        assert writer.tail is not None and not writer.tail.done()  # batch 2 waits for the client
        log.n = 3
        fan.kick()
        await settle(fan)
        assert received(sub) == [3], "behind an unfinished write, a batch is queued for the task"

        sock.writable.set()  # the client reads again; the task settles before its own write
        await writer.settle()
        await sock({"type": "http.response.body", "body": b"id: 3\n\n", "more_body": True})
        assert sock.seqs() == [1, 2, 3]

    asyncio.run(run())


def test_the_batch_that_ends_the_stream_goes_through_its_task():
    async def run():
        log, sock, writer = Log(2), ClientSocket(), EagerWriter()
        log.finished = True
        writer.send = sock
        fan = Fanout("g", inline)
        sub = fan.join(log.fetch(), 0, writer)
        await settle(fan)
        assert sock.chunks == []
        got = sub.out[0]
        assert got.finished and [seq for seq, _, _ in got.items] == [1, 2]

    asyncio.run(run())


def test_a_refused_write_is_queued_and_the_writer_stops():
    async def run():
        log, sock, writer = Log(1), ClientSocket(), EagerWriter()
        sock.refuse = RuntimeError("response already complete")
        writer.send = sock
        fan = Fanout("g", inline)
        sub = fan.join(log.fetch(), 0, writer)
        await settle(fan)
        assert received(sub) == [1] and writer.send is None

    asyncio.run(run())


def test_closing_cancels_a_write_left_waiting_on_a_gone_client():
    async def run():
        sock, writer = ClientSocket(), EagerWriter()
        writer.send = sock
        sock.writable.clear()
        assert writer.write_now(b"id: 1\n\n", 1.0)
        tail = writer.tail
        writer.close()
        with pytest.raises(asyncio.CancelledError):
            await tail
        assert sock.chunks == [] and writer.send is None
        assert not writer.write_now(b"id: 2\n\n", 2.0)

    asyncio.run(run())


class Response:
    status_code = 200

    def __init__(self, writer):
        self.live_writer = writer
        self.cookies = {}

    def items(self):
        return [("Content-Type", "text/event-stream")]


def test_send_live_lets_the_fan_out_write_only_after_the_first_chunk_and_waits_for_it_at_the_end():
    async def run():
        sock, writer = ClientSocket(), EagerWriter()
        seen_send = []

        async def body():
            seen_send.append(writer.send)
            yield b"retry: 2000\n\n"
            seen_send.append(writer.send)
            sock.writable.clear()
            assert writer.write_now(b"id: 1\n\n", 1.0)  # the fan-out, while the client is slow
            loop = asyncio.get_running_loop()
            loop.call_later(0.05, sock.writable.set)
            yield b"id: 2\n\n"  # the task's own chunk waits for the eager one

        await asyncio_wait_for(live_streams.send_live(Response(writer), body(), sock), 5)
        assert seen_send == [None, sock]
        assert sock.chunks == [b"retry: 2000\n\n", b"id: 1\n\n", b"id: 2\n\n"] and sock.ended
        assert writer.send is None

    asyncio.run(run())


async def asyncio_wait_for(aw, seconds: float):
    async with asyncio.timeout(seconds):
        return await aw
