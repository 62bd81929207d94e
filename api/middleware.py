"""JSON errors where Django itself answers: malformed requests before any view
runs (bad Content-Length, NUL characters, a chunked body we cannot read: 400 /
411), oversize bodies (413), unknown /api/ URLs (404) and, as a last resort,
unexpected exceptions (500).

HTTP that is too broken to parse (a bad request line, a malformed header
line) never reaches Django: gunicorn answers it itself (docs/api, "Errors")."""

from __future__ import annotations

import io
import logging
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import SuspiciousOperation
from django.core.handlers.asgi import ASGIRequest
from django.core.handlers.wsgi import LimitedStream, WSGIRequest
from django.http import HttpRequest, HttpResponseBase, JsonResponse

from games.services.errors import ErrorCode

log = logging.getLogger(__name__)


class JsonErrorsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.path.startswith("/api/"):
            refused = _refuse_malformed(request)
            if refused is not None:
                return refused
        response = self.get_response(request)
        if (
            request.path.startswith("/api/")
            and response.status_code >= 400
            and not response.get("Content-Type", "").startswith("application/json")
            and not response.streaming
        ):
            # Django's own HTML answers (unknown URL, bad Host header, too many
            # query fields…) in the API's shape
            code, detail = _DJANGO_ERRORS.get(response.status_code, (ErrorCode.ERROR, "the request failed"))
            return _error(response.status_code, code, detail)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> JsonResponse | None:
        if not request.path.startswith("/api/"):
            return None
        log.exception("unhandled error on %s %s", request.method, request.path)
        return _error(500, ErrorCode.SERVER_ERROR, "an unexpected error happened; it was logged")


_DJANGO_ERRORS = {
    400: (ErrorCode.BAD_REQUEST, "the request is malformed (headers, Host or query string)"),
    403: (ErrorCode.FORBIDDEN, "not allowed"),
    404: (ErrorCode.NOT_FOUND, "no such endpoint"),
    405: (ErrorCode.METHOD_NOT_ALLOWED, "method not allowed"),
    413: (ErrorCode.REQUEST_TOO_LARGE, "the request is too large"),
    500: (ErrorCode.SERVER_ERROR, "an unexpected error happened; it was logged"),
}


def _error(status: int, code: ErrorCode, detail: str) -> JsonResponse:
    return JsonResponse({"code": code, "detail": detail}, status=status)


def _too_large() -> JsonResponse:
    return _error(
        413,
        ErrorCode.REQUEST_TOO_LARGE,
        f"request bodies are limited to {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes",
    )


def _refuse_malformed(request: HttpRequest) -> JsonResponse | None:
    """A JSON answer for what would otherwise fail later as a 500 or be misread."""
    try:
        query = [(k, v) for k in request.GET for v in request.GET.getlist(k)]
    except SuspiciousOperation as exc:  # e.g. more than DATA_UPLOAD_MAX_NUMBER_FIELDS parameters
        return _error(400, ErrorCode.BAD_REQUEST, str(exc))
    if "\x00" in request.path or any("\x00" in k or "\x00" in v for k, v in query):
        # PostgreSQL cannot hold NUL in text: `?ruleset=%00` would fail in the query
        return _error(
            400, ErrorCode.INVALID, "NUL characters are not allowed in the path or query parameters"
        )
    if any("\x00" in str(v) for k, v in request.META.items() if k.startswith("HTTP_")):
        return _error(400, ErrorCode.INVALID, "NUL characters are not allowed in headers")
    if "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower():
        return _read_chunked(request)
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return _error(400, ErrorCode.BAD_REQUEST, "invalid Content-Length")
    if length < 0:
        return _error(400, ErrorCode.BAD_REQUEST, "invalid Content-Length")
    if length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
        return _too_large()
    return None


def _read_chunked(request: HttpRequest) -> JsonResponse | None:
    """Django and DRF read a body only up to Content-Length, so a chunked body (no
    length) was read as empty (issue 31). Where the server has de-chunked it whole,
    give it its length (and hold it to the size limit); where no server vouches for
    the end of the body, 411.

    * ASGI (`make run`, compose: uvicorn): the server de-chunks and Django has the
      whole body in a temporary file before any middleware runs (api/asgi_sync.py
      stops reading an /api/ body past the limit).
    * WSGI: gunicorn de-chunks and says so with `wsgi.input_terminated`; then read
      it whole (bounded). Django's test client and servers that do not say so: 411."""
    if isinstance(request, ASGIRequest):
        stream = request._stream
        size = stream.seek(0, io.SEEK_END)
        stream.seek(0)
        if size > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            return _too_large()
        request.META["CONTENT_LENGTH"] = str(size)
        return None
    if isinstance(request, WSGIRequest) and request.META.get("wsgi.input_terminated"):
        body = request.META["wsgi.input"].read(settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
        if len(body) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            return _too_large()
        request.META["CONTENT_LENGTH"] = str(len(body))
        request._stream = LimitedStream(io.BytesIO(body), len(body))  # type: ignore[assignment]  # what WSGIRequest.__init__ builds
        return None
    return _error(
        411,
        ErrorCode.LENGTH_REQUIRED,
        "send the body with a Content-Length (chunked bodies are not supported by this server)",
    )
