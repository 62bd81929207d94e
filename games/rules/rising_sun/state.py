"""The state: one plain dict of lists/dicts/ints/strs (compares by value, pickles),
described by the `TypedDict`s below in the words the view uses too.

`evolve` copies it (`clone`) before changing anything, so callers below may mutate
the dict they are given: they always work on a private copy.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, NotRequired, TypedDict

from ..kit import deep_copy, position
from .data import CARDS, CLANS, MONSTERS, ONI
from .named import (
    CoinsGained,
    CoinsPaid,
    HonorChanged,
    RoninGained,
    RoninPaid,
    VictoryPointsLost,
    VictoryPointsScored,
    emit,
)


class Figure(TypedDict):
    owner: int
    type: str  # daimyo, bushi, shinto or monster
    name: str  # a monster's name; else the same as `type`
    at: str  # a province, "shrine:<Kami>", "reserve" or "hostage:<captor seat>"


class Player(TypedDict):
    coins: int
    ronin: int
    vp: int
    cards: list[str]
    war_tokens: list[list[str]]  # [province, season]
    alliance_seasons: list[str]  # seasons in which the player formed an alliance
    strongholds: list[str]  # provinces (a Turtle may stack two in one)


class PlayedTile(TypedDict):
    """A mandate tile on the 3-2-2 track (Lotus's may be face down)."""

    seat: int
    tile: str
    key: str  # its commitment
    salt: str
    face_down: bool
    mandate: str | None  # the declared mandate, once played


Proposal = TypedDict("Proposal", {"from": int, "to": int, "key": str, "salt": str})


Advantage = Literal["seppuku", "hostage", "ronin", "poets"]
ADVANTAGES: tuple[Advantage, ...] = ("seppuku", "hostage", "ronin", "poets")  # left to right


class Bid(TypedDict):
    seppuku: int
    hostage: int
    ronin: int
    poets: int
    key: str  # its commitment
    salt: str


class Battle(TypedDict):
    province: str
    participants: list[int]  # fixed when the province's war starts
    bids: dict[str, Bid]  # by str(seat)
    revealed: bool
    hired_ronin: dict[str, int]  # by str(seat)
    killed: int
    souls: list[int]  # owners of an Oni of Souls taking part
    winner: int | None


class Result(TypedDict):
    winners: list[int]
    scores: dict[str, int]  # VP by str(seat)


Frame = position.Frame
"""One step of the game position (the kit's `position`, driven by flow.py): `kind`
names it, its other fields depend on the kind (`seat`, `step`, `options`, `what`...)."""


class State(TypedDict):
    """Before setup only `secret_draws`, `result`, `position`, `phase` and
    `rules_version` exist (`"player_count" not in state`)."""

    rules_version: NotRequired[int]  # absent in states of version-2 engines
    phase: str  # setup, tea, politics, war, winter, over
    result: Result | None
    position: list[Frame]  # the kit's Position: frames, the one to settle now on top
    secret_draws: list[list[str]]  # secret deck orders waiting for their public event
    player_count: NotRequired[int]
    clans: NotRequired[list[str]]  # by seat
    seating: NotRequired[list[int]]  # clockwise = ascending starting-Honor rank
    honor: NotRequired[list[int]]  # seats, index 0 = highest Honor
    players: NotRequired[list[Player]]  # by seat
    figures: NotRequired[dict[str, Figure]]  # by figure id
    shrines: NotRequired[list[str]]  # the 4 Kami in play
    season_set: NotRequired[str]
    season: NotRequired[int]  # 0..2, 3 = Winter
    display: NotRequired[list[str]]  # face-up season cards
    mandate_deck: NotRequired[list[str]]  # index 0 = top
    track: NotRequired[list[PlayedTile]]
    holder: NotRequired[int]  # the next mandate drawer
    alliances: NotRequired[list[int | None]]  # each seat's ally
    proposals: NotRequired[list[Proposal]]  # open in the Tea Ceremony
    closed_proposals: NotRequired[list[Proposal]]  # v3: never accepted, revealed at the end
    war_provinces: NotRequired[list[str]]  # this season's, in war order
    battle: NotRequired[Battle | None]
    commit_count: NotRequired[int]  # numbers commitment keys
    lotus_tiles: NotRequired[list[PlayedTile]]  # face-down tiles of past seasons
    winter: NotRequired[dict[str, dict[str, int]] | None]  # Winter VP by str(seat) and source


def clone(state: State) -> State:
    """A full deep copy (the kit's `deep_copy`)."""
    return deep_copy(state)


def top(state: State) -> Frame | None:
    """The frame to settle now (the kit's `position.top`), None when nothing is pending."""
    return position.top(state)


def current_battle(state: State) -> Battle:
    """The battle being fought (the flow only asks for it during one)."""
    b = state.get("battle")
    if b is None:
        raise RuntimeError("no battle is being fought")  # a flow bug, not a rule
    return b


def version(state: State) -> int:
    """The rules version the game started under (see rules.py). States made by
    version 2 engines (old snapshots) have no such key."""
    return state.get("rules_version", 2)


# --------------------------------------------------------------------- cards


def copies(state: State, seat: int, card: str) -> int:
    return state["players"][seat]["cards"].count(card)


def clan(state: State, seat: int) -> str:
    return state["clans"][seat]


def left_of(state: State, seat: int) -> int:
    seating = state["seating"]
    return seating[(seating.index(seat) + 1) % len(seating)]


def clockwise_from_left(state: State, seat: int) -> list[int]:
    """Everybody, starting left of `seat`, `seat` last."""
    seating = state["seating"]
    i = seating.index(seat)
    return [seating[(i + k) % len(seating)] for k in range(1, len(seating) + 1)]


# --------------------------------------------------------------------- honor


def rank(state: State, seat: int) -> int:
    return state["honor"].index(seat)


def higher(state: State, seat: int, other: int) -> bool:
    """a has more Honor than b."""
    return state["honor"].index(seat) < state["honor"].index(other)


def by_honor(state: State, seats: Iterable[int]) -> list[int]:
    return sorted(seats, key=lambda seat: state["honor"].index(seat))


def gain_honor(state: State, seat: int) -> None:
    order = list(state["honor"])
    i = order.index(seat)
    if i > 0:
        order[i - 1], order[i] = order[i], order[i - 1]
        emit(state, HonorChanged(seat=seat, change="gained", order=order))


def lose_honor(state: State, seat: int) -> None:
    order = list(state["honor"])
    i = order.index(seat)
    if i < len(order) - 1:
        order[i + 1], order[i] = order[i], order[i + 1]
        emit(state, HonorChanged(seat=seat, change="lost", order=order))


def honor_to_top(state: State, seat: int) -> None:
    order = [seat] + [other for other in state["honor"] if other != seat]
    if order != state["honor"]:
        emit(state, HonorChanged(seat=seat, change="to_top", order=order))


def best_by(state: State, scores: dict[int, int], minimum: int = 1) -> int | None:
    """Highest score (>= minimum), ties to the higher Honor."""
    cands = [p for p, v in scores.items() if v >= minimum]
    if not cands:
        return None
    return min(cands, key=lambda seat: (-scores[seat], state["honor"].index(seat)))


# --------------------------------------------------------------- VP / coins


def gain_vp(state: State, seat: int, amount: int, reason: str) -> None:
    """One gain instance (Loyalty adds +1 per copy while allied, once)."""
    if amount <= 0:
        return
    emit(state, VictoryPointsScored(seat=seat, points=amount, reason=reason))
    loyalty(state, seat)


def loyalty(state: State, seat: int) -> None:
    """The Loyalty part of one VP gain instance (alone: its VP were moved one by one)."""
    bonus = copies(state, seat, "Loyalty")
    if state["alliances"][seat] is not None and bonus:
        emit(state, VictoryPointsScored(seat=seat, points=bonus, reason="Loyalty"))


def lose_vp(state: State, seat: int, amount: int, reason: str) -> int:
    taken = min(amount, state["players"][seat]["vp"])
    if taken > 0:
        emit(state, VictoryPointsLost(seat=seat, points=taken, reason=reason))
    return taken


def gain_coins(state: State, seat: int, amount: int, reason: str) -> None:
    """Coins from the common supply: Way of the Merchant of poorer players
    triggers once per instance (its own gain does not re-trigger)."""
    if amount <= 0:
        return
    before = state["players"][seat]["coins"]
    emit(state, CoinsGained(seat=seat, coins=amount, reason=reason))
    for q in by_honor(state, range(state["player_count"])):
        k = copies(state, q, "Way of the Merchant")
        if q != seat and k and state["players"][q]["coins"] < before:
            emit(state, CoinsGained(seat=q, coins=k, reason="Way of the Merchant"))


def gain_coins_together(state: State, gains: dict[int, int], reason: str) -> None:
    """Several players gain coins from the supply at the same moment (hostage
    return): every gain is compared with the coins held before the step, so the
    result does not depend on an order (Way of the Merchant)."""
    before = [p["coins"] for p in state["players"]]
    for seat, n in gains.items():
        if n > 0:
            emit(state, CoinsGained(seat=seat, coins=n, reason=reason))
    for seat, n in gains.items():
        if n <= 0:
            continue
        for q in range(state["player_count"]):
            k = copies(state, q, "Way of the Merchant")
            if q != seat and k and before[q] < before[seat]:
                emit(state, CoinsGained(seat=q, coins=k, reason="Way of the Merchant"))


def pay_coins(state: State, seat: int, amount: int, reason: str) -> None:
    """Coins back to the supply (a price, a bid, the season's end)."""
    if amount > 0:
        emit(state, CoinsPaid(seat=seat, coins=amount, reason=reason))


def give_coins(state: State, giver: int, receiver: int, amount: int, reason: str) -> None:
    """Coins handed from one player to another (not from the supply: no Merchant)."""
    if amount > 0:
        emit(state, CoinsPaid(seat=giver, coins=amount, reason=reason))
        emit(state, CoinsGained(seat=receiver, coins=amount, reason=reason))


def gain_ronin(state: State, seat: int, amount: int, reason: str) -> None:
    if amount > 0:
        emit(state, RoninGained(seat=seat, ronin=amount, reason=reason))


def pay_ronin(state: State, seat: int, amount: int, reason: str) -> None:
    if amount > 0:
        emit(state, RoninPaid(seat=seat, ronin=amount, reason=reason))


def pay_cost(state: State, seat: int, cost: int, discount: int = 0) -> int:
    """Actual price: Bonsai caps at 1, then discounts (rulebook order)."""
    if clan(state, seat) == "Bonsai":
        cost = min(cost, 1)
    return max(0, cost - discount)


# ------------------------------------------------------------------- figures


def figs_at(state: State, loc: str, owner: int | None = None) -> list[str]:
    return [
        fid
        for fid, f in state["figures"].items()
        if f["at"] == loc and (owner is None or f["owner"] == owner)
    ]


def reserve(state: State, seat: int) -> list[str]:
    return figs_at(state, "reserve", seat)


def kind_of(figure: Figure) -> str:
    return figure["name"] if figure["type"] == "monster" else figure["type"]


def is_daimyo_like(figure: Figure) -> bool:
    return figure["type"] == "daimyo" or figure["name"] == "Yurei"


def matches_type(figure: Figure, want: str) -> bool:
    """Same-type rule (Betray, Path of the Light...): Komainu counts as both
    Shinto and Monster; any monster matches any monster."""
    if want == "monster":
        return figure["type"] == "monster"
    if want == "shinto":
        return figure["type"] == "shinto" or figure["name"] == "Komainu"
    return figure["type"] == want


def type_classes(figure: Figure) -> list[str]:
    if figure["name"] == "Komainu":
        return ["monster", "shinto"]
    return [figure["type"]]


def turtle_strongholds(state: State, seat: int, prov: str) -> int:
    if clan(state, seat) != "Turtle":
        return 0
    return state["players"][seat]["strongholds"].count(prov)


def present(state: State, prov: str) -> list[int]:
    """Clans with Force >= 1 in a province (every figure has Force >= 1)."""
    out = {f["owner"] for f in state["figures"].values() if f["at"] == prov}
    out |= {p for p in range(state["player_count"]) if turtle_strongholds(state, p, prov)}
    return by_honor(state, out)


def _lowest(state: State, seat: int, prov: str) -> bool:
    b = state.get("battle")
    comp = b["participants"] if b and b["province"] == prov else present(state, prov)
    if seat not in comp or len(comp) < 2:
        return False
    return by_honor(state, comp)[-1] == seat


def fig_force(state: State, figure: Figure, prov: str) -> int:
    owner = figure["owner"]
    lion = copies(state, owner, "Path of the Lion") + 3 * copies(state, owner, "Path of the Dragon")
    if figure["type"] == "daimyo":
        return 1 + lion
    if figure["type"] == "bushi":
        return 2 if state["phase"] == "war" and copies(state, owner, "Way of the Katana") else 1
    if figure["type"] == "shinto":
        return 1
    name = figure["name"]
    if name == "Yurei":
        return 2 + lion
    if name == "Oni of Skulls":
        return 3 if _lowest(state, owner, prov) else 1
    if name == "Oni of Blood":
        return 4 if _lowest(state, owner, prov) else 2
    return int(CARDS[name].get("force", 1))


def force(state: State, seat: int, prov: str) -> int:
    total = sum(
        fig_force(state, f, prov) for f in state["figures"].values() if f["at"] == prov and f["owner"] == seat
    )
    total += turtle_strongholds(state, seat, prov)
    b = state.get("battle")
    if b and b["province"] == prov:
        total += b["hired_ronin"].get(str(seat), 0)
    return total


def owned_monsters(state: State, seat: int, oni_only: bool = False) -> int:
    names = ONI if oni_only else MONSTERS
    return sum(1 for f in state["figures"].values() if f["owner"] == seat and f["name"] in names)


def new_player(clan_name: str) -> Player:
    return {
        "coins": 0,
        "ronin": 0,
        "vp": 0,
        "cards": [],
        "war_tokens": [],
        "alliance_seasons": [],
        "strongholds": [CLANS[clan_name]["home"]],
    }
