"""Ordinary (non-stream) requests under ASGI, run the way a threaded WSGI server
runs them: in a fixed pool of WEB_THREADS threads per process.

Why, with the measurements and history: docs/modules.md, `api/asgi_sync.py`.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import tempfile
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import IO, Any, cast

from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.http import HttpResponse
from django.http.response import HttpResponseBase
from django.urls import set_script_prefix

from games.services.errors import ErrorCode

# ASGI's connection scope and its receive/send callables
Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]

_pools: dict[str, ThreadPoolExecutor] = {}
_handler: BaseHandler | None = None
# Three threads per process, not eight: with one GIL per process only one of them runs
# at a time, and the others only cover its waits on PostgreSQL (a few tenths of a
# millisecond on a local database). More threads share the GIL in slices, so every
# request in a burst finishes late instead of most finishing early: on 2 cores at
# 150 cycles/s offered, POST p99 51-90 ms with 3 against 93-205 ms with 8, and
# throughput unchanged (bench/pairs.md). Raise it when the database is far away.
_LANES = {"web": ("WEB_THREADS", "3"), "health": ("HEALTH_THREADS", "2")}
_HEALTH = re.compile(r"^/api/v1/health/?$")


def pool(lane: str = "web") -> ThreadPoolExecutor:
    found = _pools.get(lane)
    if found is None:
        env, default = _LANES[lane]
        found = _pools[lane] = ThreadPoolExecutor(
            max_workers=int(os.environ.get(env, default)), thread_name_prefix=lane
        )
    return found


def lane(scope: Scope) -> str:
    return "health" if _HEALTH.match(scope.get("path", "")) else "web"


def _respond(
    django_app: ASGIHandler, scope: Scope, body_file: IO[bytes]
) -> HttpResponseBase | tuple[dict[str, Any], dict[str, Any]]:
    """The response, or, for an ordinary (not streaming) one, the ASGI messages
    that send it, with the response already closed in this thread."""
    global _handler
    if _handler is None:
        handler = BaseHandler()
        handler.load_middleware(is_async=False)
        _handler = handler
    set_script_prefix(get_script_prefix(scope))
    signals.request_started.send(sender=ASGIHandler, scope=scope)
    request, error = django_app.create_request(scope, body_file)
    # create_request returns an error response whenever it returns no request
    response = cast(HttpResponseBase, error if request is None else _handler.get_response(request))
    response._handler_class = ASGIHandler  # type: ignore[attr-defined]  # Django's own marker, absent from django-stubs
    if response.streaming:
        return response
    # The body is in memory: close now (request_finished hands the database connection
    # back, in the thread that holds it) rather than in a second trip to the pool after
    # the bytes went out -- that trip cost two thread switches per request.
    messages = _messages(cast(HttpResponse, response))  # not streaming: an HttpResponse
    response.close()
    return messages


def _messages(response: HttpResponse) -> tuple[dict[str, Any], dict[str, Any]]:
    """Django's ASGIHandler.send_response for a response with its body in memory:
    the headers (cookies included) and the whole body in one message."""
    headers: list[tuple[bytes, bytes]] = []
    for header, value in response.items():
        name = header.encode("ascii") if isinstance(header, str) else bytes(header)
        headers.append((name, value.encode("latin1") if isinstance(value, str) else bytes(value)))
    for cookie in response.cookies.values():
        headers.append((b"Set-Cookie", cookie.output(header="").encode("ascii").strip()))
    start = {"type": "http.response.start", "status": response.status_code, "headers": headers}
    return start, {"type": "http.response.body", "body": response.content}


async def read_body(django_app: ASGIHandler, scope: Scope, receive: Receive) -> IO[bytes] | None:
    """The request body in a temporary file, or None for an /api/ body over
    MAX_REQUEST_BYTES. Django's read_body spools any size to disk before a
    middleware can look at Content-Length, and a chunked body has none (issue 31):
    an API body stops being read one byte past the limit."""
    if not scope.get("path", "").startswith("/api/"):
        return await django_app.read_body(receive)
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    body_file = tempfile.SpooledTemporaryFile(max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE, mode="w+b")
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            body_file.close()
            raise RequestAborted()
        chunk = message.get("body", b"")
        size += len(chunk)
        if limit is not None and size > limit:
            body_file.close()
            return None
        body_file.write(chunk)
        if not message.get("more_body", False):
            break
    body_file.seek(0)
    return body_file


async def _too_large(send: Send) -> None:
    body = json.dumps(
        {
            "code": ErrorCode.REQUEST_TOO_LARGE.value,
            "detail": f"request bodies are limited to {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes",
        }
    ).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def serve(django_app: ASGIHandler, scope: Scope, receive: Receive, send: Send) -> None:
    try:
        body_file = await read_body(django_app, scope, receive)
    except RequestAborted:
        return
    if body_file is None:
        await _too_large(send)
        return
    loop = asyncio.get_running_loop()
    threads = pool(lane(scope))
    try:
        answer = await loop.run_in_executor(threads, _respond, django_app, scope, body_file)
        if isinstance(answer, tuple):
            for message in answer:
                await send(message)
            return
        try:
            await django_app.send_response(answer, send)
        finally:
            # request_finished and the response's closers, in a pool thread like the request
            await loop.run_in_executor(threads, answer.close)
    finally:
        body_file.close()
