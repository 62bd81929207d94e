"""Health: liveness plus database and broker status."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from ..serializers import HealthSerializer


def _database() -> str:
    try:
        with connection.cursor() as c:
            c.execute("SELECT 1")
        return "ok"
    except Exception as exc:
        return f"error: {type(exc).__name__}"


def _broker() -> str:
    url = settings.CELERY_BROKER_URL
    if url.startswith("filesystem://"):
        folder = settings.CELERY_BROKER_TRANSPORT_OPTIONS["data_folder_in"]
        import os

        return "ok" if os.access(folder, os.W_OK) else "error: broker folder not writable"
    try:
        import redis

        redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2).ping()
        return "ok"
    except Exception as exc:
        return f"error: {type(exc).__name__}"


class HealthView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes: list = []

    @extend_schema(responses={200: HealthSerializer, 503: HealthSerializer}, summary="Liveness, database, broker", operation_id="health", auth=[],
                   tags=["meta"])
    def get(self, request):
        db, broker = _database(), _broker()
        ok = db == "ok" and broker == "ok"
        return Response({"status": "ok" if ok else "error", "database": db, "broker": broker},
                        status=200 if ok else 503)
