"""GET /rulesets/{id}/catalogue: everything a client needs to draw and explain a
game, in the caller's language (issue 14.1). Public and cacheable: a strong ETag
per (ruleset, language, rules version); a matching If-None-Match answers 304."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.rules.i18n import LANGUAGES
from games.services import catalogue
from games.services.language import language_for, requested

from ..serializers_catalogue import CatalogueSerializer
from .common import errors

# Named by ?lang=, one URL is one language: any cache may keep it for an hour. Chosen from
# the account or Accept-Language, the same URL answers another language once the account's
# setting changes (the cookie or token does not), so a cache must ask again each time (the
# ETag makes that a 304 when nothing changed).
CACHE_CONTROL = "public, max-age=3600"
CACHE_CONTROL_CHOSEN = "private, no-cache"

LANG_PARAM = OpenApiParameter(
    "lang",
    OpenApiTypes.STR,
    enum=list(LANGUAGES),
    description="language (else your account's setting, then Accept-Language, then en)",
)


class CatalogueView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[LANG_PARAM],
        responses={200: CatalogueSerializer, 304: None, **errors(400, 404)},
        summary="The rules catalogue: map, factions, figures, cards, command and prompt labels",
        operation_id="ruleset_catalogue",
        tags=["lobby"],
    )
    def get(self, request: Request, ruleset_id: str) -> Response | HttpResponse:
        lang = language_for(request)
        body, etag = catalogue.catalogue(ruleset_id, lang)
        cache_control = CACHE_CONTROL if requested(request) else CACHE_CONTROL_CHOSEN
        headers = {
            "ETag": etag,
            "Cache-Control": cache_control,
            "Vary": "Accept-Language, Authorization, Cookie",
        }
        if etag in _etags(request.headers.get("If-None-Match", "")):
            return HttpResponse(status=304, headers=headers)
        return Response(body, headers={**headers, "Content-Language": lang})


def _etags(header: str) -> set[str]:
    return {t.strip().removeprefix("W/") for t in header.split(",") if t.strip()}
