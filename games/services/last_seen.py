"""What an account last saw of a game ("since you last looked"): the version it last
opened the game's page or view at, or moved at. Read-side bookkeeping in one small
table (`LastSeen`), never an event: it is no part of the game. The game page reads the
previous version before recording the current one, so it can highlight what changed;
the inbox counts the events since (`unseen_events`)."""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from typing import Any

from django.db import connection
from django.utils import timezone

from ..models import Game, LastSeen

# What this process already wrote, (game, user) -> version: a view read again at the same
# version writes nothing (the hot read paths' query budgets, tests/api/test_request_costs.py).
# Safe to skip: the stored version never goes down, whichever process wrote it.
_WRITTEN: OrderedDict[tuple[uuid.UUID, int], int] = OrderedDict()
_WRITTEN_CAP = 20_000
_lock = threading.Lock()


def previous(game: Game, user: Any) -> int | None:
    """The version `user` last saw of `game`, or None if never (or signed out)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return LastSeen.objects.filter(game=game, user=user).values_list("version", flat=True).first()


def record(game_id: Any, user: Any, version: int) -> None:
    """`user` has seen the game `game_id` at `version`, in one statement; a
    signed-out visitor is not recorded. The stored version never goes down: a page
    loaded before a move must not undo what the move recorded."""
    if not getattr(user, "is_authenticated", False):
        return
    game_id = uuid.UUID(str(game_id))  # the URL's spelling of an id the caller has already found
    key = (game_id, int(user.pk))
    with _lock:
        if _WRITTEN.get(key, -1) >= version:
            return
    # One statement whatever is stored: insert, or raise a lower version (never lower one).
    # SQLite (3.24+) and PostgreSQL both speak ON CONFLICT ... DO UPDATE ... WHERE.
    table = LastSeen._meta.db_table
    game_value = Game._meta.pk.get_db_prep_value(game_id, connection)
    seen_at = LastSeen._meta.get_field("seen_at").get_db_prep_value(timezone.now(), connection)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (game_id, user_id, version, seen_at) VALUES (%s, %s, %s, %s) "
            f"ON CONFLICT (game_id, user_id) DO UPDATE SET version = excluded.version, "
            f"seen_at = excluded.seen_at WHERE {table}.version < excluded.version",
            [game_value, user.pk, version, seen_at],
        )
    with _lock:
        _WRITTEN[key] = max(version, _WRITTEN.get(key, -1))
        _WRITTEN.move_to_end(key)
        while len(_WRITTEN) > _WRITTEN_CAP:
            _WRITTEN.popitem(last=False)
