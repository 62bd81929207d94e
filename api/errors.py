"""One error shape for the whole API: `{code, detail, ...}` with the right status.

We map errors ourselves instead of using drf-standardized-errors: its shape
(`{type, errors: [...]}`) is not the `{code, detail}` contract of api.md, and
the mapping is a dozen lines."""

from __future__ import annotations

import math
from typing import Any

from django.http import Http404
from django.utils import translation
from django.utils.translation import gettext
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_handler

from games.services.error_texts import SENTENCES
from games.services.errors import ErrorCode, ServiceError
from games.services.language import language_quiet

from .live.slots import TooManyStreams
from .throttles import TooManyFailedLogins

_CODES = {  # first match wins: subclasses before their bases
    TooManyFailedLogins: ErrorCode.TOO_MANY_FAILED_LOGINS,
    TooManyStreams: ErrorCode.TOO_MANY_STREAMS,
    exceptions.ParseError: ErrorCode.MALFORMED_JSON,
    exceptions.NotAuthenticated: ErrorCode.NOT_AUTHENTICATED,
    exceptions.AuthenticationFailed: ErrorCode.INVALID_TOKEN,
    exceptions.PermissionDenied: ErrorCode.FORBIDDEN,
    exceptions.NotFound: ErrorCode.NOT_FOUND,
    exceptions.MethodNotAllowed: ErrorCode.METHOD_NOT_ALLOWED,
    exceptions.NotAcceptable: ErrorCode.NOT_ACCEPTABLE,
    exceptions.UnsupportedMediaType: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    exceptions.Throttled: ErrorCode.RATE_LIMITED,
}


def _first_message(detail: object) -> str:
    if isinstance(detail, dict):
        for k, v in detail.items():
            return f"{k}: {_first_message(v)}" if k != "non_field_errors" else _first_message(v)
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    response = _handle(exc, context)
    if response is not None and isinstance(response.data, dict) and "code" in response.data:
        _localize(response.data, context.get("request"))
    return response


def _localize(body: dict[str, Any], request: Request | None) -> None:
    """`detail` in the caller's language (games/services/language.py). English keeps the service's
    own sentence; another language gets its translation if the catalogue has it, else
    the code's sentence (games/services/error_texts.py). Never fails the answer."""
    lang = language_quiet(request) if request is not None else "en"
    if lang == "en":
        return
    with translation.override(lang):
        detail = str(body.get("detail", ""))
        exact = gettext(detail) if detail else ""
        if exact and exact != detail:
            body["detail"] = exact
        elif body["code"] in SENTENCES:
            body["detail"] = gettext(SENTENCES[ErrorCode(body["code"])])


def _handle(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ServiceError):
        return Response({"code": exc.code, "detail": exc.detail, **exc.extra}, status=exc.status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    response = drf_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        fields = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        response.data = {"code": ErrorCode.INVALID, "detail": _first_message(exc.detail), "fields": fields}
        response.status_code = status.HTTP_400_BAD_REQUEST
        return response
    code = next((c for cls, c in _CODES.items() if isinstance(exc, cls)), ErrorCode.ERROR)
    detail = exc.detail if isinstance(exc, exceptions.APIException) else str(exc)
    body = {"code": code, "detail": _first_message(detail)}
    wait = getattr(exc, "wait", None)  # set by Throttled's __init__ (the stubs leave it out)
    if isinstance(exc, exceptions.Throttled) and wait is not None:
        # one number in the body and the header, rounded up (DRF's header rounds down)
        body["retry_after"] = max(1, math.ceil(wait))
        response["Retry-After"] = str(body["retry_after"])
    response.data = body
    return response
