"""What the pages share: finding a game the way the API does, and who may read it."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect

from games.models import Game
from games.rules import registry
from games.services import lobby
from games.services.errors import NotFound

ENDED = (Game.Status.FINISHED, Game.Status.ABORTED)


def find_game(request: HttpRequest, game_id: str) -> Game:
    """The game for this visitor, or a 404 page (unknown, malformed and hidden
    private games alike, as in the API)."""
    user = request.user if request.user.is_authenticated else None
    try:
        return lobby.get_game(game_id, user)
    except NotFound as exc:
        raise Http404("no such game") from exc


def readable(request: HttpRequest, game: Game) -> bool:
    """Replays and audits: ended public games for anyone (auditing past games
    needs no account), running games for their players only."""
    if game.status in ENDED and not game.private:
        return True
    return request.user.is_authenticated and lobby.is_seated(game, request.user)


def signed_in(request: HttpRequest) -> User:
    """`request.user` of a page behind login_required, typed as the account it is
    (the decorator sent anyone else to sign in first, so the raise is a guard)."""
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied("sign in first")
    return user


def to_signin(request: HttpRequest) -> HttpResponse:
    return redirect(f"{settings.LOGIN_URL}?next={request.get_full_path()}")


def title_of(game: Game) -> str:
    """The game's name, or its ruleset's printed name."""
    rules = registry.get(game.ruleset)
    return game.name or (rules.name if rules is not None else game.ruleset)
