"""Playing and reading a game: view, legal commands, commands, events, replay,
audit, export."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.services import audit, last_seen, lobby, play, reading, replay_range
from games.services.errors import ErrorCode, Invalid
from games.services.language import language_for

from ..caching import per_viewer
from ..live.sse import event_fetch, sse_response, wants_stream
from ..renderers import EventStreamRenderer, JsonLinesRenderer
from ..serializers import (
    CommandResultSerializer,
    EventPageSerializer,
    LegalCommandsSerializer,
    ReplayRangeSerializer,
    SubmitCommandSerializer,
    ViewSerializer,
)
from .audit import AuditReportSerializer, public_or_signed_in
from .catalogue import LANG_PARAM
from .common import JsonErrors, errors, json_body
from .common import int_param as _int


def _first_error(errors: dict[str, Any]) -> str:
    name, messages = next(iter(errors.items()))
    text = messages[0] if isinstance(messages, list) and messages else messages
    return str(text) if name == "non_field_errors" else f"{name}: {text}"


class StateView(APIView):
    @extend_schema(
        responses={200: ViewSerializer, 304: OpenApiResponse(description="not modified"), **errors(401, 404)},
        summary="Your redacted view of the current state (ETag per version and viewer)",
        operation_id="get_view",
        tags=["play"],
    )
    def get(self, request: Request, game_id: str) -> HttpResponse:
        game = lobby.get_game(game_id, request.user, seats="plain")  # the viewer's seats, same round trip
        last_seen.record(game.id, request.user, game.version)  # "since you last looked" (not an event)
        return per_viewer(request, game, lambda: Response(reading.view(game, request.user)))


class LegalView(APIView):
    @extend_schema(
        responses={200: LegalCommandsSerializer, **errors(401, 404)},
        summary="Your legal commands now (or templates + samples) and your deadline",
        operation_id="legal_commands",
        tags=["play"],
    )
    def get(self, request: Request, game_id: str) -> Response:
        return Response(reading.legal(lobby.get_game(game_id, request.user, seats="plain"), request.user))


class CommandsView(APIView):
    @extend_schema(
        request=SubmitCommandSerializer,
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description="retry-safe key, scoped to (you, game), kept 48 h",
            )
        ],
        responses={201: CommandResultSerializer, **errors(400, 401, 403, 404, 409, 413, 422, 429)},
        summary="Play a command",
        operation_id="submit_command",
        tags=["play"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        data = json_body(request)
        unknown = set(data) - {"command", "expected_version"}
        if unknown:
            raise Invalid(f"unknown fields: {sorted(unknown)}", code=ErrorCode.INVALID)
        body = SubmitCommandSerializer(data=data)
        if not body.is_valid():
            # a missing or shapeless command keeps its own code; anything else is `invalid`
            code = ErrorCode.INVALID_COMMAND if "command" in body.errors else ErrorCode.INVALID
            raise Invalid(f"{_first_error(body.errors)}", code=code, fields=body.errors)
        key = request.headers.get("Idempotency-Key")
        if key is not None and not 1 <= len(key) <= 200:
            raise Invalid(
                "Idempotency-Key must be 1 to 200 characters", code=ErrorCode.INVALID_IDEMPOTENCY_KEY
            )
        done = play.submit(
            game_id,
            request.user,
            body.validated_data["command"],
            body.validated_data.get("expected_version"),
            key,
        )
        last_seen.record(game_id, request.user, done.version)  # a move is a look at the game too
        return Response(
            {"version": done.version, "events": done.events, "checkpoint": done.checkpoint}, status=201
        )


class EventsView(JsonErrors, APIView):
    renderer_classes = [JSONRenderer, EventStreamRenderer]

    @extend_schema(
        parameters=[
            OpenApiParameter("after", OpenApiTypes.INT, description="events with seq > after"),
            OpenApiParameter("limit", OpenApiTypes.INT, description="default 100, max 1000"),
            OpenApiParameter(
                "stream",
                OpenApiTypes.BOOL,
                description="Server-Sent Events (same as Accept: text/event-stream)",
            ),
            LANG_PARAM,
        ],
        responses={200: EventPageSerializer, **errors(400, 401, 404, 429)},
        summary="Your redacted event feed, paged; or a live SSE stream",
        operation_id="list_events",
        tags=["play"],
    )
    def get(self, request: Request, game_id: str) -> HttpResponse | StreamingHttpResponse:
        if wants_stream(request):
            game = lobby.get_game(game_id, request.user)  # a stream outlives any seats read now
            return sse_response(
                request,
                game.id,
                event_fetch(
                    game, request.user, language_for(request), shared=getattr(request, "sengoku_live", False)
                ),
            )
        game = lobby.get_game(game_id, request.user, seats="plain")
        after = _int(request.query_params.get("after"), 0, "after", 0)
        limit = _int(request.query_params.get("limit"), 100, "limit", 1, 1000)
        lang = language_for(request)

        def page() -> Response:
            events, more = reading.events_page(game, request.user, after, limit, lang)
            nxt = None
            if more:
                q = request.query_params.copy()
                q["after"] = str(events[-1]["seq"])
                q["limit"] = str(limit)
                nxt = request.build_absolute_uri(request.path) + "?" + q.urlencode()
            return Response({"results": events, "next": nxt})

        return per_viewer(request, game, page, lang)


class ReplayView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "version", OpenApiTypes.INT, description="one version: your View as it was then"
            ),
            OpenApiParameter(
                "from",
                OpenApiTypes.INT,
                description="range replay: the View at `from`, then one "
                "JSON Patch per version (at most 500 per page; `next` for the rest)",
            ),
            OpenApiParameter(
                "to",
                OpenApiTypes.INT,
                description="range replay: the last version (default: the current one)",
            ),
        ],
        responses={
            200: PolymorphicProxySerializer(
                component_name="Replay",
                serializers=[ViewSerializer, ReplayRangeSerializer],
                resource_type_field_name=None,
            ),
            **errors(400, 401, 404),
        },
        summary="Your view as it was at a version, or a range of versions as JSON Patches (finished games: "
        "everything)",
        operation_id="replay",
        tags=["audit"],
    )
    def get(self, request: Request, game_id: str) -> HttpResponse:
        game = lobby.get_game(game_id, request.user, seats="plain")
        q = request.query_params
        if "from" not in q and "to" not in q:
            return per_viewer(
                request, game, lambda: Response(reading.replay(game, request.user, q.get("version")))
            )
        if "version" in q:
            raise Invalid("give either version or from/to", code=ErrorCode.INVALID)

        def patches() -> Response:
            body = replay_range.replay_range(game, request.user, q.get("from"), q.get("to"))
            more, asked = body.pop("more"), body.pop("asked_to")
            nxt = None
            if more:
                nq = q.copy()
                nq["from"], nq["to"] = str(body["to"]), str(asked)
                nxt = request.build_absolute_uri(request.path) + "?" + nq.urlencode()
            return Response({**body, "next": nxt})

        return per_viewer(request, game, patches)


class AuditView(APIView):
    permission_classes = [AllowAny]  # public_or_signed_in: visitors audit finished public games

    @extend_schema(
        responses={200: AuditReportSerializer, **errors(401, 404)},
        summary="Chain, seed commitment and commit-reveal checks",
        operation_id="audit",
        tags=["audit"],
    )
    def get(self, request: Request, game_id: str) -> Response:
        return Response(audit.audit(public_or_signed_in(request, game_id)))


class ExportView(JsonErrors, APIView):
    renderer_classes = [JsonLinesRenderer, JSONRenderer]

    @extend_schema(
        parameters=[LANG_PARAM],
        responses={
            (200, "application/x-ndjson"): OpenApiResponse(
                OpenApiTypes.BINARY,
                description="one Event JSON object per line (NDJSON); generated clients: map "
                "application/x-ndjson to bytes (openapi-python-client.yml)",
            ),
            **errors(401, 404),
        },
        summary="The event stream as JSON Lines (redacted for you while running)",
        operation_id="export",
        tags=["audit"],
    )
    def get(self, request: Request, game_id: str) -> HttpResponse:
        game = lobby.get_game(game_id, request.user, seats="plain")
        lang = language_for(request)

        def lines() -> HttpResponse:
            text = "".join(line + "\n" for line in audit.export_lines(game, request.user, lang))
            resp = HttpResponse(text, content_type="application/x-ndjson")
            resp["Content-Disposition"] = f'attachment; filename="{game.ruleset}-{game.id}.jsonl"'
            return resp

        return per_viewer(request, game, lines, lang, negotiated=False)

    def perform_content_negotiation(self, request: Request, force: bool = False) -> tuple[BaseRenderer, str]:
        # JSON Lines whatever the Accept header says (api.md); forcing also swallowed an
        # unknown `?format=`, which every other view answers 404 (issue 31)
        fmt = request.query_params.get("format")
        if fmt is not None and fmt not in {r.format for r in self.get_renderers()}:
            raise NotFound(f"no {fmt!r} format here")
        return super().perform_content_negotiation(request, force=True)
