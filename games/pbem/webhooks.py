"""Signed webhook POSTs.

Body: the notification's JSON (compact, UTF-8). Header
``X-Sengoku-Signature: t=<unix seconds>,v1=<hex>`` where
``v1 = HMAC-SHA256(key=secret, msg=f"{t}.{body}")``. Receivers recompute it,
compare in constant time and refuse a `t` older than a few minutes (replays).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import socket
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

SIGNATURE_HEADER = "X-Sengoku-Signature"


@dataclass(frozen=True)
class Attempt:
    ok: bool
    status_code: int | None = None
    error: str = ""
    retry: bool = False
    duration_ms: int = 0
    skipped: bool = False


def body_bytes(payload: dict) -> bytes:
    return json.dumps(payload, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()


def sign(secret: str, t: int, body: bytes) -> str:
    return hmac.new(secret.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()


def signature_header(secret: str, t: int, body: bytes) -> str:
    return f"t={t},v1={sign(secret, t, body)}"


def verify(secret: str, header: str, body: bytes, tolerance: int = 300, now: float | None = None) -> bool:
    """What a receiver does (reference implementation, used by the tests)."""
    try:
        parts = dict(p.split("=", 1) for p in header.split(","))
        t = int(parts["t"])
    except (ValueError, KeyError):
        return False
    if abs((time.time() if now is None else now) - t) > tolerance:
        return False
    return hmac.compare_digest(sign(secret, t, body), parts.get("v1", ""))


def _private_target(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False  # unresolvable: the POST fails on its own and is retried
    for info in infos:
        ip = ipaddress.ip_address(info[4][0])
        if ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_reserved or ip.is_multicast:
            return True
    return False


def post(url: str, secret: str, payload: dict, t: int, headers: dict) -> Attempt:
    """One POST with a short timeout. Retry on network errors, 5xx, 408 and 429."""
    import httpx  # only when a webhook is sent: the web process never needs it

    if urlsplit(url).scheme not in ("http", "https"):
        return Attempt(ok=False, error="webhook URL must be http or https")
    if not settings.WEBHOOK_ALLOW_PRIVATE and _private_target(url):
        return Attempt(ok=False, error="refused: the webhook URL resolves to a private address")
    body = body_bytes(payload)
    h = {"Content-Type": "application/json", "User-Agent": "Sengoku-Webhooks/1", **headers}
    if secret:
        h[SIGNATURE_HEADER] = signature_header(secret, t, body)
    started = time.monotonic()
    try:
        with httpx.Client(timeout=settings.WEBHOOK_TIMEOUT_SECONDS, follow_redirects=False) as client:
            r = client.post(url, content=body, headers=h)
    except httpx.HTTPError as exc:
        return Attempt(ok=False, error=f"{type(exc).__name__}: {exc}"[:500], retry=True,
                       duration_ms=int((time.monotonic() - started) * 1000))
    ms = int((time.monotonic() - started) * 1000)
    ok = 200 <= r.status_code < 300
    retry = not ok and (r.status_code >= 500 or r.status_code in (408, 429))
    return Attempt(ok=ok, status_code=r.status_code, retry=retry, duration_ms=ms,
                   error="" if ok else f"HTTP {r.status_code}")


def backoff_seconds(attempts: int) -> int:
    """After the n-th failed attempt: base * 2**(n-1), capped at an hour."""
    return min(3600, settings.WEBHOOK_BACKOFF_SECONDS * 2 ** max(0, attempts - 1))
