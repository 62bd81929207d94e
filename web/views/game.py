"""The game, replay and audit pages. The game page is a shell: its script reads
and plays through the public API with the session (view, legal commands,
commands, the SSE stream). Replay and audit read through the same services as
the API's replay, audit and export endpoints."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from games import verify
from games.models import Game
from games.services import audit, board, caching, reading
from games.services.errors import ServiceError
from games.services.present import viewer_for

from .common import ENDED, find_game, readable, title_of, to_signin

MAX_LOG = 20000  # a long Rising Sun game has a few thousand events


def _viewer_user(request: HttpRequest) -> User | None:
    return request.user if request.user.is_authenticated else None


def _private(resp: HttpResponse) -> HttpResponse:
    """One viewer's bytes (their seat's redaction): browsers only, per session (issue 31)."""
    resp["Cache-Control"] = caching.PRIVATE
    patch_vary_headers(resp, caching.VARY_VIEWER)
    return resp


@require_GET
def game_page(request: HttpRequest, game_id: str) -> HttpResponse:
    if not request.user.is_authenticated:
        return to_signin(request)  # notification emails link here: sign in, then back
    invite = request.GET.get("invite", "")
    try:
        game = find_game(request, game_id)
    except Http404:
        if not invite:
            raise
        # a private game's invite link: the join service checks the code (a wrong one is the same 404)
        return render(request, "web/join.html", {"game_id": game_id, "invite": invite})
    seat = viewer_for(game, request.user).seat
    boot = {
        "id": str(game.id),
        "seat": seat,
        "user": request.user.username,
        "creator": game.creator_id == request.user.id,
    }
    return render(
        request, "web/game.html", {"game": game, "title": title_of(game), "boot": boot, "seat": seat}
    )


def _readable_game(request: HttpRequest, game_id: str) -> Game | None:
    game = find_game(request, game_id)
    if game.status == Game.Status.OPEN:
        raise Http404("the game has not started")
    return game if readable(request, game) else None


@require_GET
def replay_page(request: HttpRequest, game_id: str) -> HttpResponse:
    game = _readable_game(request, game_id)
    if game is None:
        return to_signin(request) if not request.user.is_authenticated else _forbidden(request)
    log = log_lines(game, _viewer_user(request))
    start = request.GET.get("version", "")
    version = int(start) if start.isdigit() and 1 <= int(start) <= game.version else game.version
    boot = {
        "id": str(game.id),
        "version": version,
        "last": game.version,
        "signed_in": request.user.is_authenticated,
    }
    return render(
        request,
        "web/replay.html",
        {"game": game, "title": title_of(game), "log": log, "boot": boot, "version": version},
    )


@require_GET
def replay_json(request: HttpRequest, game_id: str, version: int) -> HttpResponse:
    game = _readable_game(request, game_id)
    if game is None:
        return JsonResponse({"code": "forbidden", "detail": "players only while the game runs"}, status=403)
    try:
        body = reading.replay(game, _viewer_user(request), version)
    except ServiceError as exc:
        return JsonResponse({"code": exc.code, "detail": exc.detail}, status=exc.status)
    return _private(JsonResponse(body))


@require_GET
def board_svg(request: HttpRequest, game_id: str, version: int) -> HttpResponse:
    """The board at a version for whoever may replay the game (the API's
    board.svg wants an account; a finished public game's replay does not)."""
    game = _readable_game(request, game_id)
    if game is None:
        return JsonResponse({"code": "forbidden", "detail": "players only while the game runs"}, status=403)
    try:
        svg = board.board_svg(game, _viewer_user(request), version)
    except ServiceError as exc:
        return JsonResponse({"code": exc.code, "detail": exc.detail}, status=exc.status)
    return _private(HttpResponse(svg, content_type="image/svg+xml; charset=utf-8"))


@require_GET
def audit_page(request: HttpRequest, game_id: str) -> HttpResponse:
    game = _readable_game(request, game_id)
    if game is None:
        return to_signin(request) if not request.user.is_authenticated else _forbidden(request)
    report = audit.audit(game)
    return render(
        request,
        "web/audit.html",
        {
            "game": game,
            "title": title_of(game),
            "a": report,
            "ended": game.status in ENDED,
            # the distribution and version the install instructions name (web/_verify_install.html)
            "verifier_pin": f"{verify.DISTRIBUTION}=={verify.__version__}",
        },
    )


@require_GET
def export(request: HttpRequest, game_id: str) -> HttpResponse:
    game = _readable_game(request, game_id)
    if game is None:
        return to_signin(request) if not request.user.is_authenticated else _forbidden(request)
    lines = audit.export_lines(game, _viewer_user(request))
    resp = HttpResponse("".join(line + "\n" for line in lines), content_type="application/x-ndjson")
    resp["Content-Disposition"] = f'attachment; filename="{game.ruleset}-{game.id}.jsonl"'
    return _private(resp)


def log_lines(game: Game, user: User | None) -> list[dict[str, Any]]:
    """One readable line per version: the event's `summary` (the catalogue's
    localized text, when the feed carries it) or its type."""
    events, _ = reading.events_page(game, user, 0, MAX_LOG)
    summarized = any(e.get("summary") for e in events)
    return [
        {
            "seq": e["seq"],
            "text": e.get("summary") or ("(hidden)" if e.get("redacted") else e["type"]),
            "type": e["type"],
            # muted: secrets, and the rest of a batch whose first event's summary says it all
            "hidden": bool(e.get("redacted")) or (summarized and not e.get("summary")),
        }
        for e in events
    ]


def _forbidden(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "web/message.html",
        {
            "title": "Players only",
            "text": "This game is still running: only its players can replay or audit it until it ends.",
        },
        status=403,
    )
