"""Play-by-email endpoints: pause/resume votes, reclaiming a zombie seat,
press messages, notifications (list, live stream, webhook delivery log) and
the one-click email unsubscribe."""

from __future__ import annotations

import re
from typing import Any

from django.db import transaction
from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import Profile
from games.models import Notification, WebhookDelivery
from games.services import pause, press
from games.services.errors import ErrorCode, Invalid, NotFound
from games.services.notify import user_channel
from games.services.present import iso
from games.services.reading import game_json
from games.services.userstream import notice_json, notices_after, user_fetch

from ..live.sse import sse_response
from ..press_throttle import PressRateThrottle
from ..renderers import EventStreamRenderer
from ..serializers import EventSerializer, GameSerializer
from .common import JsonErrors, errors, json_body, signed_in
from .common import int_param as _int


# -- pause / resume / reclaim -------------------------------------------------------------------
class PauseStateSerializer(serializers.Serializer[dict[str, Any]]):
    paused = serializers.BooleanField(help_text="whether the game is paused now")
    switched = serializers.BooleanField(help_text="true when this vote paused/resumed the game")
    action = serializers.ChoiceField(choices=["pause", "resume"])
    version = serializers.IntegerField()
    votes = serializers.ListField(child=serializers.CharField(), help_text="who voted for this action so far")
    waiting_for = serializers.ListField(
        child=serializers.CharField(), help_text="seated players who have not voted yet"
    )


class _VoteView(APIView):
    action = "pause"

    def post(self, request: Request, game_id: str) -> Response:
        return Response(pause.vote(game_id, signed_in(request), self.action))


class PauseView(_VoteView):
    action = "pause"

    @extend_schema(
        request=None,
        responses={200: PauseStateSerializer, **errors(401, 403, 404, 409)},
        summary="Vote to pause the game (the creator alone, or every seated player): "
        "deadlines stop with their remaining time",
        operation_id="pause_game",
        tags=["pbem"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        return super().post(request, game_id)


class ResumeView(_VoteView):
    action = "resume"

    @extend_schema(
        request=None,
        responses={200: PauseStateSerializer, **errors(401, 403, 404, 409)},
        summary="Vote to resume a paused game (the creator alone, or every seated player)",
        operation_id="resume_game",
        tags=["pbem"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        return super().post(request, game_id)


class ReclaimView(APIView):
    @extend_schema(
        request=None,
        responses={200: GameSerializer, **errors(401, 403, 404, 409)},
        summary="Take your seat back from the bot that played it after missed deadlines",
        operation_id="reclaim_seat",
        tags=["pbem"],
    )
    def post(self, request: Request, game_id: str, index: int) -> Response:
        if index > 1000:  # seats are small numbers; keep huge path ints away from the database
            raise NotFound("no such seat", code=ErrorCode.SEAT_NOT_FOUND)
        return Response(game_json(pause.reclaim(game_id, request.user, index), request.user))


# -- press ----------------------------------------------------------------------------------------
class SendMessageSerializer(serializers.Serializer[dict[str, Any]]):
    text = serializers.CharField(help_text="1 to PRESS_MAX_CHARS (default 2000) characters")
    to = serializers.ListField(
        child=serializers.IntegerField(min_value=0),
        allow_null=True,
        required=False,
        help_text="seat indices; null or absent = everyone (public)",
    )


class MessageResultSerializer(serializers.Serializer[dict[str, Any]]):
    version = serializers.IntegerField()
    event = EventSerializer(help_text="the core.MessageSent event as you see it")


class MessagesView(APIView):
    throttle_classes = [PressRateThrottle]  # counted across processes (api/press_throttle.py)

    @extend_schema(
        request=SendMessageSerializer,
        responses={201: MessageResultSerializer, **errors(400, 401, 403, 404, 409, 429)},
        summary="Send a message to every seat (public) or to chosen seats (private to them and you)",
        operation_id="send_message",
        tags=["pbem"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        body = json_body(request)
        unknown = set(body) - {"text", "to"}
        if unknown:
            raise Invalid(f"unknown fields: {sorted(unknown)}", code=ErrorCode.INVALID)
        return Response(press.send(game_id, request.user, body.get("text"), body.get("to")), status=201)


# -- notifications ------------------------------------------------------------------------------
class NoticeSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField(help_text="increasing; the SSE id")
    kind = serializers.ChoiceField(choices=Notification.Kind.values)
    created_at = serializers.DateTimeField()
    payload = serializers.JSONField(help_text="kind, game {id, version, chain_head, url…}, seat and details")


class NoticePageSerializer(serializers.Serializer[dict[str, Any]]):
    results = NoticeSerializer(many=True)


class NotificationsView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("after", OpenApiTypes.INT, description="ids greater than this"),
            OpenApiParameter("limit", OpenApiTypes.INT, description="default 50, max 200"),
        ],
        responses={200: NoticePageSerializer, **errors(400, 401)},
        summary="Your notices (your turn, reminders, defaults, messages…), oldest first",
        operation_id="list_notifications",
        tags=["pbem"],
    )
    def get(self, request: Request) -> Response:
        after = _int(request.query_params.get("after"), 0, "after", 0, 2**62)
        limit = _int(request.query_params.get("limit"), 50, "limit", 1, 200)
        return Response(
            {"results": [notice_json(n) for n in notices_after(signed_in(request).id, after, limit)]}
        )


class UserStreamView(JsonErrors, APIView):
    """Your notices as Server-Sent Events; errors (the stream cap's 429 included) are JSON."""

    renderer_classes = [JSONRenderer, EventStreamRenderer]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "after", OpenApiTypes.INT, description="resume after this id (the Last-Event-ID header wins)"
            )
        ],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                OpenApiTypes.STR,
                description="`id: <notice id>`, `event: <kind>`, `data: <notice JSON>`; keep-alive comments",
            ),
            **errors(400, 401, 429),
        },
        summary="Live stream (SSE) of your notices; resume with Last-Event-ID",
        operation_id="notification_stream",
        tags=["pbem"],
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        user = signed_in(request)
        return sse_response(request, user_channel(user.id), user_fetch(user))


class DeliverySerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    notification = serializers.IntegerField()
    kind = serializers.CharField()
    game = serializers.UUIDField()
    url = serializers.CharField()
    attempt = serializers.IntegerField()
    timestamp = serializers.IntegerField(help_text="the signed t")
    status_code = serializers.IntegerField(allow_null=True)
    ok = serializers.BooleanField()
    error = serializers.CharField(allow_blank=True)
    duration_ms = serializers.IntegerField()
    next_retry_at = serializers.DateTimeField(allow_null=True)
    notification_status = serializers.CharField()
    created_at = serializers.DateTimeField()


class DeliveryPageSerializer(serializers.Serializer[dict[str, Any]]):
    results = DeliverySerializer(many=True)


class WebhookDeliveriesView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("limit", OpenApiTypes.INT, description="default 50, max 200")],
        responses={200: DeliveryPageSerializer, **errors(400, 401)},
        summary="Your webhook delivery log, newest first",
        operation_id="list_webhook_deliveries",
        tags=["pbem"],
    )
    def get(self, request: Request) -> Response:
        limit = _int(request.query_params.get("limit"), 50, "limit", 1, 200)
        rows = (
            WebhookDelivery.objects.filter(user=signed_in(request))
            .select_related("notification")
            .order_by("-id")[:limit]
        )
        return Response(
            {
                "results": [
                    {
                        "id": d.id,
                        "notification": d.notification_id,
                        "kind": d.notification.kind,
                        "game": str(d.notification.game_id),
                        "url": d.url,
                        "attempt": d.attempt,
                        "timestamp": d.timestamp,
                        "status_code": d.status_code,
                        "ok": d.ok,
                        "error": d.error,
                        "duration_ms": d.duration_ms,
                        "next_retry_at": iso(d.next_retry_at),
                        "notification_status": d.notification.status,
                        "created_at": iso(d.created_at),
                    }
                    for d in rows
                ]
            }
        )


class UnsubscribedSerializer(serializers.Serializer[dict[str, Any]]):
    unsubscribed = serializers.BooleanField()
    username = serializers.CharField()


class UnsubscribeView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "token", OpenApiTypes.STR, required=True, description="from the link in a notification email"
            )
        ],
        responses={200: UnsubscribedSerializer, **errors(400, 404)},
        auth=[],
        summary="One-click unsubscribe from notification emails (the link in every email)",
        operation_id="unsubscribe",
        tags=["pbem"],
    )
    def get(self, request: Request) -> Response:
        return Response(_unsubscribe(request.query_params.get("token")))

    @extend_schema(
        request=None,
        parameters=[OpenApiParameter("token", OpenApiTypes.STR, required=True)],
        responses={200: UnsubscribedSerializer, **errors(400, 404)},
        auth=[],
        summary="RFC 8058 one-click unsubscribe (List-Unsubscribe-Post)",
        operation_id="unsubscribe_post",
        tags=["pbem"],
    )
    def post(self, request: Request) -> Response:
        return Response(_unsubscribe(request.query_params.get("token")))


_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _unsubscribe(token: object) -> dict[str, Any]:
    if not token or not isinstance(token, str) or not _TOKEN.fullmatch(token):
        raise Invalid("token is required", code=ErrorCode.INVALID, fields={"token": ["required"]})
    with transaction.atomic():
        profile = (
            Profile.objects.select_for_update().select_related("user").filter(unsubscribe_token=token).first()
        )
        if profile is None:
            raise NotFound("unknown or expired unsubscribe link", code=ErrorCode.UNKNOWN_TOKEN)
        if profile.email_notifications:
            profile.email_notifications = False
            profile.save(update_fields=["email_notifications"])
    return {"unsubscribed": True, "username": profile.user.username}
