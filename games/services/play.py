"""Playing: one path for every command, whoever sends it (a player through the
API, a bot, a missed deadline's default). `apply` is the only writer of game
events after start, in four steps (the shape of Zulip's actions):

    check   guards: running, not paused, the expected version
    decide  the engine's `decide`, its errors mapped to service errors
    stamp   who (actor) and why (cause) on the first event; the outcome events
    commit  append, game row, snapshot, hooks (services/commit.py, shared
            with `append_core`)

`submit` wraps it for a player's request: idempotency, the seat, reclaiming a
zombie seat. It takes an already validated request (the API's serializer) and
returns a domain value; the view chooses the HTTP status."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from events import store
from games.rules.base import BadCommand, IllegalCommand, Ruleset, canonical_json, rng_factory

from .. import observe
from ..core_events import GameFinished, Result, SeatReclaimed, SeedRevealed, is_core
from ..models import CommandReceipt, Game, Seat
from . import prepared
from .commit import append_core, commit, new_event, row_insert
from .errors import Conflict, EngineError, ErrorCode, Forbidden, Invalid, ServiceError, Unprocessable
from .lobby import get_game, lock_game
from .present import Viewer, present_event
from .state import load_state, rules_for

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Submitted:
    """A player's accepted command: the game's new version and the events it
    produced as the player sees them."""

    version: int
    events: list[dict[str, Any]]
    replayed: bool = False  # an Idempotency-Key retry: the first answer, nothing appended


def _body_hash(command: Any, expected_version: Any) -> str:
    return hashlib.sha256(canonical_json({"c": command, "v": expected_version}).encode()).hexdigest()


def submit(
    game_id,
    user,
    command: Mapping[str, Any],
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> Submitted:
    """A player's command (validated by the caller: an object with a string
    `type`, an integer or no expected version, a key of 1-200 characters)."""
    body_hash = _body_hash(command, expected_version)
    if idempotency_key:
        found = _receipt(get_game(game_id, user), user, idempotency_key, body_hash)
        if found is not None:
            return found
    with transaction.atomic():
        # one round trip: the game under the lock, and its seats (read after the lock)
        game = lock_game(game_id, user, seats="plain")
        if idempotency_key:  # a concurrent twin may have committed while we waited for the lock
            found = _receipt(game, user, idempotency_key, body_hash)
            if found is not None:
                return found
        seat = next((s for s in prepared.seats(game) if s.user_id == user.id), None)
        if seat is None:
            raise Forbidden("you have no seat in this game", code=ErrorCode.NOT_SEATED)
        # Nothing is written after the events unless the seat is reclaimed: then the
        # COMMIT may ride with the INSERT (one round trip). A receipt rides there too.
        last_write = not seat.zombie
        actor = {"seat": seat.index, "user": user.username}
        answer: list[Submitted] = []

        def keep_receipt(rows: list[Any]) -> list[Any]:
            """The Idempotency-Key's receipt: its INSERT goes in the events' pipeline."""
            answer.append(_answer(game, seat, rows))
            receipt = CommandReceipt(
                game=game,
                user=user,
                key=idempotency_key,
                body_hash=body_hash,
                status_code=201,
                response={"version": answer[0].version, "events": answer[0].events},
            )
            return [row_insert(receipt)]

        more = keep_receipt if idempotency_key else None
        rows = apply(game, seat, command, expected_version, actor=actor, last_write=last_write, more=more)
        if seat.zombie:  # pbem: the player is back; their own command reclaims the seat from the bot
            reclaim_locked(game, seat, user)
    return answer[0] if answer else _answer(game, seat, rows)


def _answer(game: Game, seat: Seat, rows: list[Any]) -> Submitted:
    """What the player is told: the new version and the events as their seat sees them."""
    viewer = Viewer(frozenset({seat.index}), game.status != "running")
    return Submitted(game.version, [present_event(r, viewer) for r in rows])


def _receipt(game: Game, user, key: str, body_hash: str) -> Submitted | None:
    r = CommandReceipt.objects.filter(game=game, user=user, key=key).first()
    if r is None:
        return None
    if r.body_hash != body_hash:
        raise Unprocessable(
            "this Idempotency-Key was used with a different request", code=ErrorCode.IDEMPOTENCY_KEY_REUSED
        )
    return Submitted(r.response["version"], r.response["events"], replayed=True)


def reclaim_locked(game: Game, seat: Seat, user) -> None:
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


@observe.command  # metrics + log context (games/observe.py)
def apply(
    game: Game,
    seat: Seat,
    command: Mapping[str, Any],
    expected_version: int | None,
    actor: dict[str, Any],
    cause_extra: dict[str, Any] | None = None,
    last_write: bool = False,
    more: Callable[[list[Any]], list[Any]] | None = None,
) -> list[Any]:
    """Decide and append, inside the caller's transaction with `game` locked.
    Raises ServiceError subclasses; nothing is written when it raises.
    `last_write`: the caller writes nothing after it; `more`: the caller's
    statements for the same pipeline (commit.commit)."""
    check(game, expected_version)
    rules = rules_for(game)
    new, state = decide(game, rules, seat.index, command)
    events, outcome = stamp(game, rules, state, seat.index, command, new, actor, cause_extra)
    if outcome is None:
        return commit(game, events, lambda rows: state, last_write, more)
    return commit(
        game,
        events,
        lambda rows: state,
        last_write,
        more,
        status=Game.Status.FINISHED,
        outcome=outcome,
        finished_at=timezone.now(),
    )


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


def decide(game: Game, rules: Ruleset, seat: int, command: Mapping[str, Any]) -> tuple[list[Any], Any]:
    """(the engine's new events, the state after them)."""
    state = load_state(game)
    try:
        new = rules.decide(state, seat, command, rng_factory(game.seed, game.version + 1))
    except BadCommand as exc:  # the engine's code, carried through (400)
        raise Invalid(exc.reason, code=exc.code) from exc
    except IllegalCommand as exc:  # the engine's code, carried through (422)
        raise Unprocessable(exc.reason, code=exc.code) from exc
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
    if not new:
        raise Unprocessable("this command changes nothing", code=ErrorCode.ILLEGAL_COMMAND)
    for e in new:
        if not is_core(e.type):
            state = rules.evolve(state, e)
    return new, state


def stamp(
    game: Game,
    rules: Ruleset,
    state: Any,
    seat: int,
    command: Mapping[str, Any],
    new: list[Any],
    actor: dict[str, Any],
    cause_extra: dict[str, Any] | None,
) -> tuple[list[store.NewEvent], dict[str, Any] | None]:
    """The events to store: actor and cause on the first, and when the game is
    over core.GameFinished + core.SeedRevealed. Returns (events, outcome)."""
    cause = {"seat": seat, "command": dict(command), **(cause_extra or {})}
    events = [
        store.NewEvent(
            e.type,
            dict(e.payload),
            e.version,
            e.visible_to,
            actor=actor if i == 0 else None,
            cause=cause if i == 0 else None,
        )
        for i, e in enumerate(new)
    ]
    outcome = rules.outcome(state)
    if outcome is None:
        return events, None
    finished = GameFinished(outcome=Result.of(outcome))
    events.append(new_event(finished))
    events.append(new_event(SeedRevealed(seed=game.seed)))
    return events, finished.outcome.as_json()


__all__ = ["submit", "apply", "append_core", "reclaim_locked", "Submitted", "ServiceError"]
