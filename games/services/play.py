"""Playing: one path for every command, whoever sends it (a player through the
API, a bot, a missed deadline's default). `apply` is the only writer of game
events after start, in four steps (the shape of Zulip's actions):

Why, with the measurements and history: docs/modules.md, `games/services/play.py`.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from events import store
from games.rules.base import BadCommand, IllegalCommand, Ruleset, canonical_json, rng_factory
from games.rules.kit import Decided

from ..core_events import GameFinished, Result, SeatReclaimed, SeedRevealed
from ..models import CommandReceipt, Game, Seat
from . import observe, prepared, signing
from .commit import append_core, batch_of, commit, new_event
from .errors import Conflict, EngineError, ErrorCode, Forbidden, Invalid, ServiceError, Unprocessable
from .lobby import get_game, lock_game
from .present import Viewer, present_event
from .state import load_state, rules_for, stream_seed
from .types import GameId, UserOrAnonymous

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Submitted:
    """A player's accepted command: the game's new version and the events it
    produced as the player sees them."""

    version: int
    events: list[dict[str, Any]]
    replayed: bool = False  # an Idempotency-Key retry: the first answer, nothing appended
    checkpoint: dict[str, Any] | None = None  # signed, at the command's last event (a receipt)


def _body_hash(command: Any, expected_version: Any) -> str:
    return hashlib.sha256(canonical_json({"c": command, "v": expected_version}).encode()).hexdigest()


@dataclass(frozen=True)
class Receipt:
    """An Idempotency-Key's receipt, written in the command's batch: a twin
    request finds it and gets the first answer again."""

    user: Any
    key: str
    body_hash: str


def submit(
    game_id: GameId,
    user: UserOrAnonymous,
    command: Mapping[str, Any],
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> Submitted:
    """A player's command (validated by the caller: an object with a string
    `type`, an integer or no expected version, a key of 1-200 characters)."""
    body_hash = _body_hash(command, expected_version)
    receipt = Receipt(user, idempotency_key, body_hash) if idempotency_key else None
    if receipt is not None:
        found = _receipt(get_game(game_id, user), receipt)
        if found is not None:
            return found
    with transaction.atomic():
        # one round trip: the game under the lock, and its seats (read after the lock)
        game = lock_game(game_id, user, seats="plain")
        if receipt is not None:  # a concurrent twin may have committed while we waited for the lock
            found = _receipt(game, receipt)
            if found is not None:
                return found
        seat = next((held for held in prepared.seats(game) if held.user_id == user.id), None)
        if seat is None:
            raise Forbidden("you have no seat in this game", code=ErrorCode.NOT_SEATED)
        actor = {"seat": seat.index, "user": user.username}
        # Nothing is written after the batch unless the seat is reclaimed: then
        # the COMMIT may ride with it (one round trip).
        rows = apply(
            game, seat, command, expected_version, actor, receipt=receipt, last_write=not seat.zombie
        )
        answered = game.version  # the command's version: what the receipt holds
        if seat.zombie:  # pbem: the player is back; their own command reclaims the seat from the bot
            reclaim_locked(game, seat, user)
    return _answer(game, seat, rows, answered if receipt is not None else game.version)


def _answer(game: Game, seat: Seat, rows: list[store.Recorded], version: int) -> Submitted:
    """What the player is told: the new version and the events as their seat sees them."""
    viewer = Viewer(frozenset({seat.index}), game.status != Game.Status.RUNNING)
    # present_event reads only the columns a Recorded shares with a StoredEvent
    events = [present_event(row, viewer) for row in rows]  # type: ignore[arg-type]
    return Submitted(version, events, checkpoint=signing.of_row(rows[-1]) if rows else None)


def _receipt(game: Game, receipt: Receipt) -> Submitted | None:
    """The first answer to this key, or None; a key reused for another request is refused."""
    found = CommandReceipt.objects.filter(game=game, user=receipt.user, key=receipt.key).first()
    if found is None:
        return None
    if found.body_hash != receipt.body_hash:
        raise Unprocessable(
            "this Idempotency-Key was used with a different request", code=ErrorCode.IDEMPOTENCY_KEY_REUSED
        )
    events = found.response["events"]
    last = store.load(game.id, after=events[-1]["seq"] - 1, upto=events[-1]["seq"]) if events else []
    return Submitted(
        found.response["version"],
        events,
        replayed=True,
        checkpoint=signing.of_row(last[0]) if last else None,
    )


def reclaim_locked(game: Game, seat: Seat, user: UserOrAnonymous) -> None:
    """Seat back to its human (game locked): a fresh budget of excused misses."""
    seat.zombie, seat.misses = False, 0
    seat.save(update_fields=["zombie", "misses"])
    append_core(
        game,
        [
            new_event(
                SeatReclaimed(seat=seat.index, user=user.username),
                actor={"seat": seat.index, "user": user.username},
            )
        ],
    )


# ---------------------------------------------------------------------------------------------
# apply = check, decide, stamp, commit


def apply(
    game: Game,
    seat: Seat,
    command: Mapping[str, Any],
    expected_version: int | None,
    actor: dict[str, Any],
    cause_extra: dict[str, Any] | None = None,
    receipt: Receipt | None = None,
    last_write: bool = False,
) -> list[store.Recorded]:
    """Decide and write, inside the caller's transaction with `game` locked.
    Raises ServiceError subclasses; nothing is written when it raises.
    `receipt`: written in the same batch; `last_write`: the caller writes
    nothing after it (the COMMIT may ride with the batch)."""
    with observe.command(game, seat, command):  # metrics + log context
        check(game, expected_version)
        rules = rules_for(game)
        decided = decide(game, rules, seat.index, command)
        batch, ended = stamp(game, rules, decided, seat.index, command, actor, cause_extra)
        if receipt is not None:
            batch.inserts.append(_receipt_row(game, seat, batch, receipt, over=bool(ended)))
        rows = commit(game, batch, decided.state, last_write, **ended)
        observe.accepted(game, rows)
        return rows


def check(game: Game, expected_version: int | None) -> None:
    if game.status != Game.Status.RUNNING:
        raise Conflict(f"the game is {game.status}", code=ErrorCode.GAME_NOT_RUNNING)
    if game.paused:  # pbem: a paused game's clocks and moves both wait (services/pause.py)
        raise Conflict("the game is paused; vote to resume it first", code=ErrorCode.GAME_PAUSED)
    if expected_version is not None and expected_version != game.version:
        raise Conflict(
            f"the game is at version {game.version}, not {expected_version}",
            code=ErrorCode.VERSION_CONFLICT,
            current_version=game.version,
        )


def decide(game: Game, rules: Ruleset, seat: int, command: Mapping[str, Any]) -> Decided[Any]:
    """The engine's events and the state after them, folded once by the engine."""
    try:
        decided: Decided[Any] = rules.decide_folded(
            load_state(game), seat, command, rng_factory(stream_seed(game), game.version + 1)
        )
    except BadCommand as exc:  # the engine's code, carried through (400)
        # the engine's own code string: ServiceError turns it into an ErrorCode
        raise Invalid(exc.reason, code=exc.code) from exc  # type: ignore[arg-type]
    except IllegalCommand as exc:  # the engine's code, carried through (422)
        raise Unprocessable(exc.reason, code=exc.code) from exc  # type: ignore[arg-type]  # as above
    except Exception as exc:  # an engine bug: its own code (not bad input), logged, nothing written
        log.exception(
            "engine_error: game %s (%s) seat %s command type %r: decide raised %s",
            game.id,
            game.ruleset,
            seat,
            command.get("type"),
            type(exc).__name__,
        )
        raise EngineError(
            f"the rules engine failed on this command ({type(exc).__name__}); "
            f"nothing was written and the failure was logged"
        ) from exc
    if not decided.events:
        raise Unprocessable("this command changes nothing", code=ErrorCode.ILLEGAL_COMMAND)
    return decided


def stamp(
    game: Game,
    rules: Ruleset,
    decided: Decided[Any],
    seat: int,
    command: Mapping[str, Any],
    actor: dict[str, Any],
    cause_extra: dict[str, Any] | None,
) -> tuple[store.Batch, dict[str, Any]]:
    """The events to store, hashed into the store's batch: actor and cause on
    the first, and when the game is over core.GameFinished + core.SeedRevealed.
    Returns (the batch, the game row's further changes: none, or the end)."""
    cause = {"seat": seat, "command": dict(command), **(cause_extra or {})}
    events = [
        store.NewEvent(
            event.type,
            dict(event.payload),
            event.version,
            event.visible_to,
            actor=actor if index == 0 else None,
            cause=cause if index == 0 else None,
        )
        for index, event in enumerate(decided.events)
    ]
    outcome = rules.outcome(decided.state)
    if outcome is None:
        return batch_of(game, events), {}
    finished = GameFinished(outcome=Result.of(outcome))
    events.append(new_event(finished))
    events.append(new_event(SeedRevealed(seed=game.seed)))
    ended = {
        "status": Game.Status.FINISHED,
        "outcome": finished.outcome.as_json(),
        "finished_at": timezone.now(),
    }
    return batch_of(game, events), ended


def _receipt_row(game: Game, seat: Seat, batch: store.Batch, receipt: Receipt, over: bool) -> CommandReceipt:
    """The receipt's row: the answer the player gets (`_answer`: the version
    after the batch, the events as the seat sees them)."""
    viewer = Viewer(frozenset({seat.index}), over)
    # present_event reads only the columns a Recorded shares with a StoredEvent
    events = [present_event(row, viewer) for row in batch.rows]  # type: ignore[arg-type]
    return CommandReceipt(
        game=game,
        user=receipt.user,
        key=receipt.key,
        body_hash=receipt.body_hash,
        status_code=201,
        response={"version": batch.version, "events": events},
    )


__all__ = ["submit", "apply", "append_core", "reclaim_locked", "Submitted", "ServiceError"]
