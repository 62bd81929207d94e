"""The board picture: GET /games/{id}/board.svg (SVG of the caller's view)."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from games.services import board, lobby
from games.services.language import language_for

from ..caching import per_viewer
from ..renderers import SvgRenderer
from .common import JsonErrors, errors


class BoardView(JsonErrors, APIView):
    """The board drawn from your view at a version (SVG; errors are JSON `{code, detail}`)."""

    renderer_classes = [SvgRenderer, JSONRenderer]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "version", OpenApiTypes.INT, description="draw the board as it was then (default: now)"
            ),
            OpenApiParameter(
                "lang",
                OpenApiTypes.STR,
                description="language of the province names and every word of the panel (default: your account's, then Accept-Language, then English)",
            ),
        ],
        responses={
            (200, "image/svg+xml"): OpenApiResponse(
                OpenApiTypes.BINARY,
                description="the board as you may see it: provinces carry data-province and a title with "
                "their name; pieces carry data-piece, data-seat, data-count and data-at",
            ),
            304: OpenApiResponse(description="not modified"),
            **errors(400, 401, 404, 409),
        },
        summary="A picture of the board from your view (same redaction as /view and /replay)",
        operation_id="board_svg",
        tags=["play"],
    )
    def get(self, request: Request, game_id: str) -> HttpResponse:
        game = lobby.get_game(game_id, request.user, seats="plain")  # the viewer's seats, same round trip
        version, lang = request.query_params.get("version"), language_for(request)
        # The ETag covers the viewer (seat, account) and the language, not just the version: the
        # bytes differ by seat, so another seat's ETag must not answer 304 (issue 31).
        return per_viewer(
            request,
            game,
            lambda: HttpResponse(
                board.board_svg(game, request.user, version, lang),
                content_type="image/svg+xml; charset=utf-8",
            ),
            lang,
            negotiated=False,
        )

    def perform_content_negotiation(self, request: Request, force: bool = False) -> tuple[BaseRenderer, str]:
        # SVG whatever the Accept header says (errors: JSON, see JsonErrors)
        return super().perform_content_negotiation(request, force=True)
