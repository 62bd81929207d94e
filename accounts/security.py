"""Account security shared by every door (issue 31): the API (api/) and the
browser pages and admin (web/, config/urls.py) import this; it imports neither.

Why, with the measurements and history: docs/modules.md, `accounts/security.py`.
"""

from __future__ import annotations

import hashlib
import time
import unicodedata
from typing import cast

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.http import HttpRequest
from django.utils.connection import ConnectionProxy
from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

shared_cache = ConnectionProxy(caches, "throttle")


class LoginLocked(Exception):
    """The account had THROTTLE_LOGIN_FAILURES failed password checks within the
    window; `wait` is the number of seconds until the oldest leaves it."""

    def __init__(self, wait: float) -> None:
        self.wait = wait
        self.retry_after = int(wait) + 1
        super().__init__(f"too many failed logins for this account; try again in {self.retry_after} seconds")


def account_key(username: str) -> str:
    """How a typed username names an account for counting: NFKC (as names are
    stored) and case-folded (a case change must not escape the count)."""
    return unicodedata.normalize("NFKC", username).casefold()


class FailedLogins:
    """The failed password checks of one username (whether or not the account
    exists, so the answer never tells which accounts exist), in a sliding window."""

    def __init__(self, username: str) -> None:
        digest = hashlib.sha256(account_key(username).encode("utf-8", "surrogatepass")).hexdigest()
        self.key = f"login-failures:{digest}"
        # parse_rate never reads `self`; the setting is always a rate, so neither part is None
        limit, window = SimpleRateThrottle.parse_rate(
            cast(SimpleRateThrottle, None), settings.THROTTLE_LOGIN_FAILURES
        )
        self.limit, self.window = cast(int, limit), cast(int, window)

    def _history(self, now: float) -> list[float]:
        return [t for t in shared_cache.get(self.key, []) if t > now - self.window]

    def check(self) -> None:
        """Raise LoginLocked while the account is over its limit."""
        now = time.time()
        history = self._history(now)
        if len(history) >= self.limit:
            raise LoginLocked(max(1.0, self.window - (now - min(history))))

    def failed(self) -> None:
        now = time.time()
        shared_cache.set(self.key, [*self._history(now), now], self.window)

    def succeeded(self) -> None:
        shared_cache.delete(self.key)


class _RegisterScope:
    """Stands for a view whose `throttle_scope` is "register" (the API's
    RegisterView and TokenView), so the web form counts in the same counter."""

    throttle_scope = "register"


class RegisterThrottle(ScopedRateThrottle):
    cache = cast(BaseCache, shared_cache)  # the proxy forwards every call to the "throttle" cache


def register_wait(request: Request | HttpRequest) -> float | None:
    """Count one sign-up (or sign-in) attempt from this request's address; None
    if it is allowed, else the seconds to wait. Works on a DRF request or a plain
    Django one (the throttle reads only META and `user`)."""
    throttle = RegisterThrottle()
    # ScopedRateThrottle reads only the view's `throttle_scope`; the stubs ask for an APIView
    if throttle.allow_request(request, _RegisterScope()):  # type: ignore[arg-type]
        return None
    return throttle.wait() or 1.0
