"""Press: negotiation messages between seats, stored as `core.MessageSent`
events. A message to everyone is public (spectators read it too); a message
to chosen seats is visible to the sender and those seats only (the feed shows
other viewers a redacted entry, so sequence numbers have no gaps). Messages
reach players through the events feed, the live stream and notifications."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction

from ..core_events import MessageSent
from ..models import Game
from .commit import append_core, new_event
from .errors import Conflict, ErrorCode, Forbidden, Invalid
from .lobby import get_game
from .present import Viewer, present_event
from .types import GameId, UserOrAnonymous


def _check_text(text: Any) -> str:
    if not isinstance(text, str) or not text.strip():
        raise Invalid(
            "text must be a non-empty string", code=ErrorCode.INVALID, fields={"text": ["required"]}
        )
    limit = settings.PRESS_MAX_CHARS
    if len(text) > limit:
        raise Invalid(
            f"messages are limited to {limit} characters",
            code=ErrorCode.MESSAGE_TOO_LONG,
            fields={"text": [f"at most {limit} characters"]},
        )
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate from "\ud800" in the JSON
        raise Invalid(
            "text must be valid Unicode", code=ErrorCode.INVALID, fields={"text": ["invalid Unicode"]}
        ) from exc
    if "\x00" in text:
        raise Invalid(
            "text must not contain NUL characters", code=ErrorCode.INVALID, fields={"text": ["NUL"]}
        )
    return text


def _check_to(to: Any, players: int) -> list[int] | None:
    if to is None:
        return None
    if (
        not isinstance(to, list)
        or not to
        or not all(isinstance(i, int) and not isinstance(i, bool) for i in to)
    ):
        raise Invalid(
            "to must be null (everyone) or a non-empty list of seat indices",
            code=ErrorCode.INVALID,
            fields={"to": ["list of seat indices or null"]},
        )
    bad = [i for i in to if not 0 <= i < players]
    if bad:
        raise Invalid(f"no such seats: {bad}", code=ErrorCode.INVALID_SEAT, fields={"to": ["unknown seat"]})
    return sorted(set(to))


def send(game_id: GameId, user: UserOrAnonymous, text: Any, to: Any) -> dict[str, Any]:
    """A seated player sends `text` to `to` (seats) or to everyone (None): a core.MessageSent event."""
    game = get_game(game_id, user)
    text = _check_text(text)
    recipients = _check_to(to, game.players)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        mine = [s for s in game.seats.all() if s.user_id == user.id]
        if not mine:
            raise Forbidden("only seated players can send messages", code=ErrorCode.NOT_SEATED)
        if game.status == Game.Status.OPEN:
            raise Conflict("the game has not started yet", code=ErrorCode.GAME_NOT_RUNNING)
        if game.status != Game.Status.RUNNING:
            raise Conflict(f"the game is {game.status}: no more messages", code=ErrorCode.GAME_OVER)
        seat = mine[0].index
        if recipients is not None:
            recipients = [i for i in recipients if i != seat]
            if not recipients:
                raise Invalid(
                    "send to at least one other seat (or to null: everyone)",
                    code=ErrorCode.INVALID,
                    fields={"to": ["only yourself"]},
                )
        visible = None if recipients is None else tuple(sorted({seat, *recipients}))
        rows = append_core(
            game,
            [
                new_event(
                    MessageSent(sender=seat, to=None if recipients is None else tuple(recipients), text=text),
                    visible_to=visible,
                    actor={"seat": seat, "user": user.username},
                )
            ],
        )
    return {
        "version": game.version,
        # present_event reads only the columns a Recorded shares with a StoredEvent
        "event": present_event(rows[0], Viewer(frozenset({seat}), user_id=user.id)),  # type: ignore[arg-type]
    }
