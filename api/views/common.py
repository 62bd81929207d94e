"""Shared bits of the views: error responses for the schema, helpers."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.utils import OpenApiResponse
from rest_framework.exceptions import NotAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.services.errors import ErrorCode, Invalid

from ..serializers import ErrorSerializer


def errors(*statuses: int) -> dict[int, OpenApiResponse]:
    text = {
        400: "invalid request",
        401: "missing or invalid token",
        403: "not allowed",
        404: "not found",
        409: "conflict (stale version, wrong state)",
        413: "body too large",
        422: "illegal command",
        429: "rate limited (Retry-After)",
    }
    return {s: OpenApiResponse(ErrorSerializer, description=text[s]) for s in statuses}


def signed_in(request: Request) -> User:
    """`request.user` of a view behind IsAuthenticated, typed as the account it is
    (the permission answered 401 before the view ran, so the raise is a guard)."""
    user = request.user
    if not isinstance(user, User):
        raise NotAuthenticated()
    return user


def json_body(request: Request) -> dict[str, Any]:
    """request.data, insisting on a JSON object (DRF parses; we check the shape)."""
    data = request.data
    if not isinstance(data, dict):
        raise Invalid("the request body must be a JSON object", code=ErrorCode.INVALID)
    return data


MAX_INT64 = 2**63 - 1  # the largest value a bigint column (ids, seqs, versions) holds
_INTEGER = re.compile(r"-?[0-9]{1,20}")


def int_param(raw: object, default: int, name: str, lo: int, hi: int = MAX_INT64) -> int:
    """An integer query parameter or header: absent → default; malformed or out
    of range → 400 `invalid` (never a 500). The upper bound is never above
    MAX_INT64: a larger number reached the database and failed there as a 500
    (`?after=2**63`, issue 31). Only ASCII digits with an optional minus: `int()`
    alone also takes "1_000", " 7 " and other scripts' digits."""
    if raw is None or raw == "":
        return default
    if not isinstance(raw, str) or not _INTEGER.fullmatch(raw):
        raise Invalid(f"{name} must be an integer", code=ErrorCode.INVALID)
    v = int(raw)
    hi = min(hi, MAX_INT64)
    if not lo <= v <= hi:
        raise Invalid(f"{name} must be from {lo} to {hi}", code=ErrorCode.INVALID)
    return v


class JsonErrors(APIView):
    """For views whose success is not JSON (export's JSON Lines, SSE): errors
    are still rendered as JSON `{code, detail}` with a JSON content type."""

    def handle_exception(self, exc: Exception) -> Response:
        response = super().handle_exception(exc)
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = "application/json"
        return response
