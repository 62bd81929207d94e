"""Small pieces of state that every web process and node must agree on exactly:
the live-stream leases of an account (api/live/slots.py without Redis) and
the press log of an account (api/press_throttle.py).

They live in the `throttle` cache, which every process shares (Redis with
REDIS_URL, else the database table `sengoku_cache`), and each change is a
read-modify-write of one entry under a lock that holds across processes: a
WATCH/MULTI transaction on Redis, a database transaction holding a lock on the
key otherwise. A plain cache get-then-set (what Django's `incr` is on the
database cache) lets two processes both read "7 of 8" and both add the 8th.

Values are plain JSON data (dicts, lists, numbers, strings)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any, TypeVar

import redis
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.db import connections, router, transaction

R = TypeVar("R")
Change = Callable[[Any], tuple[Any, R]]


def update(key: str, change: Change[R], timeout: float) -> R:
    """Apply `change(old) -> (new, result)` to the entry `key` atomically across
    processes and return `result`. `old` is None when the entry is absent or
    expired; a `new` of None deletes it; else it is kept for `timeout` seconds."""
    cache = caches["throttle"]
    client = _redis_client(cache)
    if client is not None:
        return _update_redis(client, cache.make_and_validate_key(key), change, timeout)
    return _update_db(cache, key, change, timeout)


def read(key: str) -> Any:
    """The entry as it is now (None when absent or expired)."""
    cache = caches["throttle"]
    client = _redis_client(cache)
    if client is not None:
        raw = client.get(cache.make_and_validate_key(key))
        return json.loads(raw) if raw else None
    return cache.get(key)


def _redis_client(cache: BaseCache) -> Any:
    get_client = getattr(getattr(cache, "_cache", None), "get_client", None)
    return get_client(write=True) if get_client is not None else None


def _update_redis(client: Any, key: str, change: Change[R], timeout: float) -> R:
    with client.pipeline() as pipe:
        while True:
            try:
                pipe.watch(key)
                raw = pipe.get(key)
                new, result = change(json.loads(raw) if raw else None)
                pipe.multi()
                if new is None:
                    pipe.delete(key)
                else:
                    pipe.set(key, json.dumps(new), px=max(1, int(timeout * 1000)))
                pipe.execute()
                return result
            except redis.WatchError:  # another process changed it meanwhile: read again
                continue


def _update_db(cache: Any, key: str, change: Change[R], timeout: float) -> R:
    db = router.db_for_write(cache.cache_model_class)
    conn = connections[db]
    with transaction.atomic(using=db):
        with conn.cursor() as cursor:
            if conn.vendor == "postgresql":
                # held to the end of the transaction, also for a key with no row yet
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_lock_id(key)])
            else:
                # SQLite: the first write of a transaction takes the database's write lock
                # (other writers wait for it: the busy timeout), so the read below cannot
                # race another process's; with transaction_mode IMMEDIATE (config/settings.py)
                # BEGIN has taken it already and this costs nothing.
                table = conn.ops.quote_name(cache._table)
                cursor.execute(
                    f"UPDATE {table} SET expires = expires WHERE cache_key = %s",  # noqa: S608 (quoted name)
                    [cache.make_and_validate_key(key)],
                )
        new, result = change(cache.get(key))
        if new is None:
            cache.delete(key)
        else:
            cache.set(key, new, timeout)
        return result


def _lock_id(key: str) -> int:
    """A signed 64-bit advisory lock number for the key."""
    return int.from_bytes(hashlib.sha256(b"sengoku-shared:" + key.encode()).digest()[:8], "big", signed=True)
