"""The press limit (`THROTTLE_PRESS`, default 30/min): messages per account,
counted exactly across every web process and node (issue 31).

DRF's ScopedRateThrottle kept its log in the `default` cache, which is
per-process memory without Redis: `make run`'s several web processes each let
30 through. Here the log -- the times of the account's accepted messages in the
window -- is one entry of the shared `throttle` cache, read and rewritten under
a cross-process lock (api/shared_state.py), so the 31st message within a minute
is refused whichever process it reaches. A refused request is not logged, so a
client that keeps retrying is let through again as soon as the oldest message
leaves the window (Retry-After says when)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rest_framework.throttling import SimpleRateThrottle

from . import shared_state

if TYPE_CHECKING:  # DRF's request and views modules import the throttle classes
    from rest_framework.request import Request
    from rest_framework.views import APIView


class PressRateThrottle(SimpleRateThrottle):
    scope = "press"
    num_requests: int  # set by SimpleRateThrottle.__init__ (parse_rate), absent from drf-stubs
    duration: int
    _wait: float | None

    def get_cache_key(self, request: Request, view: APIView) -> str:
        ident = request.user.pk if request.user and request.user.is_authenticated else self.get_ident(request)
        return f"press:{ident}"

    def allow_request(self, request: Request, view: APIView) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        now = time.time()
        limit, window = self.num_requests, self.duration

        def change(log: list[float] | None) -> tuple[list[float], float | None]:
            recent = [t for t in (log or []) if t > now - window]
            if len(recent) >= limit:
                return recent, max(1.0, min(recent) + window - now)
            return [*recent, now], None

        self._wait = shared_state.update(key, change, window)
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait
