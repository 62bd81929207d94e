"""One error shape for the whole API: `{code, detail, ...}` with the right status.

We map errors ourselves instead of using drf-standardized-errors: its shape
(`{type, errors: [...]}`) is not the `{code, detail}` contract of api.md, and
the mapping is a dozen lines."""

from __future__ import annotations

from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_handler

from games.services.errors import ServiceError

from .stream_slots import TooManyStreams

_CODES = {
    TooManyStreams: "too_many_streams",
    exceptions.ParseError: "malformed_json",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "invalid_token",
    exceptions.PermissionDenied: "forbidden",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "rate_limited",
}


def _first_message(detail) -> str:
    if isinstance(detail, dict):
        for k, v in detail.items():
            return f"{k}: {_first_message(v)}" if k != "non_field_errors" else _first_message(v)
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)


def exception_handler(exc, context):
    if isinstance(exc, ServiceError):
        return Response({"code": exc.code, "detail": exc.detail, **exc.extra}, status=exc.status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    response = drf_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        fields = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        response.data = {"code": "invalid", "detail": _first_message(exc.detail), "fields": fields}
        response.status_code = status.HTTP_400_BAD_REQUEST
        return response
    code = next((c for cls, c in _CODES.items() if isinstance(exc, cls)), "error")
    detail = exc.detail if isinstance(exc, exceptions.APIException) else str(exc)
    body = {"code": code, "detail": _first_message(detail)}
    if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
        body["retry_after"] = int(exc.wait) + 1
    response.data = body
    return response
