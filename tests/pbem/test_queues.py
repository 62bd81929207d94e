"""Notification deliveries have a queue of their own, and a worker takes from
its queues in turn: a burst of turn emails never holds back a bot's move or a
deadline's clock (under `make run` with three API games at full speed, bot seats
of other games waited ~40 s a move behind the deliveries, in one queue)."""

from __future__ import annotations

import os
import uuid

import pytest
from kombu import Connection, Consumer, Exchange, Producer, Queue

from config import broker  # noqa: F401  (registers the embedded transport's URL scheme)
from config.celery import app
from games.services import dispatch


def test_deliveries_go_to_the_mail_queue_and_the_play_stays_in_the_default_one():
    router = app.amqp.router
    assert router.route({}, dispatch.DELIVER)["queue"].name == "mail"
    assert router.route({}, dispatch.AFTER_EVENTS)["queue"].name == "celery"
    for name in ("games.deadlines.fire", "games.pbem.sweep"):
        assert router.route({}, name)["queue"].name == "celery"
    # a worker started without -Q (make run, compose, the manifests) consumes both
    assert set(app.amqp.queues) == {"celery", "mail"}


@pytest.mark.parametrize("which", ["embedded", "redis"])
def test_a_burst_in_one_queue_does_not_hold_back_the_other(which, tmp_path):
    if which == "redis" and not os.environ.get("REDIS_URL"):
        pytest.skip("needs Redis (the PostgreSQL + Redis pass)")
    url = (
        os.environ["REDIS_URL"] if which == "redis" else f"{broker.ALIAS}+sqlite:///{tmp_path / 'b.sqlite3'}"
    )
    tag = uuid.uuid4().hex[:8]
    mail = Queue(f"mail-{tag}", Exchange(f"mail-{tag}", "direct"), routing_key=f"mail-{tag}")
    play = Queue(f"play-{tag}", Exchange(f"play-{tag}", "direct"), routing_key=f"play-{tag}")
    seen: list[str] = []
    with Connection(url) as conn:
        producer = Producer(conn)
        for q in (mail, play):
            q(conn.default_channel).declare()
        for i in range(30):
            producer.publish({"n": i}, exchange=mail.exchange, routing_key=mail.routing_key)
        producer.publish({"n": "move"}, exchange=play.exchange, routing_key=play.routing_key)

        def got(body, message):
            seen.append(str(body["n"]))
            message.ack()

        with Consumer(conn, [mail, play], callbacks=[got]) as consumer:
            consumer.qos(prefetch_count=1)  # as the worker (prefetch multiplier 1)
            while "move" not in seen and len(seen) < 31:
                conn.drain_events(timeout=10)
        for q in (mail, play):
            q(conn.default_channel).delete()
    assert seen.index("move") <= 2  # one queue would have handed it out 31st
