"""The engine contract every ruleset implements (pure Python: no Django, no I/O).

A ruleset is one object (see `Ruleset`) with:

Why, with the measurements and history: docs/modules.md, `games/rules/base.py`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

JSON = Any


class RulesError(ValueError):
    """Base of the errors a ruleset raises for a command; `reason` is for humans."""

    code = "illegal_command"

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class IllegalCommand(RulesError):  # noqa: N818 - a public name of the engine contract
    """A well-formed command the rules forbid now (HTTP 422 `illegal_command`)."""

    code = "illegal_command"


class BadCommand(RulesError):  # noqa: N818 - a public name of the engine contract
    """A malformed command: unknown type, missing or ill-typed field (HTTP 400)."""

    code = "invalid_command"


# ---------------------------------------------------------------------------
# Canonical JSON and hashing, shared by the store, the audit and the verifier.


def canonical_json(value: JSON) -> str:
    """Sorted keys, no spaces, UTF-8 (not ASCII-escaped): the form that is hashed."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_hex(text: str | bytes) -> str:
    data = text.encode() if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()


def hmac_sha256_hex(key: str | bytes, message: str | bytes) -> str:
    k = key.encode() if isinstance(key, str) else key
    m = message.encode() if isinstance(message, str) else message
    return hmac.new(k, m, hashlib.sha256).hexdigest()


# ---------------------------------------------------------------------------
# Events


@dataclass(frozen=True)
class Event:
    """One fact. ``visible_to=None`` is public; a tuple of seats makes it private
    to those seats until the game ends (or a later event reveals its content)."""

    type: str
    payload: Mapping[str, JSON] = field(default_factory=dict)
    version: int = 1
    visible_to: tuple[int, ...] | None = None

    @property
    def public(self) -> bool:
        return self.visible_to is None


# ---------------------------------------------------------------------------
# Randomness: derived, verifiable, never re-rolled on replay.


class Rng:
    """A deterministic random stream for one decision.

    Byte stream: block i = HMAC-SHA256(key=seed, msg=f"{seq}:{purpose}:{i}")
    (seed and message UTF-8 encoded). ``randbelow(n)`` takes 8 bytes at a time
    as a big-endian integer x and accepts x when x < 2**64 - (2**64 % n), giving
    x % n (rejection sampling: no modulo bias). ``shuffle`` is Fisher-Yates from
    the last index down: for i = len-1 .. 1, j = randbelow(i+1), swap(i, j).
    An outside program re-derives every outcome from the revealed seed with
    exactly these steps (see ``games/verify/replay.py``).
    """

    def __init__(self, seed: str, seq: int, purpose: str):
        self._key = seed.encode()
        self._prefix = f"{seq}:{purpose}:"
        self._block = 0
        self._buf = b""

    def _bytes(self, count: int) -> bytes:
        while len(self._buf) < count:
            msg = (self._prefix + str(self._block)).encode()
            self._buf += hmac.new(self._key, msg, hashlib.sha256).digest()
            self._block += 1
        out, self._buf = self._buf[:count], self._buf[count:]
        return out

    def randbelow(self, bound: int) -> int:
        if bound <= 0:
            raise ValueError("randbelow needs bound >= 1")
        limit = 2**64 - (2**64 % bound)
        while True:
            x = int.from_bytes(self._bytes(8), "big")
            if x < limit:
                return x % bound

    def randint(self, low: int, high: int) -> int:
        """Inclusive on both ends, like random.randint."""
        return low + self.randbelow(high - low + 1)

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.randbelow(len(seq))]

    def shuffled(self, items: Iterable[T]) -> list[T]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return (int.from_bytes(self._bytes(8), "big") >> 11) / float(1 << 53)

    def salt(self) -> str:
        """32 hex chars of secret salt for a commitment (secret while the seed is)."""
        return self._bytes(16).hex()


RngFactory = Callable[[str], Rng]
"""Given a purpose string ("shuffle-mandates", "battle-dice"...), an `Rng`.
The platform binds the game seed and the seq of the first event the decision
will append, so every (decision, purpose) pair has its own stream."""


def rng_factory(seed: str, seq: int) -> RngFactory:
    return lambda purpose: Rng(seed, seq, purpose)


# ---------------------------------------------------------------------------
# Commit-reveal for secret simultaneous choices.

COMMITTED = "core.ChoiceCommitted"


def commitment_of(salt: str, choice: JSON) -> str:
    """hmac_sha256_hex(salt, canonical_json(choice)) — the public commitment."""
    return hmac_sha256_hex(salt, canonical_json(choice))


def commit(
    rng: RngFactory,
    seat: int,
    key: str,
    choice: JSON,
    private_type: str,
    extra: Mapping[str, JSON] | None = None,
    viewers: Sequence[int] | None = None,
) -> tuple[Event, Event]:
    """The two events of a secret choice: a private one carrying the choice and its
    salt (seen by ``seat`` only), then a public ``core.ChoiceCommitted`` carrying
    ``{seat, key, commitment}``. ``key`` names the choice uniquely in the game
    (e.g. "bid:s2:p4:seat1"); re-committing the same key replaces the choice
    where the rules allow it. ``core.*`` events never reach ``evolve``: the
    engine folds the private event (choice and salt) into state, and its later
    reveal event lists `reveal_entry` items under ``payload["reveals"]``.

    ``viewers``: a choice whose very existence is secret (a secret offer) has its
    commitment private to those seats instead of public. Like every private
    event it then carries its own ``salt`` (``rng("salt:<key>:commitment")``:
    the engine's, re-derived by the audit's replay, not the platform's)."""
    salt = rng(f"salt:{key}").salt()
    private = Event(
        private_type, {**(extra or {}), "key": key, "choice": choice, "salt": salt}, visible_to=(seat,)
    )
    committed: dict[str, JSON] = {"seat": seat, "key": key, "commitment": commitment_of(salt, choice)}
    if viewers is None:
        return private, Event(COMMITTED, committed)
    committed["salt"] = rng(f"salt:{key}:commitment").salt()
    return private, Event(COMMITTED, committed, visible_to=tuple(sorted(set(viewers))))


def reveal_entry(seat: int, key: str, choice: JSON, salt: str) -> dict[str, JSON]:
    """One item of a public reveal: put a list of these under ``payload["reveals"]``
    of the public event that reveals them, so the audit can check each against
    its commitment."""
    return {"seat": seat, "key": key, "choice": choice, "salt": salt}


GAME_SEAT = -1
"""The ``seat`` of a commitment made by the game itself (core.ChoiceCommitted
documents -1): a hidden fact of the table that no seat may see."""

NOBODY: tuple[int, ...] = ()
"""``visible_to`` of an event private to no seat: every feed redacts it while the
game runs; the finished (or aborted) game's export shows it like any other."""


def commit_hidden(
    rng: RngFactory, key: str, choice: JSON, private_type: str, extra: Mapping[str, JSON] | None = None
) -> tuple[Event, Event]:
    """`commit` for a secret nobody at the table sees (e.g. which cubes stick inside
    Shogun's cube tower): the private event (choice and salt) is visible to `NOBODY`
    and the public ``core.ChoiceCommitted`` names ``seat = GAME_SEAT``. The engine
    reveals it later with ``reveal_entry(GAME_SEAT, key, choice, salt)``; the audit
    checks that reveal as it checks a seat's."""
    private, public = commit(rng, GAME_SEAT, key, choice, private_type, extra)
    return Event(private.type, private.payload, private.version, NOBODY), public


# ---------------------------------------------------------------------------
# What the platform asks of a state.


@dataclass(frozen=True)
class Pending:
    seat: int
    kind: str  # the engine's name for the decision ("war_bid", "choose_mandate"...)


@dataclass(frozen=True)
class Template:
    """A family of commands too large to list: a JSON Schema plus the constraints
    the schema cannot say, in words."""

    type: str
    schema: Mapping[str, JSON]
    description: str


@dataclass(frozen=True)
class LegalSet:
    """Legal commands of one seat now. Either ``commands`` lists them all, or
    ``templates`` describe them and ``sample`` draws a uniformly-ish random legal
    one (needed so a naive bot can always act). Both may be given."""

    commands: tuple[Mapping[str, JSON], ...] = ()
    templates: tuple[Template, ...] = ()
    sample: Callable[[Any], Mapping[str, JSON]] | None = None  # arg: random.Random

    @property
    def empty(self) -> bool:
        return not self.commands and not self.templates


@dataclass(frozen=True)
class Outcome:
    winners: tuple[int, ...]
    scores: Mapping[int, float]
    reason: str


Upcaster = Callable[[dict[str, JSON]], dict[str, JSON]]
NO_UPCASTERS: Mapping[tuple[str, int], Upcaster] = MappingProxyType(
    {}
)  # for a ruleset whose events never changed shape


class Ruleset(Protocol):
    id: str  # "rising-sun"
    name: str
    min_players: int
    max_players: int
    rules_version: int  # bump when a change would alter old games' replay
    # Optional: the first rules version whose private events all carry payload.salt
    # (older recorded games are verified with missing salts noted, not failed). Default 1.
    # salted_since: int
    options_schema: Mapping[str, JSON]  # JSON Schema (draft 2020-12) with defaults
    # Old event payloads to new ones: {(event type, stored version): payload -> payload of
    # version + 1}, each function named upcast_vN_vN+1 beside its event class
    # (events.codec.upcast applies them on load). {} while no event has changed shape.
    upcasters: Mapping[tuple[str, int], Callable[[dict[str, JSON]], dict[str, JSON]]]

    def factions(self, players: int, options: Mapping[str, JSON]) -> Sequence[str]: ...

    def start(
        self, factions: Sequence[str | None], options: Mapping[str, JSON], rng: RngFactory
    ) -> list[Event]: ...

    def initial_state(self) -> Any:
        """The state before the first event (evolve folds start's events into it)."""
        ...

    def decide(self, state: Any, seat: int, command: Mapping[str, JSON], rng: RngFactory) -> list[Event]: ...

    def decide_folded(self, state: Any, seat: int, command: Mapping[str, JSON], rng: RngFactory) -> Any:
        """`decide`, and the state after its events as the kit's `Context` folded
        them (a `kit.Decided(events, state)`): the platform folds nothing again."""
        ...

    def evolve(self, state: Any, event: Event) -> Any: ...

    def legal_commands(self, state: Any, seat: int) -> LegalSet: ...

    def pending(self, state: Any) -> list[Pending]: ...

    def default_command(self, state: Any, seat: int) -> Mapping[str, JSON] | None: ...

    def view(self, state: Any, seat: int | None) -> JSON: ...

    # Optional: views(state, seats) -> {seat: view(state, seat) for seat in seats},
    # built together where the seats share most of their view (see `views` below).

    def outcome(self, state: Any) -> Outcome | None: ...


def views(rules: Ruleset, state: Any, seats: Sequence[int | None]) -> dict[int | None, JSON]:
    """`rules.view(state, seat)` for each of `seats`. An engine may define
    `views` to build them together (a range replay needs every seat's view of
    every version, and the public part is most of each): the views it returns
    may then share their public parts, so they are read-only."""
    together = getattr(rules, "views", None)
    if together is not None:
        return dict(together(state, seats))
    return {seat: rules.view(state, seat) for seat in seats}


def fold(rules: Ruleset, events: Iterable[Event], state: Any = None) -> Any:
    """Fold events into state, skipping platform (core.*) events."""
    s = rules.initial_state() if state is None else state
    for e in events:
        if not e.type.startswith("core."):
            s = rules.evolve(s, e)
    return s
