"""Rate limits a header cannot defeat (issue 10 item 3).

* Who a request comes from is DRF's `get_ident`: `REMOTE_ADDR`, or the address
  `NUM_PROXIES` hops from the right of `X-Forwarded-For` when that many trusted
  proxies stand in front (settings: `NUM_PROXIES`, default 0 = ignore the
  header, so a client cannot pick a fresh identity per request).
* The account-security limits (register, token, failed logins) count in the
  `throttle` cache, which every web process shares and which survives restarts:
  Redis when `REDIS_URL` is set, else the database table `sengoku_cache`.
* `FailedLogins`: per account, failed token requests in a sliding window
  (`THROTTLE_LOGIN_FAILURES`, default 10/hour). Beyond it every token request
  for that username (even with the right password) is refused with 429
  `too_many_failed_logins` + `Retry-After` until the oldest failure leaves the
  window; a success clears the count. Tokens already issued keep working.
"""

from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.core.cache import caches
from django.utils.connection import ConnectionProxy
from rest_framework import exceptions
from rest_framework import throttling as drf_throttling
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

from games.services.errors import ErrorCode

shared_cache = ConnectionProxy(caches, "throttle")


class SharedScopedRateThrottle(ScopedRateThrottle):
    """ScopedRateThrottle counting in the shared `throttle` cache."""

    cache = shared_cache


class TooManyFailedLogins(exceptions.Throttled):
    default_code = ErrorCode.TOO_MANY_FAILED_LOGINS
    extra_detail_singular = extra_detail_plural = ""

    def __init__(self, wait: float):
        super().__init__(
            wait, detail=f"too many failed logins for this account; try again in {int(wait) + 1} seconds"
        )


class FailedLogins:
    """The failed token requests of one username (case-insensitive, whether or not
    the account exists, so the answer never tells which accounts exist)."""

    def __init__(self, username: str):
        digest = hashlib.sha256(username.casefold().encode("utf-8", "surrogatepass")).hexdigest()
        self.key = f"login-failures:{digest}"
        self.limit, self.window = SimpleRateThrottle.parse_rate(None, settings.THROTTLE_LOGIN_FAILURES)

    def _history(self, now: float) -> list[float]:
        return [t for t in shared_cache.get(self.key, []) if t > now - self.window]

    def check(self) -> None:
        """Raise TooManyFailedLogins while the account is over its limit."""
        now = time.time()
        history = self._history(now)
        if len(history) >= self.limit:
            raise TooManyFailedLogins(max(1.0, self.window - (now - min(history))))

    def failed(self) -> None:
        now = time.time()
        shared_cache.set(self.key, [*self._history(now), now], self.window)

    def succeeded(self) -> None:
        shared_cache.delete(self.key)


class _WindowCounter:
    """DRF's per-user / per-address rate limit, counted instead of logged.

    DRF's SimpleRateThrottle keeps every request's timestamp in one cache entry
    and reads and rewrites that whole list on each request: two cache round
    trips and, for a busy account, thousands of pickled floats each way (lost
    updates between processes, too). Here each window of the rate's duration
    has a counter: one round trip (INCR, EXPIRE and GET of the previous window,
    pipelined) on Redis, and the limit is the usual sliding-window estimate --
    the previous window's count weighted by how much of it still overlaps, plus
    this window's."""

    def allow_request(self, request, view):
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        now = self.timer()
        window = int(now // self.duration)
        elapsed = now - window * self.duration
        current, previous = _count(self.cache, f"{key}:{window}", f"{key}:{window - 1}", 2 * self.duration)
        estimate = previous * (1 - elapsed / self.duration) + current
        self._wait = self.duration - elapsed
        return estimate <= self.num_requests

    def wait(self):
        return self._wait


def _count(cache, current: str, previous: str, ttl: int) -> tuple[int, int]:
    """Count one hit in `current`; (its count, the count in `previous`)."""
    client = getattr(getattr(cache, "_cache", None), "get_client", None)
    if client is not None:  # Redis: one round trip
        pipe = client(write=True).pipeline(transaction=False)
        pipe.incr(cache.make_and_validate_key(current))
        pipe.expire(cache.make_and_validate_key(current), ttl)
        pipe.get(cache.make_and_validate_key(previous))
        hits, _, before = pipe.execute()
        return int(hits), int(before or 0)
    try:
        hits = cache.incr(current)
    except ValueError:
        hits = 1 if cache.add(current, 1, ttl) else cache.incr(current)
    return int(hits), int(cache.get(previous) or 0)


class UserRateThrottle(_WindowCounter, drf_throttling.UserRateThrottle):
    """Requests per authenticated user (`THROTTLE_USER`)."""


class AnonRateThrottle(_WindowCounter, drf_throttling.AnonRateThrottle):
    """Requests per address without a token (`THROTTLE_ANON`)."""
