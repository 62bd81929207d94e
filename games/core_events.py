"""The platform's own events (``core.*``), declared once as frozen dataclasses.

Why, with the measurements and history: docs/modules.md, `games/core_events.py`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self, cast

from events.codec import Upcaster, Upcasters

PREFIX = "core."

# The `type` every reader who may not see a private event gets for it (issue 31).
# Not a stored event: the store keeps the real type, which the chain hash covers.
# The real type would say which kind of secret was played, when and how often (a
# secret alliance offer, a bid, a message to one seat), so a redacted entry is the
# same for every private event: its seq and chain links, nothing else.
REDACTED_TYPE = "core.Redacted"


class BadCoreEvent(ValueError):
    """A stored ``core.*`` payload that does not fit its declared type."""


def optional() -> Any:
    """A field the payload may leave out (omitted when None, None when absent)."""
    return field(default=None, metadata={"optional": True})


def renamed(key: str) -> Any:
    """A field stored under another key (a Python keyword such as ``from``)."""
    return field(metadata={"key": key})


def _key(f: dataclasses.Field[Any]) -> str:
    return cast(str, f.metadata.get("key", f.name))


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _to_json(v) for k, v in value.items()}
    return value


def _from_json(value: Any) -> Any:
    """A top-level list becomes a tuple (a field's value is then hashable and
    compares by value); JSON inside it (options, a default command) is left as
    stored, since an engine may compare it with lists."""
    return tuple(value) if isinstance(value, list) else value


@dataclass(frozen=True, kw_only=True)
class CoreEvent:
    TYPE: ClassVar[str]
    VERSION: ClassVar[int] = 1

    def payload(self) -> dict[str, Any]:
        """The JSON object stored for this event."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None and f.metadata.get("optional"):
                continue
            out[_key(f)] = _to_json(value)
        return out

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Self:
        """The typed event from a payload at the current VERSION; BadCoreEvent
        when a required key is missing or an unknown one is present."""
        if not isinstance(payload, Mapping):
            raise BadCoreEvent(f"{cls.TYPE}: the payload is not an object")
        fields = {_key(f): f for f in dataclasses.fields(cls)}
        unknown = sorted(set(payload) - set(fields))
        if unknown:
            raise BadCoreEvent(f"{cls.TYPE}: unknown payload keys {unknown}")
        missing = sorted(k for k, f in fields.items() if k not in payload and not f.metadata.get("optional"))
        if missing:
            raise BadCoreEvent(f"{cls.TYPE}: missing payload keys {missing}")
        return cls(**{f.name: _from_json(payload[k]) for k, f in fields.items() if k in payload})


# ---------------------------------------------------------------------------------------------
# Start and end


@dataclass(frozen=True, kw_only=True)
class GameStarted(CoreEvent):
    """The first event of every game: what the engine was started with, and the
    commitment to the seed (sha256 of it) that `SeedRevealed` opens."""

    TYPE: ClassVar[str] = "core.GameStarted"
    ruleset: str
    rules_version: int
    players: int
    options: Mapping[str, Any]
    factions: tuple[str | None, ...]
    chosen_factions: tuple[str | None, ...]  # before the draw: an auditor re-derives it
    seed_commitment: str
    seats: tuple[Mapping[str, Any], ...]  # {index, user, bot} in seat order
    # The seats' contributions {seat, entropy} in seat order, only when some seat gave one:
    # the random streams are then keyed by games.rules.seeding.stream_seed (docs/audit.md).
    entropy: tuple[Mapping[str, Any], ...] | None = optional()


@dataclass(frozen=True, kw_only=True)
class Result:
    """An engine's `Outcome` as stored: seat keys of `scores` are strings (JSON)."""

    winners: tuple[int, ...]
    scores: Mapping[str, float]
    reason: str

    @classmethod
    def of(cls, outcome: Any) -> Result:
        """From a games.rules.base.Outcome."""
        return cls(
            winners=tuple(outcome.winners),
            scores={str(k): v for k, v in outcome.scores.items()},
            reason=outcome.reason,
        )

    def as_json(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "scores": dict(self.scores), "reason": self.reason}


@dataclass(frozen=True, kw_only=True)
class GameFinished(CoreEvent):
    TYPE: ClassVar[str] = "core.GameFinished"
    outcome: Result

    def payload(self) -> dict[str, Any]:
        return {"outcome": self.outcome.as_json()}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Self:
        raw = payload.get("outcome") if isinstance(payload, Mapping) else None
        if set(payload or ()) != {"outcome"} or not isinstance(raw, Mapping):
            raise BadCoreEvent(f"{cls.TYPE}: the payload is exactly {{outcome}}")
        if set(raw) != {"winners", "scores", "reason"} or not isinstance(raw["winners"], list | tuple):
            raise BadCoreEvent(f"{cls.TYPE}: outcome needs exactly winners (a list), scores and reason")
        return cls(outcome=Result(winners=tuple(raw["winners"]), scores=raw["scores"], reason=raw["reason"]))


@dataclass(frozen=True, kw_only=True)
class GameAborted(CoreEvent):
    TYPE: ClassVar[str] = "core.GameAborted"
    by: str
    reason: str
    operator: bool | None = optional()  # True when staff aborted it in the admin


@dataclass(frozen=True, kw_only=True)
class SeedRevealed(CoreEvent):
    """Always the last event of a finished or aborted game."""

    TYPE: ClassVar[str] = "core.SeedRevealed"
    seed: str


ENDINGS = (GameFinished.TYPE, GameAborted.TYPE)


# ---------------------------------------------------------------------------------------------
# Secrets


@dataclass(frozen=True, kw_only=True)
class ChoiceCommitted(CoreEvent):
    """Commitment to a secret choice, public (or private to the seats a secret
    offer concerns). Engines emit it through games.rules.base.commit (whose
    COMMITTED is this TYPE, checked by a test)."""

    TYPE: ClassVar[str] = "core.ChoiceCommitted"
    seat: int  # -1: a choice of the game itself
    key: str
    commitment: str
    # Only when the commitment is itself private to some seats (base.commit's
    # `viewers`: a secret offer): the engine's salt, as every private event has.
    salt: str | None = optional()


# ---------------------------------------------------------------------------------------------
# Play by email: messages, deadlines, seats, pauses


@dataclass(frozen=True, kw_only=True)
class MessageSent(CoreEvent):
    TYPE: ClassVar[str] = "core.MessageSent"
    sender: int = renamed("from")
    to: tuple[int, ...] | None  # None: everyone
    text: str
    salt: str | None = optional()  # private messages are salted (docs/audit.md)


@dataclass(frozen=True, kw_only=True)
class DeadlineMissed(CoreEvent):
    TYPE: ClassVar[str] = "core.DeadlineMissed"
    seat: int
    kind: str  # the decision kind that was pending
    default_command: Mapping[str, Any]
    source: str  # "default" (the engine's) or "bot" (the bot policy's)
    misses: int
    excused_misses: int
    zombie: bool
    deadline: str | None  # ISO 8601
    version: int
    salt: str | None = optional()  # secret when the default was built from private state


@dataclass(frozen=True, kw_only=True)
class SeatZombified(CoreEvent):
    TYPE: ClassVar[str] = "core.SeatZombified"
    seat: int
    misses: int
    user: str | None


@dataclass(frozen=True, kw_only=True)
class SeatReclaimed(CoreEvent):
    TYPE: ClassVar[str] = "core.SeatReclaimed"
    seat: int
    user: str


@dataclass(frozen=True, kw_only=True)
class GamePaused(CoreEvent):
    TYPE: ClassVar[str] = "core.GamePaused"
    by: tuple[str, ...]  # the usernames whose votes switched it
    creator: bool


@dataclass(frozen=True, kw_only=True)
class GameResumed(CoreEvent):
    TYPE: ClassVar[str] = "core.GameResumed"
    by: tuple[str, ...]
    creator: bool


# ---------------------------------------------------------------------------------------------
# Takebacks (games/services/undo.py): the request's seq is its id


@dataclass(frozen=True, kw_only=True)
class TakebackRequested(CoreEvent):
    TYPE: ClassVar[str] = "core.TakebackRequested"
    seat: int
    undo_from_seq: int
    undo_to_seq: int


@dataclass(frozen=True, kw_only=True)
class TakebackVoted(CoreEvent):
    TYPE: ClassVar[str] = "core.TakebackVoted"
    request_seq: int
    seat: int


@dataclass(frozen=True, kw_only=True)
class TakebackAccepted(CoreEvent):
    TYPE: ClassVar[str] = "core.TakebackAccepted"
    request_seq: int
    seat: int
    undo_from_seq: int
    undo_to_seq: int


@dataclass(frozen=True, kw_only=True)
class TakebackRefused(CoreEvent):
    TYPE: ClassVar[str] = "core.TakebackRefused"
    request_seq: int
    seat: int


TAKEBACKS = (TakebackRequested.TYPE, TakebackVoted.TYPE, TakebackAccepted.TYPE, TakebackRefused.TYPE)


# ---------------------------------------------------------------------------------------------
# Registry and reading


def _all_types() -> dict[str, type[CoreEvent]]:
    out: dict[str, type[CoreEvent]] = {}
    stack = list(CoreEvent.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__ == __name__:  # test doubles elsewhere do not join the registry
            out[cls.TYPE] = cls
    return dict(sorted(out.items()))


def upcasters_of(cls: type[CoreEvent]) -> dict[tuple[str, int], Upcaster]:
    """{(TYPE, n): cls.upcast_vn_vn+1} for n = 1 .. VERSION-1; a missing step is a
    bug that would leave old payloads unreadable, so it fails loudly."""
    out = {}
    for n in range(1, cls.VERSION):
        step = getattr(cls, f"upcast_v{n}_v{n + 1}", None)
        if step is None:
            raise TypeError(f"{cls.__name__} is at version {cls.VERSION} but has no upcast_v{n}_v{n + 1}")
        out[(cls.TYPE, n)] = step
    return out


TYPES: dict[str, type[CoreEvent]] = _all_types()
UPCASTERS: Upcasters = {k: v for cls in TYPES.values() for k, v in upcasters_of(cls).items()}


def is_core(type_: Any) -> bool:
    """A platform event: never passed to an engine."""
    return isinstance(type_, str) and type_.startswith(PREFIX)


def read(type_: str, version: int, payload: Mapping[str, Any]) -> CoreEvent:
    """The typed event of a stored (type, version, payload), upcast to the current
    version. BadCoreEvent for an unknown type, a version from the future or a
    payload that does not fit."""
    cls = TYPES.get(type_)
    if cls is None:
        raise BadCoreEvent(f"unknown platform event type {type_!r}")
    if not isinstance(version, int) or not 1 <= version <= cls.VERSION:
        raise BadCoreEvent(f"{type_} version {version!r} (this code reads up to {cls.VERSION})")
    if not isinstance(payload, Mapping):
        raise BadCoreEvent(f"{type_}: the payload is not an object")
    data = dict(payload)
    for n in range(version, cls.VERSION):
        data = UPCASTERS[(type_, n)](data)
    return cls.from_payload(data)


def read_row(row: Any) -> CoreEvent:
    """`read` for a stored row (events.models.StoredEvent or events.store.Recorded)."""
    return read(row.type, row.version, row.payload)
