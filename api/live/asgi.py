"""The ASGI side door for live streams (SSE), so that an open stream holds no thread.

Django's own ASGI handler would run the request's sync parts (the
request_started signal, sync middleware, a DRF view) in a thread kept for the
whole request -- for a stream, as long as the client listens. Here the same
middleware and view run once in the shared pool of api/live/hub.py (so
authentication, throttles, the stream cap, lookups and `{code, detail}` errors
are exactly those of the WSGI path), the request is marked `sengoku_live`, and
the async body the view returns is streamed from the event loop. A client that
goes away cancels the body: its finally clause unsubscribes and frees the slot.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import AsyncGenerator
from contextlib import aclosing
from urllib.parse import parse_qs

from django.core.handlers.asgi import ASGIHandler, ASGIRequest
from django.core.handlers.base import BaseHandler
from django.http import HttpRequest
from django.http.response import HttpResponseBase

from telemetry import metrics

from ..asgi_sync import Receive, Scope
from . import hub
from .writer import Send

_GAME_EVENTS = re.compile(r"^/api/v1/games/[^/]+/events/?$")
_USER_STREAM = re.compile(r"^/api/v1/accounts/me/stream/?$")

_handler: BaseHandler | None = None


def is_stream(scope: Scope) -> bool:
    if scope.get("type") != "http" or scope.get("method") != "GET":
        return False
    path = scope.get("path", "")
    if _USER_STREAM.match(path):
        return True
    if not _GAME_EVENTS.match(path):
        return False
    query = parse_qs(scope.get("query_string", b"").decode("latin1"))
    if any(v.lower() in ("1", "true", "yes") for v in query.get("stream", [])):
        return True
    accept = b"".join(v for k, v in scope.get("headers", []) if k.lower() == b"accept")
    return b"text/event-stream" in accept


def _get_response(request: HttpRequest) -> HttpResponseBase:
    global _handler
    if _handler is None:
        handler = BaseHandler()
        handler.load_middleware(is_async=False)
        _handler = handler
    return _handler.get_response(request)


async def _until_disconnect(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def serve(django_app: ASGIHandler, scope: Scope, receive: Receive, send: Send) -> None:
    request = ASGIRequest(scope, io.BytesIO(b""))
    request.sengoku_live = True  # type: ignore[attr-defined]  # our mark, read by api.live.sse
    response = await hub.db(_get_response, request)
    body = getattr(response, "live_body", None)
    writing = (
        send_live(response, body, send) if body is not None else django_app.send_response(response, send)
    )
    sending = asyncio.create_task(writing)
    gone = asyncio.create_task(_until_disconnect(receive))
    try:
        await asyncio.wait({sending, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (sending, gone):
            if not task.done():
                task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        # request_finished, the response's closers (the slot), the DB connection if obsolete
        await hub.db(response.close)


def _headers(response: HttpResponseBase) -> list[tuple[bytes, bytes]]:
    """The response's headers and cookies as Django's ASGI handler sends them."""
    out = [(bytes(k, "ascii"), bytes(v, "latin1")) for k, v in response.items()]
    out += [(b"Set-Cookie", c.output(header="").encode("ascii").strip()) for c in response.cookies.values()]
    return out


async def send_live(response: HttpResponseBase, body: AsyncGenerator[bytes, None], send: Send) -> None:
    """Write a live body (bytes chunks) straight to the ASGI server: one `send` per
    chunk, without the wrappers Django's handler puts around each one (its
    streaming iterator, make_bytes, chunking), which cost more than the write."""
    await send({"type": "http.response.start", "status": response.status_code, "headers": _headers(response)})
    writer = getattr(response, "live_writer", None)
    metrics.sse_streams_open.inc()
    try:
        async with aclosing(body) as chunks:
            async for chunk in chunks:
                if writer is None:
                    await send({"type": "http.response.body", "body": chunk, "more_body": True})
                    continue
                writer.busy = True  # the fan-out queues meanwhile: chunks stay in order
                try:
                    await writer.settle()
                    await send({"type": "http.response.body", "body": chunk, "more_body": True})
                finally:
                    writer.busy = False
                writer.send = send  # the first chunk is out: the fan-out may write from now on
        if writer is not None:
            writer.send = None  # nothing more from the fan-out; what it started goes first
            await writer.settle()
        await send({"type": "http.response.body"})
    finally:
        if writer is not None:
            writer.close()
        metrics.sse_streams_open.dec()
