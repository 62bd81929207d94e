"""Invitations to a seat (games/services/invitations.py): the host invites an
account; the account lists its invitations, accepts by joining, or declines."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.services import invitations

from ..serializers import StrictSerializer
from .common import errors, json_body, signed_in


class InviteAccountSerializer(StrictSerializer):
    username = serializers.CharField(
        max_length=150, help_text="the account to invite (a bot account, or anyone)"
    )


class InvitationSerializer(serializers.Serializer[dict[str, Any]]):
    game = serializers.UUIDField()
    name = serializers.CharField(allow_blank=True)
    ruleset = serializers.CharField()
    players = serializers.IntegerField()
    seats_taken = serializers.IntegerField()
    private = serializers.BooleanField()
    invited_by = serializers.CharField(help_text="the game's host")
    created_at = serializers.DateTimeField()


class InvitationListSerializer(serializers.Serializer[dict[str, Any]]):
    results = InvitationSerializer(many=True)


class GameInvitationsView(APIView):
    @extend_schema(
        request=InviteAccountSerializer,
        responses={201: InvitationSerializer, **errors(400, 401, 403, 404, 409)},
        summary="Invite an account to a seat (creator, open games); it accepts by joining",
        operation_id="invite_account",
        tags=["lobby"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        s = InviteAccountSerializer(data=json_body(request))
        s.is_valid(raise_exception=True)
        inv = invitations.invite(game_id, signed_in(request), s.validated_data["username"])
        return Response(invitations.entry(inv), status=201)


class MyInvitationsView(APIView):
    @extend_schema(
        responses={200: InvitationListSerializer, **errors(401)},
        summary="Open games you are invited to (accept: POST /games/{id}/seats, no invite code needed)",
        operation_id="my_invitations",
        tags=["accounts"],
    )
    def get(self, request: Request) -> Response:
        return Response(
            {"results": [invitations.entry(i) for i in invitations.pending_for(signed_in(request))]}
        )


class MyInvitationView(APIView):
    @extend_schema(
        request=None,
        responses={204: None, **errors(401, 404)},
        summary="Decline an invitation",
        operation_id="decline_invitation",
        tags=["accounts"],
    )
    def delete(self, request: Request, game_id: str) -> Response:
        invitations.decline(game_id, signed_in(request))
        return Response(status=204)
