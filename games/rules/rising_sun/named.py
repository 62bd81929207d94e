"""Rules version 6: the named facts the phase modules emit, one fold handler each.

Every change to the public material of the game (figures, coins, VP, Ronin,
Honor, cards, war tokens, Strongholds, alliances, the season's cards) goes
through `emit`: the fact's own handler applies it to the rules' working state at
once, and a recording working state (`Recording`, made by version-6 `decide`)
keeps the fact for the batch. `evolve` folds the same facts with the same
handlers (`FOLDS`), so a replay cannot differ from the decision. Older versions
run the same rules through the same handlers, but nothing records.

Why: docs/modules.md, `games/rules/rising_sun/named.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from ..base import Event
from ..kit import Evolver

PREFIX = "rising-sun."
FOLDS: Evolver[dict[str, Any]] = Evolver("rising-sun", copy_payload=True)
"""The fold handlers of version 6 (evolve.py adds the batch's other events)."""


class Recording(dict[str, Any]):
    """A working state that keeps the facts emitted into it (version-6 `decide`)."""

    facts: list[Event]

    def __init__(self, state: dict[str, Any]) -> None:
        super().__init__(state)
        self.facts = []


@dataclass(frozen=True, kw_only=True)
class Named:
    """A version-6 fact: `event()` is the engine `Event` (the payload is its fields)."""

    TYPE: ClassVar[str]
    VERSION: ClassVar[int] = 1

    def event(self) -> Event:
        """The engine event (fields that are None are left out of the payload)."""
        payload = {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) is not None}
        return Event(self.TYPE, payload, self.VERSION)


def emit(state: Any, fact: Named) -> None:
    """Apply `fact` to the working `state` with its fold handler; record it when
    `state` records (version 6)."""
    event = fact.event()
    FOLDS.apply_in_place(state, event)
    recorded: list[Event] | None = getattr(state, "facts", None)
    if recorded is not None:
        recorded.append(event)


# ------------------------------------------------------------ resources


@dataclass(frozen=True, kw_only=True)
class VictoryPointsScored(Named):
    TYPE: ClassVar[str] = PREFIX + "VictoryPointsScored"
    seat: int
    points: int
    reason: str  # a card name, "harvest", "battle", "winter", "loyalty"...


@dataclass(frozen=True, kw_only=True)
class VictoryPointsLost(Named):
    TYPE: ClassVar[str] = PREFIX + "VictoryPointsLost"
    seat: int
    points: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class CoinsGained(Named):
    TYPE: ClassVar[str] = PREFIX + "CoinsGained"
    seat: int
    coins: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class CoinsPaid(Named):
    TYPE: ClassVar[str] = PREFIX + "CoinsPaid"
    seat: int
    coins: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class RoninGained(Named):
    TYPE: ClassVar[str] = PREFIX + "RoninGained"
    seat: int
    ronin: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class RoninPaid(Named):
    TYPE: ClassVar[str] = PREFIX + "RoninPaid"
    seat: int
    ronin: int
    reason: str


def _count(key: str, sign: int) -> Any:
    def handler(state: dict[str, Any], payload: dict[str, Any]) -> None:
        state["players"][payload["seat"]][key] += sign * payload[key if key != "vp" else "points"]

    return handler


FOLDS(VictoryPointsScored.TYPE, mutates=("players",))(_count("vp", 1))
FOLDS(VictoryPointsLost.TYPE, mutates=("players",))(_count("vp", -1))
FOLDS(CoinsGained.TYPE, mutates=("players",))(_count("coins", 1))
FOLDS(CoinsPaid.TYPE, mutates=("players",))(_count("coins", -1))
FOLDS(RoninGained.TYPE, mutates=("players",))(_count("ronin", 1))
FOLDS(RoninPaid.TYPE, mutates=("players",))(_count("ronin", -1))


# ------------------------------------------------------------ figures


@dataclass(frozen=True, kw_only=True)
class FigurePlaced(Named):
    """From the reserve onto a province or a shrine (a Summon or a placement)."""

    TYPE: ClassVar[str] = PREFIX + "FigurePlaced"
    figure: str
    at: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class FigureMoved(Named):
    TYPE: ClassVar[str] = PREFIX + "FigureMoved"
    figure: str
    source: str
    destination: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class FigureKilled(Named):
    """Back to its owner's reserve from `at`."""

    TYPE: ClassVar[str] = PREFIX + "FigureKilled"
    figure: str
    at: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class FigureTakenHostage(Named):
    TYPE: ClassVar[str] = PREFIX + "FigureTakenHostage"
    figure: str
    at: str
    captor: int


@FOLDS(FigurePlaced.TYPE, mutates=("figures",))
def _placed(state: dict[str, Any], payload: dict[str, Any]) -> None:
    state["figures"][payload["figure"]]["at"] = payload["at"]


@FOLDS(FigureMoved.TYPE, mutates=("figures",))
def _moved(state: dict[str, Any], payload: dict[str, Any]) -> None:
    state["figures"][payload["figure"]]["at"] = payload["destination"]


@FOLDS(FigureKilled.TYPE, mutates=("figures",))
def _killed(state: dict[str, Any], payload: dict[str, Any]) -> None:
    state["figures"][payload["figure"]]["at"] = "reserve"


@FOLDS(FigureTakenHostage.TYPE, mutates=("figures",))
def _hostage(state: dict[str, Any], payload: dict[str, Any]) -> None:
    state["figures"][payload["figure"]]["at"] = f"hostage:{payload['captor']}"


# ------------------------------------------------------------ Honor, cards, board


@dataclass(frozen=True, kw_only=True)
class HonorChanged(Named):
    """`seat` moved on the Honor track (`change`: gained, lost, to_top); `order`
    is the whole track after it, highest first."""

    TYPE: ClassVar[str] = PREFIX + "HonorChanged"
    seat: int
    change: str
    order: list[int]


@FOLDS(HonorChanged.TYPE, mutates=("honor",))
def _honor(state: dict[str, Any], payload: dict[str, Any]) -> None:
    state["honor"] = list(payload["order"])


@dataclass(frozen=True, kw_only=True)
class SeasonCardsDealt(Named):
    """The season's cards, face up (`cards` empty: the display is cleared)."""

    TYPE: ClassVar[str] = PREFIX + "SeasonCardsDealt"
    cards: list[str]


@FOLDS(SeasonCardsDealt.TYPE, mutates=("display",))
def _dealt(state: dict[str, Any], payload: dict[str, Any]) -> None:
    state["display"] = list(payload["cards"])


@dataclass(frozen=True, kw_only=True)
class CardGained(Named):
    """A season card taken from the display (its price is a `CoinsPaid`)."""

    TYPE: ClassVar[str] = PREFIX + "CardGained"
    seat: int
    card: str
    reason: str


@FOLDS(CardGained.TYPE, mutates=("display", "players"))
def _card(state: dict[str, Any], payload: dict[str, Any]) -> None:
    state["display"].remove(payload["card"])
    state["players"][payload["seat"]]["cards"].append(payload["card"])


@dataclass(frozen=True, kw_only=True)
class MonsterRecruited(Named):
    """A bought monster card's figure, into its owner's reserve."""

    TYPE: ClassVar[str] = PREFIX + "MonsterRecruited"
    seat: int
    figure: str
    name: str


@FOLDS(MonsterRecruited.TYPE, mutates=("figures",))
def _monster(state: dict[str, Any], payload: dict[str, Any]) -> None:
    figure = {"owner": payload["seat"], "type": "monster", "name": payload["name"], "at": "reserve"}
    state["figures"][payload["figure"]] = figure


@dataclass(frozen=True, kw_only=True)
class StrongholdBuilt(Named):
    TYPE: ClassVar[str] = PREFIX + "StrongholdBuilt"
    seat: int
    province: str


@FOLDS(StrongholdBuilt.TYPE, mutates=("players",))
def _stronghold(state: dict[str, Any], payload: dict[str, Any]) -> None:
    state["players"][payload["seat"]]["strongholds"].append(payload["province"])


@dataclass(frozen=True, kw_only=True)
class StrongholdMoved(Named):
    """A Turtle Stronghold marshalled like a figure."""

    TYPE: ClassVar[str] = PREFIX + "StrongholdMoved"
    seat: int
    source: str
    destination: str


@FOLDS(StrongholdMoved.TYPE, mutates=("players",))
def _stronghold_moved(state: dict[str, Any], payload: dict[str, Any]) -> None:
    strongholds = state["players"][payload["seat"]]["strongholds"]
    strongholds.remove(payload["source"])
    strongholds.append(payload["destination"])


@dataclass(frozen=True, kw_only=True)
class WarTokenWon(Named):
    TYPE: ClassVar[str] = PREFIX + "WarTokenWon"
    seat: int
    province: str
    season: str


@FOLDS(WarTokenWon.TYPE, mutates=("players",))
def _token(state: dict[str, Any], payload: dict[str, Any]) -> None:
    state["players"][payload["seat"]]["war_tokens"].append([payload["province"], payload["season"]])


# ------------------------------------------------------------ alliances


@dataclass(frozen=True, kw_only=True)
class AllianceFormed(Named):
    """`seats` (two) are allied; the season counts for Form of the Kindred."""

    TYPE: ClassVar[str] = PREFIX + "AllianceFormed"
    seats: list[int]
    season: str


@FOLDS(AllianceFormed.TYPE, mutates=("alliances", "players"))
def _formed(state: dict[str, Any], payload: dict[str, Any]) -> None:
    first, second = payload["seats"]
    state["alliances"][first], state["alliances"][second] = second, first
    for seat in (first, second):
        state["players"][seat]["alliance_seasons"].append(payload["season"])


@dataclass(frozen=True, kw_only=True)
class AllianceBroken(Named):
    TYPE: ClassVar[str] = PREFIX + "AllianceBroken"
    seats: list[int]
    reason: str  # "betray"


@FOLDS(AllianceBroken.TYPE, mutates=("alliances",))
def _broken(state: dict[str, Any], payload: dict[str, Any]) -> None:
    for seat in payload["seats"]:
        state["alliances"][seat] = None


@dataclass(frozen=True, kw_only=True)
class AlliancesEnded(Named):
    """Every alliance ends (a new season begins)."""

    TYPE: ClassVar[str] = PREFIX + "AlliancesEnded"
    season: str


@FOLDS(AlliancesEnded.TYPE, mutates=("alliances",))
def _ended(state: dict[str, Any], payload: dict[str, Any]) -> None:
    state["alliances"] = [None] * state["player_count"]


NAMED: tuple[type[Named], ...] = (
    VictoryPointsScored,
    VictoryPointsLost,
    CoinsGained,
    CoinsPaid,
    RoninGained,
    RoninPaid,
    FigurePlaced,
    FigureMoved,
    FigureKilled,
    FigureTakenHostage,
    HonorChanged,
    SeasonCardsDealt,
    CardGained,
    MonsterRecruited,
    StrongholdBuilt,
    StrongholdMoved,
    WarTokenWon,
    AllianceFormed,
    AllianceBroken,
    AlliancesEnded,
)
NAMED_TYPES = frozenset(c.TYPE for c in NAMED)
MATERIAL = ("players", "figures", "honor", "display", "alliances")
"""The state keys only named facts change from version 6 (setup aside)."""


# ------------------------------------------------------------ the batch's other events


@dataclass(frozen=True, kw_only=True)
class GameSetUp(Named):
    """Public: the clans and the board before the first season (`board`: an
    outcome of facts.py, placed without rules code)."""

    TYPE: ClassVar[str] = PREFIX + "GameSetUp"
    VERSION: ClassVar[int] = 3
    clans: list[str]
    season_set: str
    shrines: list[str]
    board: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class CommandApplied(Named):
    """Public: who did what (the log's words); its effects are the facts after it."""

    TYPE: ClassVar[str] = PREFIX + "CommandApplied"
    VERSION: ClassVar[int] = 3
    seat: int
    cmd: dict[str, Any]
    reveals: list[dict[str, Any]] | None = None


@dataclass(frozen=True, kw_only=True)
class MandatePlayed(Named):
    TYPE: ClassVar[str] = PREFIX + "MandatePlayed"
    VERSION: ClassVar[int] = 3
    seat: int
    declared: str
    reveals: list[dict[str, Any]] | None = None  # the tile, unless Lotus's face-down one


@dataclass(frozen=True, kw_only=True)
class WarBidsRevealed(Named):
    TYPE: ClassVar[str] = PREFIX + "WarBidsRevealed"
    VERSION: ClassVar[int] = 3
    province: str
    reveals: list[dict[str, Any]]


@dataclass(frozen=True, kw_only=True)
class GiftGiven(Named):
    TYPE: ClassVar[str] = PREFIX + "GiftGiven"
    VERSION: ClassVar[int] = 3
    seat: int
    cmd: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class PositionChanged(Named):
    """Where the game now stands, last in a batch (so every state between a
    batch's events is one the flow can read): the step machine's frames (the
    bottom `keep` stay, `push` follows: whose turn, which step, which prompt) and
    `outcome`, the public bookkeeping no named fact states (season, phase, war
    provinces, mandate holder, the battle without its unrevealed bids,
    commitment count, Winter, result) in the words of facts.py."""

    TYPE: ClassVar[str] = PREFIX + "PositionChanged"
    keep: int | None = None
    push: list[dict[str, Any]] | None = None
    outcome: dict[str, Any] | None = None


HEADERS: dict[str, type[Named]] = {
    c.TYPE: c for c in (GameSetUp, CommandApplied, MandatePlayed, WarBidsRevealed, GiftGiven)
}
"""The public event that says what a batch is (the others follow it)."""
