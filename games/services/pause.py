"""Pausing a game (a vote of every seated human, or the creator alone) and
reclaiming a zombie seat.

While a game is paused its deadlines are frozen with the time they had left,
commands are refused (409 `game_paused`), bots wait; press still works. Both
transitions are platform events (`core.GamePaused`, `core.GameResumed`), as
are `core.SeatReclaimed` and (from deadlines) `core.SeatZombified`.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from ..core_events import GamePaused, GameResumed
from ..models import Game, PauseVote, Seat
from . import deadlines, play
from .commit import new_event
from .errors import Conflict, ErrorCode, Forbidden, NotFound
from .lobby import get_game
from .types import GameId, UserOrAnonymous

PAUSE, RESUME = PauseVote.Action.PAUSE, PauseVote.Action.RESUME


def vote(game_id: GameId, user: User, action: str) -> dict[str, Any]:
    """Record `user`'s vote to pause or resume; switch when the creator votes
    or every seated human has. Returns the vote state."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=get_game(game_id, user).pk)
        seats = list(game.seats.select_related("user").all())
        humans = {s.user.id: s.user for s in seats if s.user is not None and not s.bot}
        if user.id not in humans:
            raise Forbidden("only seated players can vote to pause or resume", code=ErrorCode.NOT_SEATED)
        if game.status != Game.Status.RUNNING:
            raise Conflict(f"the game is {game.status}", code=ErrorCode.GAME_NOT_RUNNING)
        if game.paused == (action == PAUSE):
            raise Conflict(
                "the game is already paused" if game.paused else "the game is not paused",
                code=ErrorCode.ALREADY_PAUSED if game.paused else ErrorCode.NOT_PAUSED,
            )
        PauseVote.objects.get_or_create(game=game, user=user, action=action)
        voters = set(PauseVote.objects.filter(game=game, action=action).values_list("user_id", flat=True))
        voters &= set(humans)
        switched = user.id == game.creator_id or voters >= set(humans)
        if switched:
            _switch(game, action, [humans[u].username for u in sorted(voters)], user)
            voters = set()
        return state(game, humans, action, voters, switched)


def _switch(game: Game, action: str, by: list[str], user: UserOrAnonymous) -> None:
    now = timezone.now()
    game.paused = action == PAUSE
    game.save(update_fields=["paused"])
    PauseVote.objects.filter(game=game).delete()
    deadlines.refresh_freeze(game, now)
    kind = GamePaused if game.paused else GameResumed
    switched = kind(by=tuple(by), creator=user.id == game.creator_id)
    play.append_core(game, [new_event(switched, actor={"user": user.username})])


def state(
    game: Game, humans: dict[int, User], action: str, voters: set[int], switched: bool
) -> dict[str, Any]:
    """The pause vote as the API shows it: who voted, who is still to, and whether it switched."""
    return {
        "paused": game.paused,
        "switched": switched,
        "action": action,
        "version": game.version,
        "votes": sorted(humans[u].username for u in voters),
        "waiting_for": sorted(human.username for uid, human in humans.items() if uid not in voters)
        if not switched
        else [],
    }


def reclaim(game_id: GameId, user: UserOrAnonymous, index: int) -> Game:
    """The seat's player takes it back from the bot (POST .../seats/{i}/reclaim)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=get_game(game_id, user).pk)
        seat = Seat.objects.select_for_update().filter(game=game, index=index).first()
        if seat is None:
            raise NotFound("no such seat", code=ErrorCode.SEAT_NOT_FOUND)
        if seat.user_id != user.id:
            raise Forbidden("this is not your seat", code=ErrorCode.NOT_YOUR_SEAT)
        if not seat.zombie:
            raise Conflict("this seat is not played by a bot", code=ErrorCode.NOT_ZOMBIE)
        if game.status != Game.Status.RUNNING:
            raise Conflict(f"the game is {game.status}", code=ErrorCode.GAME_NOT_RUNNING)
        play.reclaim_locked(game, seat, user)
    return game
