"""Request context, access log and HTTP metrics (one middleware), and the
`/metrics` view.

Every request gets a request id: the `X-Request-ID` header when the direct
peer is a trusted proxy (TRUSTED_PROXIES) and the value is sane, else a fresh
one. It is bound into the log context (with the game id from the URL) and
returned as `X-Request-ID`. One access line per request is logged after the
response headers; Server-Sent-Event streams are counted in
`sengoku_sse_streams_open` while they are served.
"""

from __future__ import annotations

import hmac
import ipaddress
import re
import time
import uuid
from functools import lru_cache

import structlog
from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.conf import settings
from django.http import HttpResponse, JsonResponse

from ops.collectors import DatabaseCollector
from telemetry import metrics

log = structlog.get_logger("sengoku.access")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:@/+=-]{1,128}$")
QUIET_VIEWS = {"HealthView", "metrics"}  # probes: logged at debug level only
# Served here, before host validation and the HTTPS redirect: Prometheus scrapes each
# web container by its IP address, which is no public host name (docs/deployment.md).
METRICS_PATHS = ("/metrics", "/metrics/")


@lru_cache(maxsize=1)
def _trusted_networks(raw: tuple[str, ...]) -> tuple:
    return tuple(ipaddress.ip_network(x.strip(), strict=False) for x in raw if x.strip())


def _is_trusted(addr: str) -> bool:
    nets = _trusted_networks(tuple(getattr(settings, "TRUSTED_PROXIES", ())))
    if not nets:
        return False
    try:
        ip = ipaddress.ip_address(addr)
    except ValueError:
        return False
    return any(ip in n for n in nets)


def client_ip(request) -> str:
    """The client's address: REMOTE_ADDR, or, when that is a trusted proxy, the
    right-most X-Forwarded-For hop that is not one of our proxies."""
    remote = request.META.get("REMOTE_ADDR", "") or ""
    if not _is_trusted(remote):
        return remote
    hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
    for hop in reversed(hops):
        if not _is_trusted(hop):
            return hop
    return hops[0] if hops else remote


def request_id_for(request) -> str:
    incoming = request.META.get("HTTP_X_REQUEST_ID", "")
    if incoming and _REQUEST_ID.match(incoming) and _is_trusted(request.META.get("REMOTE_ADDR", "")):
        return incoming
    return uuid.uuid4().hex


def view_label(request) -> str:
    if request.path in METRICS_PATHS:
        return "metrics"
    match = getattr(request, "resolver_match", None)
    if match is None:
        return "unmatched"
    if match.namespace == "admin" or match.app_name == "admin":
        return "admin"
    func = match.func
    cls = getattr(func, "view_class", None) or getattr(func, "cls", None)
    return cls.__name__ if cls is not None else (match.url_name or getattr(func, "__name__", "view"))


class ObservabilityMiddleware:
    sync_capable = True
    async_capable = True

    def __init__(self, get_response) -> None:
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request):
        if iscoroutinefunction(self):
            return self.__acall__(request)
        started = self._begin(request)
        if request.path in METRICS_PATHS:
            return self._end(request, metrics_view(request), started)
        return self._end(request, self.get_response(request), started)

    async def __acall__(self, request):
        started = self._begin(request)
        if request.path in METRICS_PATHS:
            return self._end(request, await sync_to_async(metrics_view)(request), started)
        return self._end(request, await self.get_response(request), started)

    def process_view(self, request, view_func, view_args, view_kwargs):
        game_id = view_kwargs.get("game_id")
        if game_id:
            structlog.contextvars.bind_contextvars(game_id=str(game_id)[:64])
        return None

    def _begin(self, request) -> float:
        structlog.contextvars.clear_contextvars()
        request.request_id = request_id_for(request)
        structlog.contextvars.bind_contextvars(request_id=request.request_id)
        return time.perf_counter()

    def _end(self, request, response, started: float):
        elapsed = time.perf_counter() - started
        view, status = view_label(request), str(response.status_code)
        metrics.http_requests.labels(view, request.method, status).inc()
        metrics.http_latency.labels(view, request.method, status).observe(elapsed)
        response["X-Request-ID"] = request.request_id
        live = getattr(response, "live_body", None) is not None  # api.live.asgi counts those itself
        if (
            response.streaming
            and not live
            and response.get("Content-Type", "").startswith("text/event-stream")
        ):
            _count_stream(response)
        level = (
            log.debug if view in QUIET_VIEWS else (log.warning if response.status_code >= 500 else log.info)
        )
        level(
            "request",
            method=request.method,
            path=request.path,
            view=view,
            status=response.status_code,
            duration_ms=round(elapsed * 1000, 1),
            client=client_ip(request),
            user_agent=request.META.get("HTTP_USER_AGENT", "")[:200],
        )
        structlog.contextvars.clear_contextvars()  # a pooled thread must not carry this request's id on
        return response


def _count_stream(response) -> None:
    inner = response.streaming_content
    if getattr(response, "is_async", False):

        async def counted_async():
            metrics.sse_streams_open.inc()
            try:
                async for chunk in inner:
                    yield chunk
            finally:
                metrics.sse_streams_open.dec()

        response.streaming_content = counted_async()
    else:

        def counted():
            metrics.sse_streams_open.inc()
            try:
                yield from inner
            finally:
                metrics.sse_streams_open.dec()
                close = getattr(inner, "close", None)
                if close is not None:
                    close()

        response.streaming_content = counted()


# ---- GET /metrics --------------------------------------------------------------------------


def _loopback(addr: str) -> bool:
    try:
        return ipaddress.ip_address(addr).is_loopback
    except ValueError:
        return False


def metrics_allowed(request) -> bool:
    token = getattr(settings, "METRICS_TOKEN", "")
    header = request.META.get("HTTP_AUTHORIZATION", "")
    if token and header.startswith("Bearer ") and hmac.compare_digest(header[7:].strip(), token):
        return True
    return _loopback(client_ip(request))


def metrics_view(request):
    if request.method not in ("GET", "HEAD"):
        return JsonResponse({"code": "method_not_allowed", "detail": "GET only"}, status=405)
    if not metrics_allowed(request):
        return JsonResponse(
            {
                "code": "forbidden",
                "detail": "metrics are served to loopback clients or with the METRICS_TOKEN bearer token",
            },
            status=403,
        )
    body, content_type = metrics.render([DatabaseCollector()])
    return HttpResponse(body, content_type=content_type)


metrics_view.csrf_exempt = True
