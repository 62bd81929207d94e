"""The embedded broker (config/broker.py): kombu's SQLAlchemy transport on a
SQLite file. Producers in several processes and a consumer racing on the same
file lose nothing and choke on nothing (the filesystem transport it replaces
could hand a consumer a half-written message file: JSONDecodeError), an acked
message is deleted, and a message taken by a consumer that dies without acking
comes back after the visibility timeout."""

from __future__ import annotations

import multiprocessing
import queue
import threading
import time

import pytest
from kombu import Connection

from config import broker


def _produce(url: str, who: int, n: int) -> None:
    with Connection(url) as conn:
        q = conn.SimpleQueue("race")
        for i in range(n):
            q.put({"who": who, "i": i})
        q.close()


def _rows(path) -> list[tuple]:
    import sqlite3

    with sqlite3.connect(path) as c:
        return c.execute("SELECT visible, COUNT(*) FROM kombu_message GROUP BY visible").fetchall()


def test_concurrent_producers_and_a_consumer_lose_nothing(tmp_path):
    url = broker.url(tmp_path / "broker.sqlite3")
    ctx = multiprocessing.get_context("spawn")
    producers = [ctx.Process(target=_produce, args=(url, w, 150)) for w in range(3)]
    for p in producers:
        p.start()
    got = set()
    with Connection(url) as conn:
        q = conn.SimpleQueue("race")
        end = time.monotonic() + 60
        while len(got) < 450 and time.monotonic() < end:
            try:
                m = q.get(timeout=1)
            except q.Empty:
                continue
            body = m.payload
            got.add((body["who"], body["i"]))
            m.ack()
        q.close()
    for p in producers:
        p.join(10)
        assert p.exitcode == 0
    assert got == {(w, i) for w in range(3) for i in range(150)}
    assert _rows(tmp_path / "broker.sqlite3") == []  # acked messages are deleted, not kept hidden


def test_a_message_whose_consumer_died_is_delivered_again(tmp_path, monkeypatch):
    url = broker.url(tmp_path / "broker.sqlite3")
    with Connection(url) as conn:
        conn.SimpleQueue("lost").put({"n": 1})
    # a consumer takes it and dies (no ack, no restore: like a kill -9)
    conn = Connection(url)
    m = conn.SimpleQueue("lost").get(timeout=5)
    m.channel.qos.restore_at_shutdown = False  # dies: kombu does not put it back
    assert m.payload == {"n": 1}
    assert _rows(tmp_path / "broker.sqlite3") == [(0, 1)]  # hidden, not deleted
    with Connection(url) as other:
        q = other.SimpleQueue("lost")
        with pytest.raises(q.Empty):
            q.get(timeout=0.5)  # still hidden for the visibility timeout
        monkeypatch.setattr(broker, "VISIBILITY_SECONDS", 0)
        again = q.get(timeout=5)
        assert again.payload == {"n": 1}
        again.ack()
    assert _rows(tmp_path / "broker.sqlite3") == []
    conn.release()


def _acker(to_ack: queue.Queue, errors: list[BaseException]) -> None:
    """The pool's result-handler thread: acks whatever the poller hands it."""
    while True:
        m = to_ack.get()
        if m is None:
            return
        try:
            m.ack()
        except BaseException as exc:  # noqa: BLE001 (collected and asserted on by the test)
            errors.append(exc)


def _poll(q, n: int, got: list[int], to_ack: queue.Queue, errors: list[BaseException]) -> None:
    """The worker's main thread: polls and hands each message to the ackers."""
    end = time.monotonic() + 60
    try:
        while len(got) < n and not errors and time.monotonic() < end:
            try:
                m = q.get(timeout=1)
            except q.Empty:
                continue
            got.append(m.payload["i"])
            to_ack.put(m)
    except BaseException as exc:  # noqa: BLE001 (the poll is the other half of the race)
        errors.append(exc)


def test_acks_from_another_thread_while_the_consumer_polls(tmp_path):
    """The Celery worker on this transport runs a synchronous loop: its main
    thread polls (`_get`) while the prefork pool's result-handler thread acks
    (`call_soon_ack` runs the ack at once, in that thread). With one SQLAlchemy
    session shared by both threads, an ack's DELETE + commit lands in the middle
    of a poll's transaction and the worker dies with IllegalStateChangeError
    ("prepared state") or a similar session error."""
    url = broker.url(tmp_path / "broker.sqlite3")
    n = 400
    with Connection(url) as conn:
        q = conn.SimpleQueue("acks")
        for i in range(n):
            q.put({"i": i})
        q.close()
    to_ack: queue.Queue = queue.Queue()
    errors: list[BaseException] = []
    got: list[int] = []
    with Connection(url) as conn:
        q = conn.SimpleQueue("acks")
        threads = [threading.Thread(target=_acker, args=(to_ack, errors)) for _ in range(2)]
        for t in threads:
            t.start()
        try:
            _poll(q, n, got, to_ack, errors)
        finally:
            for _ in threads:
                to_ack.put(None)
            for t in threads:
                t.join(30)
        q.close()
    assert errors == []
    assert sorted(got) == list(range(n))
    assert _rows(tmp_path / "broker.sqlite3") == []
