"""The hot read queries of every request (the game, its seats), compiled once
(events/prepared.py says how and why)."""

from __future__ import annotations

import uuid

from events.prepared import Prepared

from ..models import Game, Seat

_game = Prepared(lambda game_id: Game.objects.filter(id=game_id))
_game_locked = Prepared(lambda game_id: Game.objects.select_for_update().filter(id=game_id))
_seats = Prepared(lambda game_id: Seat.objects.filter(game_id=game_id))
_seats_users = Prepared(lambda game_id: Seat.objects.filter(game_id=game_id).select_related("user__profile"))


def game(game_id: uuid.UUID, lock: bool = False) -> Game | None:
    """The game row (locked for the transaction with `lock`), or None."""
    found = (_game_locked if lock else _game)(game_id)
    return found[0] if found else None


def seats(game: Game, with_users: bool = False) -> list[Seat]:
    """The game's seats in index order (with their users and profiles)."""
    found = (_seats_users if with_users else _seats)(game.id)
    for seat in found:
        seat.game = game  # the caller's instance: no query to reach it back
    return found
