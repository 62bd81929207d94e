"""GET /api/v1/accounts/me/games: the caller's inbox (games/services/inbox.py)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.services import inbox
from games.services.errors import ErrorCode, Invalid

from ..serializers import CheckpointSerializer
from .common import errors, signed_in
from .common import int_param as _int


class InboxEntrySerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.UUIDField()
    name = serializers.CharField(allow_blank=True)
    ruleset = serializers.CharField()
    status = serializers.ChoiceField(choices=["open", "running", "finished", "aborted"])
    paused = serializers.BooleanField()
    private = serializers.BooleanField()
    seat = serializers.IntegerField(help_text="your seat")
    faction = serializers.CharField(allow_null=True)
    pending = serializers.BooleanField(help_text="a decision of yours is pending now")
    decision = serializers.CharField(allow_null=True, help_text="the ruleset's name for it")
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="when the default is applied; null: untimed"
    )
    last_activity = serializers.DateTimeField(help_text="the last event's time (creation for open games)")
    version = serializers.IntegerField()
    chain_head = serializers.CharField(allow_null=True)
    unseen_events = serializers.IntegerField(
        min_value=0,
        help_text="events since you last opened the game's page or view or moved in it (all of them if never)",
    )
    checkpoint = CheckpointSerializer(
        allow_null=True, help_text="signed, at `version`; null before the start"
    )


class InboxPageSerializer(serializers.Serializer[dict[str, Any]]):
    results = InboxEntrySerializer(many=True)
    next = serializers.CharField(allow_null=True)
    count = serializers.IntegerField()


class InboxView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("status", OpenApiTypes.STR, enum=["open", "running", "finished", "aborted"]),
            OpenApiParameter(
                "awaiting",
                OpenApiTypes.STR,
                enum=["me"],
                description="only the games where a decision of yours is pending",
            ),
            OpenApiParameter("limit", OpenApiTypes.INT, description="page size, default 50, max 200"),
            OpenApiParameter("offset", OpenApiTypes.INT),
        ],
        responses={200: InboxPageSerializer, **errors(400, 401)},
        summary="Your games, " + inbox.SORTING + "; `inbox` notices on /accounts/me/stream announce changes",
        operation_id="my_games",
        tags=["accounts"],
    )
    def get(self, request: Request) -> Response:
        q = request.query_params
        awaiting = q.get("awaiting")
        if awaiting not in (None, "", "me"):
            raise Invalid("awaiting must be 'me'", code=ErrorCode.INVALID)
        rows = inbox.entries(signed_in(request), q.get("status") or None, awaiting == "me")
        limit = _int(q.get("limit"), 50, "limit", 1, 200)
        offset = _int(q.get("offset"), 0, "offset", 0, 10**9)
        nxt = None
        if offset + limit < len(rows):
            qq = q.copy()
            qq["offset"] = str(offset + limit)
            nxt = request.build_absolute_uri(request.path) + "?" + qq.urlencode()
        return Response({"results": rows[offset : offset + limit], "next": nxt, "count": len(rows)})
