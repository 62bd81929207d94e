"""Creating, joining and starting games."""

from __future__ import annotations

import hmac
import logging
import secrets
import uuid
from typing import Any

import jsonschema
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from events import store
from games import bots
from games.rules import registry, seeding
from games.rules.base import RulesError, Ruleset, rng_factory, sha256_hex

from ..core_events import GameStarted
from ..models import Game, Seat
from . import prepared
from .commit import batch_of, commit, new_event
from .errors import Conflict, EngineError, ErrorCode, Forbidden, Invalid, NotFound, ServiceError
from .state import fold_rows, stream_seed
from .types import GameId, Reader

log = logging.getLogger(__name__)

BOT_KINDS = bots.NAMES
MIN_SECONDS, MAX_SECONDS = 5, 30 * 24 * 3600


def options_with_defaults(schema: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """Validate options against the ruleset's JSON Schema and fill top-level defaults."""
    if not isinstance(options, dict):
        raise Invalid("options must be a JSON object", code=ErrorCode.INVALID_OPTIONS)
    full = dict(options)
    for name, prop in (schema.get("properties") or {}).items():
        if name not in full and isinstance(prop, dict) and "default" in prop:
            full[name] = prop["default"]
    try:
        jsonschema.Draft202012Validator(schema).validate(full)
    except jsonschema.ValidationError as exc:
        where = ".".join(str(p) for p in exc.absolute_path) or "options"
        raise Invalid(
            f"invalid option {where}: {exc.message}",
            code=ErrorCode.INVALID_OPTIONS,
            fields={"options": [exc.message]},
        ) from exc
    return full


def validate_time_control(tc: Any) -> dict[str, Any] | None:
    """The time control as stored (defaults filled in), or Invalid naming the bad field."""
    if tc is None:
        return None
    if not isinstance(tc, dict):
        raise Invalid("time_control must be an object", code=ErrorCode.INVALID_TIME_CONTROL)
    allowed = {"seconds_per_decision", "reminder_before_seconds", "excused_misses"}
    unknown = set(tc) - allowed
    if unknown:
        raise Invalid(f"unknown time_control fields: {sorted(unknown)}", code=ErrorCode.INVALID_TIME_CONTROL)
    out: dict[str, Any] = {}
    spd = tc.get("seconds_per_decision")
    if spd is not None:
        if not isinstance(spd, int) or isinstance(spd, bool) or not MIN_SECONDS <= spd <= MAX_SECONDS:
            raise Invalid(
                f"seconds_per_decision must be an integer from {MIN_SECONDS} to {MAX_SECONDS}",
                code=ErrorCode.INVALID_TIME_CONTROL,
            )
        out["seconds_per_decision"] = spd
    rb = tc.get("reminder_before_seconds")
    if rb is not None:
        if not isinstance(rb, int) or isinstance(rb, bool) or rb < 1 or (spd and rb >= spd):
            raise Invalid(
                "reminder_before_seconds must be a positive integer below seconds_per_decision",
                code=ErrorCode.INVALID_TIME_CONTROL,
            )
        out["reminder_before_seconds"] = rb
    em = tc.get("excused_misses", 2)
    if not isinstance(em, int) or isinstance(em, bool) or not 0 <= em <= 1000:
        raise Invalid("excused_misses must be an integer from 0 to 1000", code=ErrorCode.INVALID_TIME_CONTROL)
    out["excused_misses"] = em
    return out


def options_schema_for(rules: Ruleset, players: int) -> dict[str, Any]:
    """The options' JSON Schema for a player count (a ruleset may vary it with
    `options_schema_for(players)`; most have one schema for every count)."""
    per_count = getattr(rules, "options_schema_for", None)
    return dict(per_count(players) if per_count is not None else rules.options_schema)


def player_counts(rules: Ruleset) -> list[dict[str, Any]]:
    """What /rulesets advertises: for every player count a game can really be
    created with, the factions a seat may choose and the options schema. A count
    inside min..max that the rules refuse (Imjin: 3) is left out."""
    out = []
    for n in range(rules.min_players, rules.max_players + 1):
        schema = options_schema_for(rules, n)
        try:
            factions = list(rules.factions(n, options_with_defaults(schema, {})))
        except (RulesError, Invalid):
            continue
        out.append({"players": n, "factions": factions, "options": schema})
    return out


def _factions(rules: Ruleset, players: int, options: dict[str, Any]) -> list[str]:
    try:
        return list(rules.factions(players, options))
    except RulesError as exc:
        raise Invalid(exc.reason, code=ErrorCode.INVALID_PLAYERS) from exc


def create_game(
    user: User,
    ruleset: str,
    players: Any,
    options: Any = None,
    time_control: Any = None,
    name: str = "",
    faction: str | None = None,
    private: bool = False,
) -> Game:
    """An open game created by `user`, who takes seat 0 (with `faction` if given);
    Invalid on a bad ruleset, player count, option or time control."""
    rules = registry.get(ruleset) if isinstance(ruleset, str) else None
    if rules is None:
        raise Invalid(
            f"unknown ruleset {ruleset!r}; see GET /api/v1/rulesets",
            code=ErrorCode.UNKNOWN_RULESET,
            fields={"ruleset": ["unknown ruleset"]},
        )
    if (
        not isinstance(players, int)
        or isinstance(players, bool)
        or not (rules.min_players <= players <= rules.max_players)
    ):
        raise Invalid(
            f"{rules.name} is played by {rules.min_players} to {rules.max_players} players",
            code=ErrorCode.INVALID_PLAYERS,
            fields={"players": ["out of range"]},
        )
    opts = options_with_defaults(options_schema_for(rules, players), options or {})
    factions = _factions(rules, players, opts)
    tc = validate_time_control(time_control)
    with transaction.atomic():
        game = Game.objects.create(
            ruleset=ruleset,
            rules_version=rules.rules_version,
            name=name or "",
            players=players,
            options=opts,
            time_control=tc,
            creator=user,
            seed=secrets.token_hex(32),
            private=bool(private),
            invite_code=new_invite_code() if private else "",
        )
        Seat.objects.create(game=game, index=0, user=user, faction=_check_faction(faction, factions, []))
    return game


def _check_faction(faction: object, allowed: list[str], taken: list[str]) -> str:
    if faction in (None, "", "random"):
        return ""
    if faction not in allowed:
        raise Invalid(
            f"unknown faction {faction!r}; choose one of {allowed} or 'random'",
            code=ErrorCode.INVALID_FACTION,
            fields={"faction": ["unknown faction"]},
        )
    if faction in taken:
        raise Conflict(f"faction {faction!r} is already taken", code=ErrorCode.FACTION_TAKEN)
    return str(faction)  # one of `allowed`


class _System:
    """Who asks when no user does (tasks, sweeps): may read private games."""


SYSTEM = _System()


def get_game(game_id: GameId, user: Reader | _System = None, seats: str | None = None) -> Game:
    """The game, or NotFound for unknown and malformed ids alike (never a 500).

    A private game is found only for its seated players (or `SYSTEM`): to anyone
    else it does not exist, so its id, status and existence do not leak (404, not
    403). A caller that does not say who asks gets public games only. `seats`:
    read the seats with the game, in one round trip (services/prepared.py: only
    for requests that do not change seats)."""
    try:
        game = prepared.game(uuid.UUID(str(game_id)), seats=seats)
    except ValueError as exc:
        raise NotFound("no such game", code=ErrorCode.GAME_NOT_FOUND) from exc
    if game is None:
        raise NotFound("no such game", code=ErrorCode.GAME_NOT_FOUND)
    if game.private and not (user is SYSTEM or is_seated(game, user) or is_invited(game, user)):
        raise NotFound("no such game", code=ErrorCode.GAME_NOT_FOUND)
    return game


def lock_game(game_id: GameId, user: Reader | _System = None, seats: str | None = None) -> Game:
    """The game row locked for this transaction (one query), or NotFound; a
    private game is found only as `get_game` finds it (`seats` as there)."""
    try:
        game = prepared.game(uuid.UUID(str(game_id)), lock=True, seats=seats)
    except ValueError:
        game = None
    if game is None or (game.private and not (user is SYSTEM or is_seated(game, user))):
        raise NotFound("no such game", code=ErrorCode.GAME_NOT_FOUND)
    return game


def is_seated(game: Game, user: Reader | _System) -> bool:
    """Whether `user` created the game or holds a seat in it."""
    uid = getattr(user, "id", None)
    if uid is None or game.creator_id == uid:
        return uid is not None
    if getattr(game, "_read_seats", None) is not None:  # read with the game: no query
        return any(s.user_id == uid for s in prepared.seats(game))
    return game.seats.filter(user_id=uid).exists()


def is_invited(game: Game, user: Reader | _System) -> bool:
    """An account the host invited to a seat (games/services/invitations.py) may
    read the game and join it without the invite code while it is open."""
    uid = getattr(user, "id", None)
    return (
        uid is not None and game.status == Game.Status.OPEN and game.invitations.filter(user_id=uid).exists()
    )


def new_invite_code() -> str:
    """A fresh unguessable code that lets others join a private game."""
    return secrets.token_urlsafe(16)


def rotate_invite(game_id: GameId, user: User) -> Game:
    """A new invite code for a private game (the creator): the old one stops working."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=get_game(game_id, user).pk)
        if game.creator_id != user.id:
            raise Forbidden("only the game's creator can rotate its invite code", code=ErrorCode.NOT_CREATOR)
        if not game.private:
            raise Conflict("public games have no invite code", code=ErrorCode.NOT_PRIVATE)
        game.invite_code = new_invite_code()
        game.save(update_fields=["invite_code"])
    return game


def _found_with_invite(game_id: GameId, user: User, invite_code: object) -> Game:
    """Joining: a private game is found by its seated players, or by anyone
    holding its current invite code; a wrong code is the same 404 as no game."""
    game = get_game(game_id, SYSTEM)
    if game.private and not (is_seated(game, user) or is_invited(game, user)):
        if not (
            isinstance(invite_code, str)
            and game.invite_code
            and hmac.compare_digest(invite_code.encode(), game.invite_code.encode())
        ):
            raise NotFound("no such game", code=ErrorCode.GAME_NOT_FOUND)
    return game


def join(
    game_id: GameId,
    user: User,
    faction: str | None = None,
    bot: str | None = None,
    invite_code: str | None = None,
    entropy: str | None = None,
) -> Seat:
    """Seat `user` (or, for the creator, a bot) in an open game; Conflict when it is full or the faction
    is taken. `entropy`: the person's contribution to the game's randomness (seeding.py)."""
    entropy = _joining_entropy(entropy, bot)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=_found_with_invite(game_id, user, invite_code).pk)
        if game.status != Game.Status.OPEN:
            raise Conflict("the game has already started", code=ErrorCode.GAME_NOT_OPEN)
        seats = list(game.seats.all())
        if bot is not None:
            if game.creator_id != user.id:
                raise Forbidden("only the game's creator can add bot seats", code=ErrorCode.NOT_CREATOR)
            if bot not in BOT_KINDS:
                raise Invalid(f"unknown bot {bot!r}; one of {list(BOT_KINDS)}", code=ErrorCode.INVALID_BOT)
        elif any(s.user_id == user.id for s in seats):
            raise Conflict("you already have a seat in this game", code=ErrorCode.ALREADY_SEATED)
        if len(seats) >= game.players:
            raise Conflict("the game is full", code=ErrorCode.GAME_FULL)
        rules = registry.get(game.ruleset)
        if rules is None:
            raise ServiceError("this ruleset is not available", code=ErrorCode.UNKNOWN_RULESET, status=409)
        allowed = _factions(rules, game.players, game.options)
        chosen = _check_faction(faction, allowed, [s.faction for s in seats if s.faction])
        index = len(seats)
        try:
            seat = Seat.objects.create(
                game=game,
                index=index,
                user=None if bot else user,
                faction=chosen,
                bot=bot or "",
                entropy=entropy or "",
            )
            if not bot:
                game.invitations.filter(user=user).delete()  # accepted
            return seat
        except IntegrityError as exc:
            raise Conflict("that seat was just taken; try again", code=ErrorCode.SEAT_TAKEN) from exc


def _joining_entropy(entropy: object, bot: str | None) -> str | None:
    if entropy is None:
        return None
    if bot is not None:
        raise Invalid("a bot seat contributes no entropy", code=ErrorCode.INVALID_ENTROPY)
    return checked_entropy(entropy)


def checked_entropy(entropy: object) -> str:
    """A seat's contribution as stored (lowercase hex), or Invalid."""
    if isinstance(entropy, str) and seeding.is_entropy(entropy.lower()):
        return entropy.lower()
    raise Invalid(
        "entropy must be 64 hexadecimal characters (32 random bytes)",
        code=ErrorCode.INVALID_ENTROPY,
        fields={"entropy": ["64 hexadecimal characters"]},
    )


def contribute_entropy(game_id: GameId, user: User, index: object, entropy: object) -> Seat:
    """The seat's player adds 32 random bytes to the game's randomness, once, before
    the start; the seed's commitment was fixed when the game was created."""
    value = checked_entropy(entropy)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=get_game(game_id, user).pk)
        # no lookup of an index out of range (a huge one would fail in the database)
        seat = (
            game.seats.filter(index=index).first()
            if isinstance(index, int) and 0 <= index < game.players
            else None
        )
        if seat is None:
            raise NotFound("no such seat in this game", code=ErrorCode.SEAT_NOT_FOUND)
        if seat.user_id is None or seat.user_id != user.id:
            raise Forbidden(
                "only the seat's own player may contribute its entropy", code=ErrorCode.NOT_YOUR_SEAT
            )
        if game.status != Game.Status.OPEN:
            raise Conflict("the game has already started", code=ErrorCode.GAME_NOT_OPEN)
        if seat.entropy:
            raise Conflict("this seat has already contributed its entropy", code=ErrorCode.ENTROPY_GIVEN)
        seat.entropy = value
        seat.save(update_fields=["entropy"])
    return seat


def start(game_id: GameId, user: User) -> Game:
    """The creator starts a full game: factions drawn, core.GameStarted and the engine's setup
    committed."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=get_game(game_id, user).pk)
        if game.creator_id != user.id:
            raise Forbidden("only the game's creator can start it", code=ErrorCode.NOT_CREATOR)
        if game.status != Game.Status.OPEN:
            raise Conflict("the game has already started", code=ErrorCode.GAME_NOT_OPEN)
        seats = list(game.seats.all())
        if len(seats) < game.players:
            raise Conflict(
                f"{len(seats)} of {game.players} seats are filled", code=ErrorCode.SEATS_NOT_FILLED
            )
        rules = registry.get(game.ruleset)
        if rules is None:
            raise ServiceError("this ruleset is not available", code=ErrorCode.UNKNOWN_RULESET, status=409)
        given = [(s.index, s.entropy) for s in seats if s.entropy and s.user_id is not None]
        game.mixed_seed = seeding.stream_seed(game.seed, given) if given else ""
        rng = rng_factory(stream_seed(game), 1)
        allowed = _factions(rules, game.players, game.options)
        free = rng("core:factions").shuffled([f for f in allowed if f not in {s.faction for s in seats}])
        chosen = [s.faction or None for s in seats]  # recorded so an auditor can re-derive the draw
        factions = [s.faction or free.pop(0) for s in seats]
        for s, f in zip(seats, factions, strict=True):
            if s.faction != f:
                s.faction = f
                s.save(update_fields=["faction"])
        started = new_event(
            GameStarted(
                ruleset=game.ruleset,
                rules_version=game.rules_version,
                players=game.players,
                options=game.options,
                factions=tuple(factions),
                chosen_factions=tuple(chosen),
                seed_commitment=sha256_hex(game.seed),
                seats=tuple(
                    {"index": s.index, "user": s.user.username if s.user else None, "bot": s.bot or None}
                    for s in seats
                ),
                entropy=tuple({"seat": i, "entropy": e} for i, e in given) or None,
            ),
            actor={"user": user.username},
            cause={"start": {"factions": factions, "options": game.options}},
        )
        try:
            engine_events = rules.start(factions, game.options, rng)
        except RulesError as exc:
            raise Invalid(exc.reason, code=ErrorCode.INVALID_SETUP) from exc
        except Exception as exc:  # an engine bug at setup: its own code, logged, nothing written
            log.exception(
                "engine_error: game %s (%s) setup: start raised %s", game.id, game.ruleset, type(exc).__name__
            )
            raise EngineError(
                f"the rules engine failed to set up this game ({type(exc).__name__}); "
                f"nothing was written and the failure was logged"
            ) from exc
        new = [started] + [
            store.NewEvent(e.type, dict(e.payload), e.version, e.visible_to) for e in engine_events
        ]
        # an unsalted private event is refused here, nothing written (commit.batch_of)
        batch = batch_of(game, new)
        state = fold_rows(rules, batch.rows)
        commit(
            game,
            batch,
            state,
            status=Game.Status.RUNNING,
            started_at=game.started_at or timezone.now(),
            mixed_seed=game.mixed_seed,
        )
    return game
