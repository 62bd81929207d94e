"""The lobby: open games to join, my games by urgency, and creating a game
(with bot seats) through the same lobby service the API calls."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.dateparse import parse_datetime
from django.views.decorators.http import require_POST

from games.models import Game
from games.rules import registry
from games.services import inbox, lobby
from games.services.errors import ServiceError

from ..forms import TIME_CONTROLS, CreateGameForm
from .common import game_name, refusal_words, signed_in, status_words

OPEN_GAMES_SHOWN = 50


def rulesets() -> list[dict[str, Any]]:
    out = []
    for rid in registry.available():
        r = registry.get(rid)
        if r is None:  # unregistered since available() listed it
            continue
        out.append({"id": rid, "name": game_name(rid), "per_players": lobby.player_counts(r)})
    return out


def open_games(request: HttpRequest) -> list[Game]:
    q = request.GET
    qs = (
        Game.objects.filter(status=Game.Status.OPEN, private=False)
        .annotate(taken=Count("seats"))
        .select_related("creator")
        .order_by("-created_at")
    )
    if q.get("ruleset"):
        qs = qs.filter(ruleset=q["ruleset"])
    if q.get("players", "").isdigit():
        qs = qs.filter(players=int(q["players"]))
    if q.get("time") == "untimed":
        qs = qs.filter(Q(time_control__isnull=True) | Q(time_control__seconds_per_decision__isnull=True))
    elif q.get("time") == "timed":
        qs = qs.filter(time_control__seconds_per_decision__isnull=False)
    if request.user.is_authenticated:
        qs = qs.exclude(seats__user=request.user)
    games: list[Game] = list(qs[:OPEN_GAMES_SHOWN])
    for game in games:
        game.game_name = game_name(game.ruleset)  # type: ignore[attr-defined]  # for the template only
    return games


def lobby_page(request: HttpRequest, form: CreateGameForm | None = None, status: int = 200) -> HttpResponse:
    sets = rulesets()
    mine = inbox.entries(request.user) if request.user.is_authenticated else []
    for g in mine:
        g["due"] = parse_datetime(g["deadline"]) if g.get("deadline") else None
        g["game_name"] = game_name(g["ruleset"])
        g["status_words"] = status_words(g["status"])
    ctx = {
        "open_games": open_games(request),
        "mine": [g for g in mine if g["status"] in ("open", "running")],
        "finished": [g for g in mine if g["status"] in ("finished", "aborted")][:10],
        "rulesets": sets,
        "rulesets_json": sets,
        "form": form or CreateGameForm(rulesets=sets),
        "filters": request.GET,
        "time_controls": TIME_CONTROLS,
    }
    return render(request, "web/lobby.html", ctx, status=status)


def index(request: HttpRequest) -> HttpResponse:
    return lobby_page(request)


@login_required
@require_POST
def create(request: HttpRequest) -> HttpResponse:
    form = CreateGameForm(request.POST, rulesets=rulesets())
    if not form.is_valid():
        return lobby_page(request, form, status=400)
    d = form.cleaned_data
    try:
        # the creator's seat entropy (web/static/web/entropy.js), checked before anything is created
        entropy = _entropy(request)
        game = lobby.create_game(
            signed_in(request),
            d["ruleset"],
            d["players"],
            json.loads(d["options"] or "{}"),
            d["time_control"],
            d["name"],
            None,
            d["private"],
        )
        if entropy:
            lobby.contribute_entropy(game.id, signed_in(request), 0, entropy)
        for _ in range(min(d["bots"], d["players"] - 1)):
            lobby.join(game.id, signed_in(request), bot=d["bot_kind"])
        if d["bots"] >= d["players"] - 1:
            lobby.start(game.id, signed_in(request))
    except ServiceError as exc:
        form.add_error(None, refusal_words(exc))
        return lobby_page(request, form, status=exc.status)
    return redirect("web:game", game_id=game.id)


@login_required
@require_POST
def join_game(request: HttpRequest, game_id: str) -> HttpResponse:
    try:
        lobby.join(
            game_id,
            signed_in(request),
            invite_code=request.POST.get("invite") or None,
            entropy=_entropy(request),
        )
    except ServiceError as exc:
        messages.error(request, refusal_words(exc))
        return redirect("web:lobby")
    return redirect("web:game", game_id=game_id)


def _entropy(request: HttpRequest) -> str | None:
    """The seat entropy the page's script drew (web/static/web/entropy.js), checked; None
    when the browser sent none (scripts off): the game is then played on the seed alone."""
    given = request.POST.get("entropy") or None
    return lobby.checked_entropy(given) if given is not None else None
