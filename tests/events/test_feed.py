"""Live wake-ups: in-process condition in the embedded default, Redis pub/sub
across processes when REDIS_URL is set."""

import threading
import time
import uuid

import pytest

from events import feed


def test_in_process_waiter_wakes_on_publish(settings):
    settings.REDIS_URL = ""
    settings.SENGOKU = {**settings.SENGOKU, "SSE_POLL_SECONDS": 5}
    s = uuid.uuid4()
    w = feed.Waiter(s)
    threading.Timer(0.2, feed.publish, args=(s, 3)).start()
    t0 = time.monotonic()
    w.wait(known=0, timeout=4)
    assert time.monotonic() - t0 < 2


@pytest.mark.redis
def test_redis_pubsub_wakes_waiter(settings):
    import os

    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("needs Redis (REDIS_URL)")
    settings.REDIS_URL = url
    s = uuid.uuid4()
    w = feed.Waiter(s)
    assert w._pubsub is not None
    w._pubsub.get_message(timeout=1)  # consume the subscribe confirmation if any
    import redis

    threading.Timer(0.2, lambda: redis.Redis.from_url(url).publish(feed.channel(s), "7")).start()
    t0 = time.monotonic()
    w.wait(known=0, timeout=4)
    w.close()
    assert time.monotonic() - t0 < 2
