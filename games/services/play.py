"""Playing: one path for every command, whoever sends it (a player through the
API, a bot, a missed deadline's default). `apply` is the only writer of game
events after start."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from django.db import transaction
from django.utils import timezone

from events import store
from events.codec import platform_salt
from games.rules.base import BadCommand, IllegalCommand, canonical_json, rng_factory

from .. import observe
from ..models import CommandReceipt, Game, Seat
from . import hooks
from .errors import Conflict, EngineError, ErrorCode, Forbidden, Invalid, ServiceError, Unprocessable
from .lobby import get_game
from .present import Viewer, present_event
from .state import fold_rows, load_state, maybe_snapshot, rules_for

log = logging.getLogger(__name__)


def _body_hash(command: Any, expected_version: Any) -> str:
    return hashlib.sha256(canonical_json({"c": command, "v": expected_version}).encode()).hexdigest()


def submit(game_id, user, command: Any, expected_version: Any = None, idempotency_key: str | None = None
           ) -> tuple[int, dict]:
    """A player's command. Returns (HTTP status, body) — 201 {version, events}."""
    game = get_game(game_id, user)
    if expected_version is not None and (not isinstance(expected_version, int) or isinstance(expected_version, bool)):
        raise Invalid("expected_version must be an integer", code=ErrorCode.INVALID, fields={"expected_version": ["integer"]})
    if not isinstance(command, dict) or not isinstance(command.get("type"), str):
        raise Invalid("command must be an object with a string `type`", code=ErrorCode.INVALID_COMMAND,
                      fields={"command": ["object with a type"]})
    if idempotency_key is not None and not 1 <= len(idempotency_key) <= 200:
        raise Invalid("Idempotency-Key must be 1 to 200 characters", code=ErrorCode.INVALID_IDEMPOTENCY_KEY)
    body_hash = _body_hash(command, expected_version)
    if idempotency_key:
        found = _receipt(game, user, idempotency_key, body_hash)
        if found is not None:
            return found
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if idempotency_key:  # a concurrent twin may have committed while we waited for the lock
            found = _receipt(game, user, idempotency_key, body_hash)
            if found is not None:
                return found
        seats = list(game.seats.all())
        mine = [s for s in seats if s.user_id == user.id]
        if not mine:
            raise Forbidden("you have no seat in this game", code=ErrorCode.NOT_SEATED)
        seat = mine[0]
        rows = apply(game, seat, command, expected_version, actor={"seat": seat.index, "user": user.username})
        if seat.zombie:  # pbem: the player is back; their own command reclaims the seat from the bot
            from .pause import reclaim_locked

            reclaim_locked(game, seat, user)
        body = {"version": game.version,
                "events": [present_event(r, Viewer(frozenset({seat.index}), game.status != "running"))
                           for r in rows]}
        if idempotency_key:
            CommandReceipt.objects.create(game=game, user=user, key=idempotency_key, body_hash=body_hash,
                                          status_code=201, response=body)
    return 201, body


def _receipt(game: Game, user, key: str, body_hash: str) -> tuple[int, dict] | None:
    r = CommandReceipt.objects.filter(game=game, user=user, key=key).first()
    if r is None:
        return None
    if r.body_hash != body_hash:
        raise Unprocessable("this Idempotency-Key was used with a different request", code=ErrorCode.IDEMPOTENCY_KEY_REUSED)
    return r.status_code, r.response


@observe.command  # metrics + log context (games/observe.py)
def apply(game: Game, seat: Seat, command: Mapping[str, Any], expected_version: int | None,
          actor: dict, cause_extra: dict | None = None) -> list:
    """Decide and append, inside the caller's transaction with `game` locked.
    Raises ServiceError subclasses; nothing is written when it raises."""
    if game.status != Game.Status.RUNNING:
        raise Conflict(f"the game is {game.status}", code=ErrorCode.GAME_NOT_RUNNING)
    if game.paused:  # pbem: a paused game's clocks and moves both wait (services/pause.py)
        raise Conflict("the game is paused; vote to resume it first", code=ErrorCode.GAME_PAUSED)
    if expected_version is not None and expected_version != game.version:
        raise Conflict(f"the game is at version {game.version}, not {expected_version}",
                       code=ErrorCode.VERSION_CONFLICT, current_version=game.version)
    rules = rules_for(game)
    state = load_state(game)
    first_seq = game.version + 1
    try:
        new = rules.decide(state, seat.index, command, rng_factory(game.seed, first_seq))
    except BadCommand as exc:  # the engine's code, carried through (400)
        raise Invalid(exc.reason, code=exc.code) from exc
    except IllegalCommand as exc:  # the engine's code, carried through (422)
        raise Unprocessable(exc.reason, code=exc.code) from exc
    except Exception as exc:  # an engine bug: its own code (not bad input), logged, nothing written
        log.exception("engine_error: game %s (%s) seat %s command type %r: decide raised %s",
                      game.id, game.ruleset, seat.index, command.get("type"), type(exc).__name__)
        raise EngineError(f"the rules engine failed on this command ({type(exc).__name__}); "
                          f"nothing was written and the failure was logged") from exc
    if not new:
        raise Unprocessable("this command changes nothing", code=ErrorCode.ILLEGAL_COMMAND)
    for e in new:
        if not e.type.startswith("core."):
            state = rules.evolve(state, e)
    cause = {"seat": seat.index, "command": dict(command), **(cause_extra or {})}
    pending = [store.NewEvent(e.type, dict(e.payload), e.version, e.visible_to,
                              actor=actor if i == 0 else None, cause=cause if i == 0 else None)
               for i, e in enumerate(new)]
    outcome = rules.outcome(state)
    if outcome is not None:
        out = {"winners": list(outcome.winners), "scores": {str(k): v for k, v in outcome.scores.items()},
               "reason": outcome.reason}
        pending.append(store.NewEvent("core.GameFinished", {"outcome": out}))
        pending.append(store.NewEvent("core.SeedRevealed", {"seed": game.seed}))
    try:
        rows = store.append(game.id, game.version, pending, prev_hash=game.chain_head or None)
    except store.VersionConflict as exc:
        raise Conflict(f"the game moved on to version {exc.current}", code=ErrorCode.VERSION_CONFLICT,
                       current_version=exc.current) from exc
    except store.UnsaltedPrivateEvent as exc:  # the engine broke the salt rule (docs/audit.md)
        log.error("engine_error: game %s (%s) seat %s command type %r: %s",
                  game.id, game.ruleset, seat.index, command.get("type"), exc)
        raise EngineError(f"the rules engine produced an unsalted private event ({exc.type}); "
                          f"nothing was written and the failure was logged") from exc
    old_version = game.version
    game.version, game.chain_head = rows[-1].seq, rows[-1].hash
    fields = ["version", "chain_head"]
    if outcome is not None:
        game.status, game.outcome, game.finished_at = Game.Status.FINISHED, out, timezone.now()
        fields += ["status", "outcome", "finished_at"]
    game.save(update_fields=fields)
    maybe_snapshot(game, old_version, game.version, state)
    hooks.after_commit(game, state, rows)
    return rows


def append_core(game: Game, events: list[store.NewEvent]) -> list:
    """Append platform events (messages, misses, zombies, takebacks…) with `game`
    locked. Most leave the engine state as it was; a `core.TakebackAccepted`
    folds it back (state.fold_rows), so the state is folded, not assumed.
    A private one (press to some seats, a secret missed deadline) is salted here
    with the game's Rng for its seq (events.codec.platform_salt), as the store
    requires of every private event."""
    old = game.version
    events = [_salted(game, old + i, e) for i, e in enumerate(events, start=1)]
    try:
        rows = store.append(game.id, old, events, prev_hash=game.chain_head or None)
    except store.VersionConflict as exc:
        raise Conflict(f"the game moved on to version {exc.current}", code=ErrorCode.VERSION_CONFLICT,
                       current_version=exc.current) from exc
    # only committed versions are loaded (and cached): `old` and earlier
    state = fold_rows(rules_for(game), rows, load_state(game, upto=old), lambda v: load_state(game, upto=v))
    game.version, game.chain_head = rows[-1].seq, rows[-1].hash
    game.save(update_fields=["version", "chain_head"])
    maybe_snapshot(game, old, game.version, state)
    hooks.after_commit(game, state, rows)
    return rows


def _salted(game: Game, seq: int, e: store.NewEvent) -> store.NewEvent:
    if e.visible_to is None or "salt" in e.payload:
        return e
    return replace(e, payload={**e.payload, "salt": platform_salt(game.seed, seq)})


__all__ = ["submit", "apply", "append_core", "ServiceError"]
