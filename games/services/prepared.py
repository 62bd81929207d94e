"""The hot read queries of every request (the game, its seats), compiled once
(events/prepared.py says how and why)."""

from __future__ import annotations

import uuid

from events.prepared import Prepared, together

from ..models import Game, Seat

_game = Prepared(lambda game_id: Game.objects.filter(id=game_id))
_game_locked = Prepared(lambda game_id: Game.objects.select_for_update().filter(id=game_id))
_seats = Prepared(lambda game_id: Seat.objects.filter(game_id=game_id))
_seats_users = Prepared(lambda game_id: Seat.objects.filter(game_id=game_id).select_related("user__profile"))


def game(game_id: uuid.UUID, lock: bool = False, seats: str | None = None) -> Game | None:
    """The game row (locked for the transaction with `lock`), or None.

    `seats` ("plain", or "users" with their users and profiles) reads the game's
    seats in the same round trip, and `seats(game)` then answers from them: for
    requests that read the seats and do not change them (a request that adds or
    edits seats must not ask, or it would see the seats as they were)."""
    if seats is None:
        found = (_game_locked if lock else _game)(game_id)
        return found[0] if found else None
    found, rows = together(
        (_game_locked if lock else _game, (game_id,)),
        (_seats_users if seats == "users" else _seats, (game_id,)),
    )
    if not found:
        return None
    loaded: Game = found[0]
    for seat in rows:
        seat.game = loaded
    # an attribute of this instance only, read by seats() below (and lobby.is_seated)
    setattr(loaded, "_read_seats", (seats == "users", rows))  # noqa: B010
    return loaded


def seats(game: Game, with_users: bool = False) -> list[Seat]:
    """The game's seats in index order (with their users and profiles)."""
    read = getattr(game, "_read_seats", None)  # read with the game (game(..., seats=...))
    if read is not None and (read[0] or not with_users):
        return list(read[1])
    found = (_seats_users if with_users else _seats)(game.id)
    for seat in found:
        seat.game = game  # the caller's instance: no query to reach it back
    return found
