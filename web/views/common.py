"""What the pages share: finding a game the way the API does, who may read it, and
the words of a game's name, status and refusals in the page's language."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy

from games import board, plugins
from games.models import Game
from games.rules import registry
from games.rules.i18n import normalize
from games.services import lobby
from games.services.error_texts import SENTENCES
from games.services.errors import NotFound, ServiceError

ENDED = (Game.Status.FINISHED, Game.Status.ABORTED)

# A game's status as a player reads it (the stored values are the API's words).
STATUS_WORDS: dict[str, Promise] = {
    Game.Status.OPEN: gettext_lazy("waiting for players"),
    Game.Status.RUNNING: gettext_lazy("running"),
    Game.Status.FINISHED: gettext_lazy("finished"),
    Game.Status.ABORTED: gettext_lazy("aborted"),
}


def page_language() -> str:
    """The language the page is drawn in (web/language.py activated it), as the rules catalogue names it."""
    return normalize(translation.get_language()) or "en"


def status_words(status: str) -> str:
    words = STATUS_WORDS.get(status)
    return str(words) if words is not None else status


def game_name(ruleset_id: str) -> str:
    """The ruleset's printed name in the page's language, from its own translation
    table (games/rules/<r>/data/i18n); the engine's English name without one."""
    record = plugins.get(ruleset_id)
    if record is not None and record.board is not None:
        return board.texts(record.board, page_language())("board.name")
    rules = registry.get(ruleset_id)
    return rules.name if rules is not None else ruleset_id


def refusal_words(refusal: ServiceError) -> str:
    """A service's refusal in the page's language, as the API words it (api/errors.py):
    English keeps the service's own sentence; another language gets its translation
    if the catalogue has one, else the sentence of its error code."""
    if page_language() == "en":
        return refusal.detail
    exact = gettext(refusal.detail) if refusal.detail else ""
    if exact and exact != refusal.detail:
        return exact
    sentence = SENTENCES.get(refusal.code)
    return gettext(sentence) if sentence is not None else refusal.detail


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
    """The game's name, or its ruleset's printed name in the page's language."""
    return game.name or game_name(game.ruleset)
