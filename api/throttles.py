"""Rate limits a header cannot defeat (issue 10 item 3).

Why, with the measurements and history: docs/modules.md, `api/throttles.py`.
"""

from __future__ import annotations

import math
import threading
from typing import TYPE_CHECKING, cast

from django.core.cache.backends.base import BaseCache
from rest_framework import exceptions
from rest_framework import throttling as drf_throttling
from rest_framework.throttling import ScopedRateThrottle

from accounts import security
from accounts.security import shared_cache
from games.services.errors import ErrorCode

if TYPE_CHECKING:  # DRF's request and views modules import the throttle classes
    from rest_framework.request import Request
    from rest_framework.views import APIView


class SharedScopedRateThrottle(ScopedRateThrottle):
    """ScopedRateThrottle counting in the shared `throttle` cache."""

    cache = cast(BaseCache, shared_cache)  # a ConnectionProxy forwarding to the `throttle` BaseCache


class TooManyFailedLogins(exceptions.Throttled):
    default_code = ErrorCode.TOO_MANY_FAILED_LOGINS
    extra_detail_singular = extra_detail_plural = ""

    def __init__(self, wait: float) -> None:
        super().__init__(
            wait, detail=f"too many failed logins for this account; try again in {int(wait) + 1} seconds"
        )


class FailedLogins(security.FailedLogins):
    """accounts.security.FailedLogins (one count per account at every door),
    answering a locked account with the API's 429 `too_many_failed_logins`."""

    def check(self) -> None:
        try:
            super().check()
        except security.LoginLocked as exc:
            raise TooManyFailedLogins(exc.wait) from exc


class _Leases:
    """Hits this process has already counted in the shared counter, per key and
    window, and the key's last known estimate (which sizes the next lease)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: dict[str, tuple[int, int, float]] = {}  # key -> (window, hits left, estimate)

    def take(self, key: str, window: int) -> bool:
        with self._lock:
            held = self._held.get(key)
            if held is None or held[0] != window or held[1] <= 0:
                return False
            self._held[key] = (window, held[1] - 1, held[2])
            return True

    def estimate(self, key: str, window: int) -> float | None:
        held = self._held.get(key)
        return held[2] if held is not None and held[0] >= window - 1 else None

    def keep(self, key: str, window: int, left: int, estimate: float) -> None:
        with self._lock:
            if len(self._held) >= LEASE_KEYS:  # forget the windows that are over
                self._held = {k: v for k, v in self._held.items() if v[0] >= window}
            self._held[key] = (window, left, estimate)


LEASE_MAX = 32  # hits counted ahead at most per round trip
LEASE_SHARE = 8  # ... and at most this share of what the limit still allows
LEASE_KEYS = 10_000  # keys held before the ended windows are forgotten
_leases = _Leases()

if TYPE_CHECKING:
    _CounterBase = drf_throttling.SimpleRateThrottle  # what the mixin is combined with
else:
    _CounterBase = object


class _WindowCounter(_CounterBase):
    """DRF's per-user / per-address rate limit, counted instead of logged.

    DRF's SimpleRateThrottle keeps every request's timestamp in one cache entry
    and reads and rewrites that whole list on each request: two cache round
    trips and, for a busy account, thousands of pickled floats each way (lost
    updates between processes, too). Here each window of the rate's duration
    has a counter: one round trip (INCRBY, EXPIRE and GET of the previous window,
    pipelined) on Redis, and the limit is the usual sliding-window estimate --
    the previous window's count weighted by how much of it still overlaps, plus
    this window's.

    Leases: that round trip was ~8% of a read's time, so a process counts a
    key's next hits ahead -- up to LEASE_MAX, and at most 1/LEASE_SHARE of what
    the limit still allows by the key's last estimate -- and lets them through
    without asking until they are used up or the window ends. Every hit let
    through was counted in the shared counter first, and the estimate only falls
    as the window ages, so no process, nor all of them together, ever lets more
    through than the limit. Hits counted ahead but not used (the client moved to
    another process, or the window ended) count against the client: it can be
    refused a little early, by at most an eighth of its remaining allowance per
    process; near the limit leases shrink to one hit, and counting is exact."""

    num_requests: int  # set by SimpleRateThrottle.__init__ (parse_rate), absent from drf-stubs
    duration: int
    _wait: float

    def allow_request(self, request: Request, view: APIView) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        now = self.timer()
        window = int(now // self.duration)
        elapsed = now - window * self.duration
        self._wait = self.duration - elapsed
        if _leases.take(key, window):
            return True
        known = _leases.estimate(key, window)
        ahead = 1 if known is None else int((self.num_requests - known) // LEASE_SHARE)
        ahead = min(max(ahead, 1), LEASE_MAX)
        current, previous = _count(
            self.cache, f"{key}:{window}", f"{key}:{window - 1}", 2 * self.duration, ahead
        )
        estimate = previous * (1 - elapsed / self.duration) + current
        fits = ahead - max(0, math.ceil(estimate - self.num_requests))  # of the hits just counted
        _leases.keep(key, window, max(fits - 1, 0), estimate)
        return fits >= 1

    def wait(self) -> float | None:
        return self._wait


def _count(cache: BaseCache, current: str, previous: str, ttl: int, hits: int = 1) -> tuple[int, int]:
    """Count `hits` in `current`; (its count, the count in `previous`)."""
    client = getattr(getattr(cache, "_cache", None), "get_client", None)
    if client is not None:  # Redis: one round trip
        pipe = client(write=True).pipeline(transaction=False)
        pipe.incrby(cache.make_and_validate_key(current), hits)
        pipe.expire(cache.make_and_validate_key(current), ttl)
        pipe.get(cache.make_and_validate_key(previous))
        total, _, before = pipe.execute()
        return int(total), int(before or 0)
    try:
        total = cache.incr(current, hits)
    except ValueError:
        total = hits if cache.add(current, hits, ttl) else cache.incr(current, hits)
    return int(total), int(cache.get(previous) or 0)


class UserRateThrottle(_WindowCounter, drf_throttling.UserRateThrottle):
    """Requests per authenticated user (`THROTTLE_USER`)."""


class AnonRateThrottle(_WindowCounter, drf_throttling.AnonRateThrottle):
    """Requests per address without a token (`THROTTLE_ANON`)."""


def forget_leases() -> None:
    """Drop the hits counted ahead (tests: user ids repeat across test databases)."""
    global _leases
    _leases = _Leases()
