"""`GET /api/v1/anchors`: the timestamped Merkle trees of checkpoints (games/services/anchors.py).

Public: newest first, `limit` per page, `next` pages on with `before` (a cursor:
the id below which the next page starts), so a page never shifts while new
anchors are added. Each anchor's `token` (an RFC 3161 TimeStampResp, base64)
signs its `root`; `python -m games.verify --tsa-cert` checks a game's proof."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Anchor
from games.services import anchors

from .common import errors, int_param

# built from a dict: `root` as a class attribute would shadow Field.root
AnchorSerializer = inline_serializer(
    name="Anchor",
    fields={
        "id": serializers.IntegerField(),
        "tree_size": serializers.IntegerField(help_text="how many checkpoints are the tree's leaves"),
        "root": serializers.CharField(help_text="hex of the RFC 6962 tree head"),
        "timestamped_at": serializers.CharField(help_text="RFC 3339 UTC: the token's genTime"),
        "token": serializers.CharField(
            help_text="base64 of the TSA's DER TimeStampResp over the root's 32 bytes"
        ),
        "tsa_url": serializers.CharField(),
    },
)


class AnchorListSerializer(serializers.Serializer[dict[str, Any]]):
    results = serializers.ListField(child=AnchorSerializer)
    next = serializers.CharField(allow_null=True, help_text="the next (older) page; null on the last")
    enabled = serializers.BooleanField(help_text="whether this server anchors (TSA_URL is set)")


class AnchorsView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(
        parameters=[
            OpenApiParameter("limit", OpenApiTypes.INT, description="page size, default 50, max 200"),
            OpenApiParameter("before", OpenApiTypes.INT, description="cursor: anchors with a smaller id"),
        ],
        responses={200: AnchorListSerializer, **errors(400)},
        summary="Anchors: Merkle trees of checkpoints with their RFC 3161 timestamps, newest first",
        operation_id="list_anchors",
        auth=[],
        tags=["audit"],
    )
    def get(self, request: Request) -> Response:
        limit = int_param(request.query_params.get("limit"), 50, "limit", 1, 200)
        before = int_param(request.query_params.get("before"), 0, "before", 1)
        rows = Anchor.objects.order_by("-id")
        if before:
            rows = rows.filter(id__lt=before)
        page = list(rows[: limit + 1])
        nxt = None
        if len(page) > limit:
            page = page[:limit]
            q = request.query_params.copy()
            q["before"] = str(page[-1].id)
            nxt = request.build_absolute_uri(request.path) + "?" + q.urlencode()
        return Response(
            {"results": [anchors.anchor_json(a) for a in page], "next": nxt, "enabled": anchors.enabled()}
        )
