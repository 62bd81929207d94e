"""The commit step every write after start shares: append the events (expected
version = the locked game row's), move the row's version and chain head,
snapshot on the boundary, and register the after-commit hooks.

`play.apply` (a decided command) and `append_core` (platform events: messages,
misses, pauses, takebacks…) both end here, so the row, the snapshot and the
background work can never drift apart between the two."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from events import store

from ..models import Game
from . import hooks
from .errors import Conflict
from .state import fold_rows, load_state, maybe_snapshot, rules_for


def commit(game: Game, events: list[store.NewEvent], fold: Callable[[list], Any], **changes) -> list:
    """Append `events` after `game.version` (game locked, inside the caller's
    transaction). `fold(rows)` gives the engine state after them; `changes`
    are further fields of the game row saved with the new version."""
    old = game.version
    try:
        rows = store.append(game.id, old, events, prev_hash=game.chain_head or None)
    except store.VersionConflict as exc:
        raise Conflict(f"the game moved on to version {exc.current}", code="version_conflict",
                       current_version=exc.current) from exc
    state = fold(rows)
    game.version, game.chain_head = rows[-1].seq, rows[-1].hash
    for name, value in changes.items():
        setattr(game, name, value)
    fields = ["version", "chain_head", *changes]
    queue = hooks.claim_work(game)
    if queue:
        fields.append("work_queued_at")
    game.save(update_fields=fields)
    maybe_snapshot(game, old, game.version, state)
    hooks.after_commit(game, state, rows, queue)
    return rows


def append_core(game: Game, events: list[store.NewEvent]) -> list:
    """Append platform events with `game` locked. Most leave the engine state as
    it was; a `core.TakebackAccepted` folds it back (state.fold_rows), so the
    state is folded, not assumed."""
    old = game.version
    # only committed versions are loaded (and cached): `old` and earlier
    return commit(game, events, lambda rows: fold_rows(rules_for(game), rows, load_state(game, upto=old),
                                                       lambda v: load_state(game, upto=v)))
