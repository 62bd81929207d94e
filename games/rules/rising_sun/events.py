"""Event type names (stable strings), and the version-4 events as frozen
dataclasses (house style: `TYPE`, `VERSION`; the payload is their fields).

Why, with the measurements and history: docs/modules.md, `games/rules/rising_sun/events.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from ..base import Event

PREFIX = "rising-sun."

SETUP = PREFIX + "GameSetUp"  # public: clans, seating, shrines, decks
MANDATES_SHUFFLED = PREFIX + "MandatesShuffled"  # hidden (visible_to=()): a deck order
TILES_SEEN = PREFIX + "MandateTilesSeen"  # private to the drawer: his 4 tiles
MANDATE_CHOSEN = PREFIX + "MandateTileChosen"  # private commit of the tile played
BID_PLACED = PREFIX + "WarBidPlaced"  # private commit of a war bid
PROPOSAL_MADE = PREFIX + "AllianceProposed"  # private commit of a proposal
PROPOSAL_RECEIVED = PREFIX + "AllianceProposalReceived"  # private to the target
PROPOSAL_DECLINED = PREFIX + "AllianceDeclined"  # v3: private to both: a decline
PROPOSAL_WITHDRAWN = PREFIX + "AllianceWithdrawn"  # v3: private to both: a withdrawal
COMMAND_APPLIED = PREFIX + "CommandApplied"  # public: a command and its draws
MANDATE_PLAYED = PREFIX + "MandatePlayed"  # public: declared mandate (+reveal)
BIDS_REVEALED = PREFIX + "WarBidsRevealed"  # public: all bids of a battle (reveals)
GIFT_GIVEN = PREFIX + "GiftGiven"  # public: coins / ronin handed over
HIDDEN_CHANGED = PREFIX + "HiddenStateChanged"  # v4, hidden (visible_to=()): the secret outcome
TYPES = (
    SETUP,
    MANDATES_SHUFFLED,
    TILES_SEEN,
    MANDATE_CHOSEN,
    BID_PLACED,
    PROPOSAL_MADE,
    PROPOSAL_RECEIVED,
    PROPOSAL_DECLINED,
    PROPOSAL_WITHDRAWN,
    COMMAND_APPLIED,
    MANDATE_PLAYED,
    BIDS_REVEALED,
    GIFT_GIVEN,
    HIDDEN_CHANGED,
)
"""Every Rising Sun event type (evolve refuses any other)."""

# Event types whose evolve re-applies a command (payload: seat, cmd, draws).
COMMAND_EVENTS = {COMMAND_APPLIED, MANDATE_PLAYED, BIDS_REVEALED, GIFT_GIVEN}

Outcome = dict[str, Any]  # facts.py


@dataclass(frozen=True, kw_only=True)
class Fact:
    """A version-4 event; `event()` is what the engine emits (fields that are
    None are left out of the payload)."""

    TYPE: ClassVar[str]
    VERSION: ClassVar[int]
    VISIBLE_TO: ClassVar[tuple[int, ...] | None] = None  # None: public
    outcome: Outcome  # what changed (facts.py)

    def event(self) -> Event:
        payload = {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) is not None}
        return Event(self.TYPE, payload, self.VERSION, self.VISIBLE_TO)


@dataclass(frozen=True, kw_only=True)
class GameSetUp(Fact):
    TYPE: ClassVar[str] = SETUP
    VERSION: ClassVar[int] = 2
    clans: list[str]
    season_set: str
    shrines: list[str]


@dataclass(frozen=True, kw_only=True)
class CommandApplied(Fact):
    TYPE: ClassVar[str] = COMMAND_APPLIED
    VERSION: ClassVar[int] = 2
    seat: int
    cmd: dict[str, Any]  # what was asked (the log's words); evolve reads only `outcome`
    reveals: list[dict[str, Any]] | None = None


@dataclass(frozen=True, kw_only=True)
class MandatePlayed(Fact):
    TYPE: ClassVar[str] = MANDATE_PLAYED
    VERSION: ClassVar[int] = 2
    seat: int
    declared: str
    reveals: list[dict[str, Any]] | None = None  # the tile, unless Lotus's face-down one


@dataclass(frozen=True, kw_only=True)
class WarBidsRevealed(Fact):
    TYPE: ClassVar[str] = BIDS_REVEALED
    VERSION: ClassVar[int] = 2
    province: str
    reveals: list[dict[str, Any]]


@dataclass(frozen=True, kw_only=True)
class GiftGiven(Fact):
    TYPE: ClassVar[str] = GIFT_GIVEN
    VERSION: ClassVar[int] = 2
    seat: int
    cmd: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class HiddenStateChanged(Fact):
    TYPE: ClassVar[str] = HIDDEN_CHANGED
    VERSION: ClassVar[int] = 1
    VISIBLE_TO: ClassVar[tuple[int, ...] | None] = ()  # nobody's until the game ends
    salt: str


# the public events that carry a batch's outcome, by type
FACTS: dict[str, type[Fact]] = {
    c.TYPE: c for c in (GameSetUp, CommandApplied, MandatePlayed, WarBidsRevealed, GiftGiven)
}
FACT_EVENTS = set(FACTS)
_ALL: tuple[type[Fact], ...] = (*FACTS.values(), HiddenStateChanged)
VERSIONS = {c.TYPE: c.VERSION for c in _ALL}
