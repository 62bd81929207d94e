"""What an account last saw of a game ("since you last looked"): the version it last
opened the game's page or view at, or moved at. Read-side bookkeeping in one small
table (`LastSeen`), never an event: it is no part of the game. The game page reads the
previous version before recording the current one, so it can highlight what changed;
the inbox counts the events since (`unseen_events`)."""

from __future__ import annotations

import uuid
from typing import Any

from django.utils import timezone

from ..models import Game, LastSeen


def previous(game: Game, user: Any) -> int | None:
    """The version `user` last saw of `game`, or None if never (or signed out)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return LastSeen.objects.filter(game=game, user=user).values_list("version", flat=True).first()


def record(game_id: Any, user: Any, version: int) -> None:
    """`user` has seen the game `game_id` at `version`, in one or two statements; a
    signed-out visitor is not recorded. The stored version never goes down: a page
    loaded before a move must not undo what the move recorded."""
    if not getattr(user, "is_authenticated", False):
        return
    game_id = uuid.UUID(str(game_id))  # the URL's spelling of an id the caller has already found
    updated = LastSeen.objects.filter(game_id=game_id, user=user, version__lte=version).update(
        version=version, seen_at=timezone.now()
    )
    if not updated:  # no row yet (or a newer one: then the insert is the conflict it ignores)
        LastSeen.objects.bulk_create(
            [LastSeen(game_id=game_id, user=user, version=version)], ignore_conflicts=True
        )
