"""`GET /api/v1/keys`: the public keys that sign checkpoints (games/services/signing.py).

Public and cacheable: anyone checks a checkpoint, a receipt or an export with
it (`python -m games.verify --keys`), retired keys included."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.services import signing

# a new key shows within this many seconds; a retired one never disappears
KEYS_MAX_AGE_SECONDS = 300


class SigningKeySerializer(serializers.Serializer[dict[str, Any]]):
    kid = serializers.CharField(help_text="base64url of the first 8 bytes of sha256(public_key's raw bytes)")
    alg = serializers.ChoiceField(choices=["Ed25519"])
    public_key = serializers.CharField(help_text="base64url of the 32 raw Ed25519 public key bytes")
    created = serializers.CharField(help_text="RFC 3339 UTC")
    retired = serializers.CharField(allow_null=True, help_text="RFC 3339 UTC; null for the key in use")


class KeysSerializer(serializers.Serializer[dict[str, Any]]):
    keys = SigningKeySerializer(many=True)


class KeysView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(
        responses={200: KeysSerializer},
        summary="The public keys that sign checkpoints, retired ones included",
        operation_id="signing_keys",
        auth=[],
        tags=["meta"],
    )
    def get(self, request: Request) -> Response:
        response = Response(signing.keys_document())
        response["Cache-Control"] = f"public, max-age={KEYS_MAX_AGE_SECONDS}"
        return response
