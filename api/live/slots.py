"""At most STREAMS_PER_ACCOUNT open live streams per account (issue 10), counted
across every web process and node (issue 31).

Why, with the measurements and history: docs/modules.md, `api/live/slots.py`.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections import defaultdict
from typing import cast

import redis
from django.conf import settings
from rest_framework.exceptions import Throttled

from games.services.errors import ErrorCode

from .. import shared_state

# Lua: drop expired members, refuse at the cap, else add -- atomically.
_ACQUIRE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[2]), ARGV[4])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2])) + 1)
return 1
"""

_lock = threading.Lock()
_local: dict[int, int] = defaultdict(int)  # only while Redis is configured but down
_open: set[Slot] = set()  # this process's leased slots (Redis or shared), renewed by refresh_open()
_redis_client: tuple[tuple[int, str], redis.Redis] | None = None


class TooManyStreams(Throttled):
    default_code = ErrorCode.TOO_MANY_STREAMS

    def __init__(self, cap: int, wait: int) -> None:
        super().__init__(
            wait=wait,
            detail=f"at most {cap} live streams per account are open at once; close one or retry later",
        )


def slot_ttl() -> float:
    return max(30.0, 3.0 * settings.SENGOKU["SSE_KEEPALIVE_SECONDS"])


def refresh_interval() -> float:
    """How often open slots are renewed: three chances before one lapses."""
    return slot_ttl() / 3.0


def _key(user_id: int) -> str:
    return f"sengoku:streams:user:{user_id}"


def _redis() -> redis.Redis:
    global _redis_client
    key = (os.getpid(), settings.REDIS_URL)  # never a parent's sockets after a fork
    if _redis_client is None or _redis_client[0] != key:
        _redis_client = (
            key,
            redis.Redis.from_url(settings.REDIS_URL, socket_timeout=5, socket_connect_timeout=5),
        )
    return _redis_client[1]


class Slot:
    """One open stream's place in its account's count; release() is idempotent.
    `member` names its lease; `shared`: the lease is in the `throttle` cache
    (no Redis), else in Redis; no member: counted in this process only."""

    def __init__(self, user_id: int, member: str | None, shared: bool = False):
        self.user_id, self.member, self.shared, self.released = user_id, member, shared, False
        self._lock = threading.Lock()

    def refresh(self) -> None:
        if self.member is None or self.released:
            return
        if self.shared:
            _renew_shared(self.user_id, [self.member])
            return
        try:
            _redis().zadd(_key(self.user_id), {self.member: time.time() + slot_ttl()}, xx=True)
        except Exception:  # Redis down: the slot lapses at worst, the stream goes on
            pass

    def release(self) -> None:
        with self._lock:
            if self.released:
                return
            self.released = True
        with _lock:
            _open.discard(self)
        if self.member is None:
            with _lock:
                _local[self.user_id] -= 1
                if _local[self.user_id] <= 0:
                    del _local[self.user_id]
            return
        try:
            if self.shared:
                _release_shared(self.user_id, self.member)
            else:
                _redis().zrem(_key(self.user_id), self.member)
        except Exception:  # it expires after slot_ttl()
            pass


# -- without Redis: leases in the shared `throttle` cache ---------------------------------------
def _shared_key(user_id: int) -> str:
    return f"streams:user:{user_id}"


def _live(held: dict[str, float] | None, now: float) -> dict[str, float]:
    return {m: t for m, t in (held or {}).items() if t > now}


def _acquire_shared(user_id: int, cap: int, member: str) -> bool:
    now = time.time()

    def change(held: dict[str, float] | None) -> tuple[dict[str, float] | None, bool]:
        leases = _live(held, now)
        if len(leases) >= cap:
            return leases or None, False
        leases[member] = now + slot_ttl()
        return leases, True

    return shared_state.update(_shared_key(user_id), change, slot_ttl() + 1)


def _renew_shared(user_id: int, members: list[str]) -> None:
    """Push the expiry of these leases on; one already lapsed or released stays gone
    (it may have been counted again by another stream meanwhile)."""
    now = time.time()

    def change(held: dict[str, float] | None) -> tuple[dict[str, float] | None, None]:
        leases = _live(held, now)
        for m in members:
            if m in leases:
                leases[m] = now + slot_ttl()
        return leases or None, None

    try:
        shared_state.update(_shared_key(user_id), change, slot_ttl() + 1)
    except Exception:  # database busy or down: the lease lapses at worst, the stream goes on
        pass


def _release_shared(user_id: int, member: str) -> None:
    now = time.time()

    def change(held: dict[str, float] | None) -> tuple[dict[str, float] | None, None]:
        leases = _live(held, now)
        leases.pop(member, None)
        return leases or None, None

    shared_state.update(_shared_key(user_id), change, slot_ttl() + 1)


def acquire(user_id: int) -> Slot:
    """A slot for a new stream of this account, or TooManyStreams (429)."""
    # int settings (_positive_int); the SENGOKU dict is typed by its widest value
    cap = cast(int, settings.SENGOKU["STREAMS_PER_ACCOUNT"])
    wait = cast(int, settings.SENGOKU["STREAM_RETRY_AFTER_SECONDS"])
    member = uuid.uuid4().hex
    if not settings.REDIS_URL:
        if not _acquire_shared(user_id, cap, member):
            raise TooManyStreams(cap, wait)
        slot = Slot(user_id, member, shared=True)
        with _lock:
            _open.add(slot)
        return slot
    try:
        ok = _redis().eval(_ACQUIRE, 1, _key(user_id), time.time(), slot_ttl(), cap, member)
    except Exception:
        ok = None  # Redis down: fall back to this process's count rather than refuse every stream
    if ok == 1:
        slot = Slot(user_id, member)
        with _lock:
            _open.add(slot)
        return slot
    if ok == 0:
        raise TooManyStreams(cap, wait)
    with _lock:
        if _local[user_id] >= cap:
            raise TooManyStreams(cap, wait)
        _local[user_id] += 1
    return Slot(user_id, None)


def open_count(user_id: int) -> int:
    """Streams this account holds, in every process (without Redis, or with it up)."""
    if not settings.REDIS_URL:
        return len(_live(shared_state.read(_shared_key(user_id)), time.time()))
    try:
        r = _redis()
        r.zremrangebyscore(_key(user_id), "-inf", time.time())
        return int(r.zcard(_key(user_id)))
    except Exception:
        pass
    with _lock:
        return _local.get(user_id, 0)


def refresh_open() -> int:
    """Renew every open leased slot of this process: Redis ones in one pipelined
    round trip (ZADD XX: a slot already released or expired elsewhere is not
    brought back), shared ones in one locked update per account. Returns how many
    were renewed; with the store down they lapse at worst, the streams go on."""
    with _lock:
        slots = [s for s in _open if not s.released]
    if not slots:
        return 0
    shared: dict[int, list[str]] = defaultdict(list)
    for slot in slots:
        if slot.shared:
            shared[slot.user_id].append(cast(str, slot.member))  # a shared slot always has a member
    for user_id, members in shared.items():
        _renew_shared(user_id, members)
    in_redis = [s for s in slots if not s.shared]
    if in_redis:
        until = time.time() + slot_ttl()
        try:
            pipe = _redis().pipeline(transaction=False)
            for slot in in_redis:
                pipe.zadd(
                    _key(slot.user_id), {cast(str, slot.member): until}, xx=True
                )  # a Redis slot has one
            pipe.execute()
        except Exception:
            return len(slots) - len(in_redis)
    return len(slots)
