"""A game's engine state: its engine, its latest snapshot + the events after it, folded.

`rules_for` is the game's engine (games.rules.registry.engine_for: the rules
version it started under); `load_state` folds the stored rows after the newest
cached state or snapshot with `fold_rows`, the fold the verifier uses too
(games/rules/replay.py, takebacks included). States are immutable by contract
(evolve never mutates), so a small in-process LRU of (game, version) -> state is
safe and makes reads O(1) for hot games; snapshots are written every
SNAPSHOT_EVERY events under `snapshot_key`.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any, cast

from django.conf import settings

from events import store
from events.codec import upcast
from events.models import StoredEvent
from games.rules import registry
from games.rules.base import Event, Ruleset
from games.rules.replay import Fold, Step

from ..core_events import TakebackAccepted, is_core, read_row
from ..models import Game
from .errors import ErrorCode, ServiceError

Row = StoredEvent | store.Recorded  # a stored event, read back or just appended

_CACHE: OrderedDict[tuple[str, int], Any] = OrderedDict()
_CACHE_SIZE = 512
_LOCK = threading.Lock()


def rules_for(game: Game) -> Ruleset:
    """The engine that plays `game`: the rules it started under, so a game that
    spans a deploy keeps its rules (a ruleset keeps older versions reachable
    through `for_rules_version`; games.rules.registry.engine_for)."""
    rules = registry.get(game.ruleset)
    if rules is None:
        raise ServiceError(
            f"ruleset {game.ruleset!r} is not available on this server",
            code=ErrorCode.UNKNOWN_RULESET,
            status=409,
        )
    return registry.engine_for(rules, game.rules_version)


def snapshot_key(game: Game) -> int:
    """What a snapshot is stored under: the game's rules version and the shape of
    the engine's pickled state (`state_schema`, default 1), so a snapshot taken
    under another state shape is never loaded into new code (it is re-folded
    from the events instead). rules_version * 1000 + state_schema."""
    schema = int(getattr(registry.get(game.ruleset), "state_schema", 1))
    return int(game.rules_version) * 1000 + schema


def to_engine_event(row: Row, rules: Ruleset) -> Event:
    """A stored engine event as the engine reads it: upcast with the ruleset's upcasters."""
    version, payload = upcast(row.type, row.version, row.payload, registry.rules_upcasters(rules))
    vis = None if row.visible_to is None else tuple(row.visible_to)
    return Event(row.type, payload, version, vis)


def _cache_get(game_id: object, version: int) -> tuple[bool, Any]:
    with _LOCK:
        key = (str(game_id), version)
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return True, _CACHE[key]
    return False, None


def _cached_before(game_id: object, version: int) -> tuple[int, Any] | None:
    """(version, state) of the newest cached state of the game a little before
    `version`, or None.
    Another web process committed the versions since (each process has its own
    cache): folding those few events beats reading a snapshot and folding up to
    SNAPSHOT_EVERY of them."""
    key = str(game_id)
    with _LOCK:
        oldest = max(0, version - cast(int, settings.SENGOKU["SNAPSHOT_EVERY"]))
        for earlier in range(version - 1, oldest - 1, -1):
            if (key, earlier) in _CACHE:
                return earlier, _CACHE[(key, earlier)]
    return None


def is_cached(game_id: object, version: int) -> bool:
    """Whether the state of `game_id` at `version` is in this process's cache."""
    with _LOCK:
        return (str(game_id), version) in _CACHE


def cache_put(game_id: object, version: int, state: Any) -> None:
    """Remember the state of `game_id` at `version` (least recently used entries go first)."""
    with _LOCK:
        _CACHE[(str(game_id), version)] = state
        _CACHE.move_to_end((str(game_id), version))
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)


def clear_cache() -> None:
    """Forget every cached state (tests, restores)."""
    with _LOCK:
        _CACHE.clear()


def step_of(row: Row, rules: Ruleset) -> Step:
    """A stored row as the fold (games/rules/replay.py) reads it."""
    taken = read_row(row) if row.type == TakebackAccepted.TYPE else None
    if isinstance(taken, TakebackAccepted):
        return Step(row.seq, undoes_from=taken.undo_from_seq)
    return Step(
        row.seq,
        event=None if is_core(row.type) else to_engine_event(row, rules),
        starts_batch=bool(row.cause and "command" in row.cause),
    )


def fold_rows(rules: Ruleset, rows: Iterable[Row], state: Any = None, game: Game | None = None) -> Any:
    """Fold stored rows onto `state` (None: the engine's initial state). A
    `core.TakebackAccepted` (games/services/undo.py) puts the state back to what
    it was before the undone batch: remembered when that batch was folded here,
    else the state of `game` at the version before it (a snapshot sat inside it)."""
    fold = Fold.start(rules, state)
    for row in rows:
        needed = fold.step(step_of(row, rules))
        if needed is not None:
            if game is None:
                raise ValueError(f"a takeback of seq {needed + 1}, a batch not folded here, needs the game")
            fold.state = load_state(game, upto=needed)
    return fold.state


def load_state(game: Game, upto: int | None = None, use_snapshots: bool = True) -> Any:
    """Engine state of `game` at version `upto` (default: current)."""
    rules = rules_for(game)
    target = game.version if upto is None else upto
    hit, state = _cache_get(game.id, target)
    if hit:
        return state
    found = _cached_before(game.id, target) if use_snapshots else None
    base_version, state = found if found is not None else (0, None)
    if found is None and use_snapshots:
        snap = store.latest_snapshot(game.id, snapshot_key(game), upto=target)
        if snap is not None:
            base_version, state = snap
    rows = store.load(game.id, after=base_version, upto=target)
    state = fold_rows(rules, rows, state, game)
    cache_put(game.id, target, state)
    return state


def snapshot_due(old_version: int, new_version: int) -> bool:
    """Whether a commit from `old_version` to `new_version` crosses a multiple of SNAPSHOT_EVERY."""
    every = settings.SENGOKU["SNAPSHOT_EVERY"]
    return new_version // every > old_version // every


def maybe_snapshot(game: Game, old_version: int, new_version: int, state: Any) -> None:
    """Snapshot the state when this commit crossed a multiple of SNAPSHOT_EVERY."""
    if snapshot_due(old_version, new_version):
        store.save_snapshot(game.id, new_version, snapshot_key(game), state)


def stream_seed(game: Game) -> str:
    """What every random stream of the game is keyed by: its seed, mixed with the seats'
    entropy when any was given (games.rules.seeding; docs/audit.md, "Seat entropy")."""
    return game.mixed_seed or game.seed
