"""Conditional GETs of the answers that differ by viewer (games/services/caching.py
says what their ETag covers): 304 only for the viewer's own ETag, and
`Cache-Control: private` + `Vary` on every answer, the 304 included."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpResponse
from django.utils.cache import patch_vary_headers
from rest_framework.request import Request

from games.models import Game
from games.services import caching
from games.services.present import viewer_for


def per_viewer(
    request: Request,
    game: Game,
    answer: Callable[[], HttpResponse],
    lang: str | None = None,
    negotiated: bool = True,
) -> HttpResponse:
    """`answer()` for this viewer, or 304 when the client holds exactly these bytes.

    `lang`: the language the answer is written in, for localized answers. The
    query parameters are part of the ETag too (`?version`, `?after`), and so is
    the Accept header when it chooses the rendering (`negotiated`: JSON may be
    indented on request; the SVG and JSON Lines answers are the same whatever it says)."""
    accept = request.headers.get("Accept", "") if negotiated else ""
    etag = caching.viewer_etag(
        game,
        viewer_for(game, request.user),
        accept,
        *caching.query_parts(request.GET.items()),
        lang=lang,
    )
    resp = (
        HttpResponse(status=304) if caching.matches(request.headers.get("If-None-Match"), etag) else answer()
    )
    resp["Cache-Control"] = caching.PRIVATE
    patch_vary_headers(resp, caching.vary(localized=lang is not None, negotiated=negotiated))
    resp["ETag"] = etag
    return resp
