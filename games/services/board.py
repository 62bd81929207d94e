"""Board pictures: the SVG of a game as the caller may see it, at a version.

Drawn by the pure renderer (`games.board`) from exactly the view `/view` or
`/replay?version=N` returns to this caller, never from the engine state, so the
picture can show nothing the caller's view does not."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games import board, plugins

from ..models import Game
from . import catalogue, reading
from .errors import Conflict, ErrorCode, NotFound
from .types import Reader


def names_for(ruleset: str, lang: str | None) -> Mapping[str, str] | None:
    """Province names in `lang` from the ruleset's catalogue (None: the engine
    data's English names, for a ruleset without a catalogue)."""
    if not catalogue.has_catalogue(ruleset):
        return None
    body, _etag = catalogue.catalogue(ruleset, lang or "en")
    return {p["id"]: p["name"] for p in body["map"]["provinces"]}


def board_svg(game: Game, user: Reader, version: Any = None, lang: str | None = None) -> str:
    """The board as `user` may see it at `version` (default: now), drawn from the
    same redacted view `/view` and `/replay` answer, as an SVG document."""
    record = plugins.get(game.ruleset)
    layer = record.board if record is not None else None
    if layer is None:
        raise NotFound(f"the {game.ruleset} ruleset has no board picture", code=ErrorCode.NOT_FOUND)
    if game.status == Game.Status.OPEN:
        raise Conflict("the game has not started: there is no board yet", code=ErrorCode.GAME_NOT_RUNNING)
    body = reading.view(game, user) if version is None else reading.replay(game, user, version)
    t = board.texts(layer, lang)
    who = t("board.spectator") if body["seat"] is None else t("board.seat", n=body["seat"])
    status = t(f"board.status.{game.status}")
    caption = t(
        "board.caption", game=game.name or t("board.name"), version=body["version"], who=who, status=status
    )
    return board.render(layer, body["state"], names_for(game.ruleset, lang), caption, lang)
