"""Health: database, broker, and the Celery worker and beat (from their heartbeats).

`?probe=live` only says the web process answers (liveness: a web pod must not
be restarted because the worker is down); `?probe=ready` checks what this web
process needs to serve, the database and the broker (readiness: the site stays
up while a worker restarts); the default is the full check, 503 when any part
is down (compose, monitoring, the embedded supervisor's test)."""

from __future__ import annotations

import os
from typing import Any

import redis
from django.conf import settings
from django.db import connection
from drf_spectacular.utils import OpenApiParameter, extend_schema
from drf_spectacular.views import SpectacularAPIView
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.services import anchors
from games.services.errors import ErrorCode, Invalid
from heartbeats.beat import status

from ..serializers import HealthSerializer
from .common import JsonErrors, errors


def _database() -> str:
    try:
        with connection.cursor() as c:
            c.execute("SELECT 1")
        return "ok"
    except Exception as exc:
        return f"error: {type(exc).__name__}"


_broker_clients: dict[tuple[int, str], redis.Redis] = {}


def _broker_client(url: str) -> redis.Redis:
    """One client (and its connection pool) per process and URL. The check runs
    every second while probes come; a client made per check opened a new TCP
    connection each time and looked up redis-py's version in the installed
    packages' metadata (a walk of site-packages) for its handshake."""
    key = (os.getpid(), url)  # never a parent's socket after a fork
    client = _broker_clients.get(key)
    if client is None:
        client = _broker_clients[key] = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
    return client


def _broker() -> str:
    url = settings.CELERY_BROKER_URL
    if url.startswith("sengokusql+sqlite:///"):
        folder = os.path.dirname(url.split(":///", 1)[1]) or "."
        return "ok" if os.access(folder, os.W_OK) else "error: broker folder not writable"
    if url.startswith("memory://"):
        return "ok"
    if url.startswith("filesystem://"):
        inbox = str(settings.CELERY_BROKER_TRANSPORT_OPTIONS["data_folder_in"])
        return "ok" if os.access(inbox, os.W_OK) else "error: broker folder not writable"
    try:
        _broker_client(url).ping()
        return "ok"
    except Exception as exc:
        return f"error: {type(exc).__name__}"


PROBES = ("", "live", "ready")


class HealthView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []
    throttle_classes: list[Any] = []

    @extend_schema(
        responses={200: HealthSerializer, 503: HealthSerializer, **errors(400)},
        parameters=[
            OpenApiParameter(
                "probe",
                str,
                enum=["live", "ready"],
                description="live: only whether this web process answers; "
                "ready: database and broker, not the worker and beat",
            )
        ],
        summary="Database, broker, worker and scheduler heartbeats",
        operation_id="health",
        auth=[],
        tags=["meta"],
    )
    def get(self, request: Request) -> Response:
        probe = request.query_params.get("probe", "")
        if probe not in PROBES:  # a typo must not run (and 503 on) the full check
            raise Invalid(f"probe must be one of {', '.join(PROBES[1:])} (or absent)", code=ErrorCode.INVALID)
        code, body = check(probe)
        return Response(body, status=code)


def check(probe: str) -> tuple[int, dict[str, Any]]:
    """The probe's HTTP status and body (api/asgi_health.py serves the same, cached)."""
    if probe == "live":
        return 200, {"status": "ok"}
    db, broker = _database(), _broker()
    body = {"database": db, "broker": broker}
    ok = db == "ok" and broker == "ok"
    if db == "ok" and probe != "ready":
        for role, key in (("worker", "worker"), ("scheduler", "scheduler")):
            state, age = status(role)
            body[key] = state if age is None or state == "ok" else f"{state} (last heartbeat {age:.0f}s ago)"
            ok = ok and state == "ok"
        body["anchoring"] = anchors.status()  # details only: anchoring off is a choice, not a fault
    return (200 if ok else 503), {"status": "ok" if ok else "error", **body}


class SchemaView(JsonErrors, SpectacularAPIView):
    """The OpenAPI document. Its default renderer is YAML, which cannot write an
    error (`?format=x` failed as a 500 while rendering the 404, issue 31): errors
    are JSON `{code, detail}` as everywhere else."""
