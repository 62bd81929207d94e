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
from typing import Any, cast
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


def body_bytes(payload: dict[str, Any]) -> bytes:
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


class RefusedTarget(ValueError):
    """The webhook URL is not one the server will POST to (scheme, host, address)."""


def refused_address(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    """Why the server must not connect to `ip` (SSRF guard), or None. IPv4-mapped
    and 6to4/Teredo-embedded IPv4 addresses are judged by the IPv4 inside."""
    if isinstance(ip, ipaddress.IPv6Address):
        inner = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if inner is not None:
            return refused_address(inner)
    if ip.is_loopback:
        return None if settings.WEBHOOK_ALLOW_LOOPBACK or settings.WEBHOOK_ALLOW_PRIVATE else "loopback"
    if ip.is_link_local:
        return None if settings.WEBHOOK_ALLOW_PRIVATE else "link-local"
    if ip.is_multicast or ip.is_unspecified or ip.is_reserved:
        return "reserved"
    if ip.is_private or not ip.is_global:
        return None if settings.WEBHOOK_ALLOW_PRIVATE else "private"
    return None


def _split(url: str) -> tuple[str, str, int]:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise RefusedTarget("webhook URL must be http or https")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise RefusedTarget("webhook URL has an invalid port") from exc
    if not parts.hostname:
        raise RefusedTarget("webhook URL has no host")
    return parts.scheme, parts.hostname, port


def resolve_checked(url: str, must_resolve: bool = True) -> str | None:
    """Resolve the URL's host once and return an address the policy allows
    (every address the name resolves to must be allowed: a name that also points
    inside is refused). RefusedTarget otherwise. With must_resolve=False an
    unresolvable name returns None instead (saving a URL: delivery checks again)."""
    _, host, port = _split(url)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        if must_resolve:
            raise RefusedTarget(f"webhook host {host!r} does not resolve") from exc
        return None
    addresses = []
    for info in infos:
        ip = ipaddress.ip_address(
            cast(str, info[4][0]).split("%", 1)[0]
        )  # AF_INET/AF_INET6: the host is a str
        why = refused_address(ip)
        if why is not None:
            raise RefusedTarget(
                f"webhook URL resolves to a {why} address ({ip}); "
                "see WEBHOOK_ALLOW_PRIVATE / WEBHOOK_ALLOW_LOOPBACK"
            )
        addresses.append(ip)
    if not addresses:
        raise RefusedTarget(f"webhook host {host!r} has no address")
    return str(addresses[0])


def check_url(url: str) -> None:
    """Called when a user saves a webhook URL: RefusedTarget for a bad scheme or a
    host that resolves to a refused address."""
    resolve_checked(url, must_resolve=False)


def _pinned(url: str, ip: str) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """The URL rewritten to connect to the checked `ip`, the Host header and the
    TLS server name, so a second DNS answer (rebinding) is never used."""
    parts = urlsplit(url)
    scheme, host, port = _split(url)
    literal = f"[{ip}]" if ":" in ip else ip
    netloc = f"{literal}:{port}"
    default = 443 if scheme == "https" else 80
    host_header = host if port == default else f"{host}:{port}"
    if ":" in host:  # an IPv6 literal host
        host_header = f"[{host}]" if port == default else f"[{host}]:{port}"
    pinned = parts._replace(netloc=netloc).geturl()
    extensions = {"sni_hostname": host} if scheme == "https" else {}
    return pinned, {"Host": host_header}, extensions


def post(url: str, secret: str, payload: dict[str, Any], t: int, headers: dict[str, Any]) -> Attempt:
    """One POST with a short timeout. Retry on network errors, 5xx, 408 and 429.
    The host is resolved once here and checked against the address policy; the
    connection goes to that very address (DNS rebinding cannot swap it)."""
    import httpx  # only when a webhook is sent: the web process never needs it

    try:
        ip = resolve_checked(url)
    except RefusedTarget as exc:
        # An unresolvable name may be a passing DNS failure: retried; a refused address is not.
        return Attempt(ok=False, error=f"refused: {exc}"[:500], retry="does not resolve" in str(exc))
    # must_resolve=True: resolve_checked raises rather than return None
    target, host_header, extensions = _pinned(url, cast(str, ip))
    body = body_bytes(payload)
    h = {"Content-Type": "application/json", "User-Agent": "Sengoku-Webhooks/1", **headers, **host_header}
    if secret:
        h[SIGNATURE_HEADER] = signature_header(secret, t, body)
    started = time.monotonic()
    try:
        with httpx.Client(timeout=settings.WEBHOOK_TIMEOUT_SECONDS, follow_redirects=False) as client:
            r = client.post(target, content=body, headers=h, extensions=extensions)
    except httpx.HTTPError as exc:
        return Attempt(
            ok=False,
            error=f"{type(exc).__name__}: {exc}"[:500],
            retry=True,
            duration_ms=int((time.monotonic() - started) * 1000),
        )
    ms = int((time.monotonic() - started) * 1000)
    ok = 200 <= r.status_code < 300
    retry = not ok and (r.status_code >= 500 or r.status_code in (408, 429))
    return Attempt(
        ok=ok,
        status_code=r.status_code,
        retry=retry,
        duration_ms=ms,
        error="" if ok else f"HTTP {r.status_code}",
    )


def backoff_seconds(attempts: int) -> int:
    """After the n-th failed attempt: base * 2**(n-1), capped at an hour."""
    factor: int = 2 ** max(0, attempts - 1)
    return min(3600, settings.WEBHOOK_BACKOFF_SECONDS * factor)
