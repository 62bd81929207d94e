"""The game, replay and audit pages. The game page is a shell: its script reads
and plays through the public API with the session (view, legal commands,
commands, the SSE stream). Replay and audit read through the same services as
the API's replay, audit and export endpoints."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from games import verify
from games.models import Game
from games.services import audit, board, caching, last_seen, reading, replay_book
from games.services.errors import ServiceError
from games.services.language import language_quiet
from games.services.present import viewer_for

from .common import ENDED, find_game, readable, title_of, to_signin


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
        # the version this account last looked at or moved at (None: never), read before
        # this visit is recorded, so the page can show what changed since
        "last_seen": last_seen.previous(game, request.user),
    }
    if game.status != Game.Status.OPEN:
        last_seen.record(game.id, request.user, game.version)
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
    """The replay by steps (one per command) grouped by turns, in describe()
    words; the scoring breakdown once the game is over (services/replay_book.py)."""
    game = _readable_game(request, game_id)
    if game is None:
        return to_signin(request) if not request.user.is_authenticated else _forbidden(request)
    lang = language_quiet(request)
    book = replay_book.book(game, _viewer_user(request), lang)
    steps = book["steps"]
    start = request.GET.get("version", "")
    version = int(start) if start.isdigit() and 1 <= int(start) <= game.version else game.version
    at = next((s["index"] for s in steps if s["from"] <= version <= s["version"]), len(steps) - 1)
    names = seat_names(game)
    turns = [
        {**turn, "steps": [s for s in steps if s["turn"] == number]}
        for number, turn in enumerate(book["turns"])
    ]
    scoring = book["scoring"]
    if scoring is not None:
        scoring = {
            **scoring,
            "seats": [{**row, "name": names.get(row["seat"], "")} for row in scoring["seats"]],
        }
    boot = {
        "id": str(game.id),
        "step": max(at, 0),
        "last": game.version,
        # per step: [first version, last version, turn]; per turn: its label
        "steps": [[s["from"], s["version"], s["turn"]] for s in steps],
        "turns": [turn["label"] for turn in book["turns"]],
        "signed_in": request.user.is_authenticated,
    }
    return render(
        request,
        "web/replay.html",
        {"game": game, "title": title_of(game), "turns": turns, "boot": boot, "scoring": scoring},
    )


def seat_names(game: Game) -> dict[int, str]:
    """Seat index -> who sat there (the account, or the bot's name)."""
    out: dict[int, str] = {}
    for seat in reading.seats_json(game):
        user = seat.get("user") or {}
        out[int(seat["index"])] = str(user.get("username") or seat.get("bot") or "")
    return out


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
    names = seat_names(game)
    book = replay_book.book(game, _viewer_user(request), language_quiet(request))
    # the step a version belongs to, so "revealed at version 404" can say which step that was
    step_of = {v: s["index"] + 1 for s in book["steps"] for v in range(s["from"], s["version"] + 1)}
    commitments = [
        {
            **c,
            "who": names.get(c["seat"], "") if c["seat"] >= 0 else "",
            "reveal_step": step_of.get(c["reveal_seq"]),
        }
        for c in report["commitments"]
    ]
    return render(
        request,
        "web/audit.html",
        {
            "game": game,
            "title": title_of(game),
            "a": report,
            "commitments": commitments,
            "ended": game.status in ENDED,
            "public": game.status in ENDED and not game.private,
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


def _forbidden(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "web/message.html",
        {
            "title": gettext("Players only"),
            "text": gettext(
                "This game is still running: only its players can replay or audit it until it ends."
            ),
        },
        status=403,
    )
