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


def clone(s: State) -> State:
    """A full deep copy (the kit's `deep_copy`)."""
    return deep_copy(s)


def top(state: State) -> Frame | None:
    """The frame to settle now (the kit's `position.top`), None when nothing is pending."""
    return position.top(state)


def current_battle(s: State) -> Battle:
    """The battle being fought (the flow only asks for it during one)."""
    b = s.get("battle")
    if b is None:
        raise RuntimeError("no battle is being fought")  # a flow bug, not a rule
    return b


def version(s: State) -> int:
    """The rules version the game started under (see rules.py). States made by
    version 2 engines (old snapshots) have no such key."""
    return s.get("rules_version", 2)


# --------------------------------------------------------------------- cards


def copies(s: State, seat: int, card: str) -> int:
    return s["players"][seat]["cards"].count(card)


def clan(s: State, seat: int) -> str:
    return s["clans"][seat]


def left_of(s: State, seat: int) -> int:
    seating = s["seating"]
    return seating[(seating.index(seat) + 1) % len(seating)]


def clockwise_from_left(s: State, seat: int) -> list[int]:
    """Everybody, starting left of `seat`, `seat` last."""
    seating = s["seating"]
    i = seating.index(seat)
    return [seating[(i + k) % len(seating)] for k in range(1, len(seating) + 1)]


# --------------------------------------------------------------------- honor


def rank(s: State, seat: int) -> int:
    return s["honor"].index(seat)


def higher(s: State, a: int, b: int) -> bool:
    """a has more Honor than b."""
    return s["honor"].index(a) < s["honor"].index(b)


def by_honor(s: State, seats: Iterable[int]) -> list[int]:
    return sorted(seats, key=lambda x: s["honor"].index(x))


def gain_honor(s: State, seat: int) -> None:
    h = s["honor"]
    i = h.index(seat)
    if i > 0:
        h[i - 1], h[i] = h[i], h[i - 1]


def lose_honor(s: State, seat: int) -> None:
    h = s["honor"]
    i = h.index(seat)
    if i < len(h) - 1:
        h[i + 1], h[i] = h[i], h[i + 1]


def honor_to_top(s: State, seat: int) -> None:
    s["honor"].remove(seat)
    s["honor"].insert(0, seat)


def best_by(s: State, scores: dict[int, int], minimum: int = 1) -> int | None:
    """Highest score (>= minimum), ties to the higher Honor."""
    cands = [p for p, v in scores.items() if v >= minimum]
    if not cands:
        return None
    return min(cands, key=lambda p: (-scores[p], s["honor"].index(p)))


# --------------------------------------------------------------- VP / coins


def gain_vp(s: State, seat: int, n: int) -> None:
    """One gain instance (Loyalty adds +1 per copy while allied, once)."""
    if n <= 0:
        return
    p = s["players"][seat]
    p["vp"] += n
    if s["alliances"][seat] is not None:
        p["vp"] += copies(s, seat, "Loyalty")


def loyalty(s: State, seat: int) -> None:
    """The Loyalty part of one VP gain instance whose VP were moved one by one."""
    if s["alliances"][seat] is not None:
        s["players"][seat]["vp"] += copies(s, seat, "Loyalty")


def lose_vp(s: State, seat: int, n: int) -> int:
    p = s["players"][seat]
    taken = min(n, p["vp"])
    p["vp"] -= taken
    return taken


def gain_coins(s: State, seat: int, n: int) -> None:
    """Coins from the common supply: Way of the Merchant of poorer players
    triggers once per instance (its own gain does not re-trigger)."""
    if n <= 0:
        return
    before = s["players"][seat]["coins"]
    s["players"][seat]["coins"] += n
    for q in by_honor(s, range(s["player_count"])):
        k = copies(s, q, "Way of the Merchant")
        if q != seat and k and s["players"][q]["coins"] < before:
            s["players"][q]["coins"] += k


def gain_coins_together(s: State, gains: dict[int, int]) -> None:
    """Several players gain coins from the supply at the same moment (hostage
    return): every gain is compared with the coins held before the step, so the
    result does not depend on an order (Way of the Merchant)."""
    before = [p["coins"] for p in s["players"]]
    for seat, n in gains.items():
        if n > 0:
            s["players"][seat]["coins"] += n
    for seat, n in gains.items():
        if n <= 0:
            continue
        for q in range(s["player_count"]):
            k = copies(s, q, "Way of the Merchant")
            if q != seat and k and before[q] < before[seat]:
                s["players"][q]["coins"] += k


def pay_cost(s: State, seat: int, cost: int, discount: int = 0) -> int:
    """Actual price: Bonsai caps at 1, then discounts (rulebook order)."""
    if clan(s, seat) == "Bonsai":
        cost = min(cost, 1)
    return max(0, cost - discount)


# ------------------------------------------------------------------- figures


def figs_at(s: State, loc: str, owner: int | None = None) -> list[str]:
    return [
        fid for fid, f in s["figures"].items() if f["at"] == loc and (owner is None or f["owner"] == owner)
    ]


def reserve(s: State, seat: int) -> list[str]:
    return figs_at(s, "reserve", seat)


def kind_of(f: Figure) -> str:
    return f["name"] if f["type"] == "monster" else f["type"]


def is_daimyo_like(f: Figure) -> bool:
    return f["type"] == "daimyo" or f["name"] == "Yurei"


def matches_type(f: Figure, want: str) -> bool:
    """Same-type rule (Betray, Path of the Light...): Komainu counts as both
    Shinto and Monster; any monster matches any monster."""
    if want == "monster":
        return f["type"] == "monster"
    if want == "shinto":
        return f["type"] == "shinto" or f["name"] == "Komainu"
    return f["type"] == want


def type_classes(f: Figure) -> list[str]:
    if f["name"] == "Komainu":
        return ["monster", "shinto"]
    return [f["type"]]


def turtle_strongholds(s: State, seat: int, prov: str) -> int:
    if clan(s, seat) != "Turtle":
        return 0
    return s["players"][seat]["strongholds"].count(prov)


def present(s: State, prov: str) -> list[int]:
    """Clans with Force >= 1 in a province (every figure has Force >= 1)."""
    out = {f["owner"] for f in s["figures"].values() if f["at"] == prov}
    out |= {p for p in range(s["player_count"]) if turtle_strongholds(s, p, prov)}
    return by_honor(s, out)


def _lowest(s: State, seat: int, prov: str) -> bool:
    b = s.get("battle")
    comp = b["participants"] if b and b["province"] == prov else present(s, prov)
    if seat not in comp or len(comp) < 2:
        return False
    return by_honor(s, comp)[-1] == seat


def fig_force(s: State, f: Figure, prov: str) -> int:
    owner = f["owner"]
    lion = copies(s, owner, "Path of the Lion") + 3 * copies(s, owner, "Path of the Dragon")
    if f["type"] == "daimyo":
        return 1 + lion
    if f["type"] == "bushi":
        return 2 if s["phase"] == "war" and copies(s, owner, "Way of the Katana") else 1
    if f["type"] == "shinto":
        return 1
    name = f["name"]
    if name == "Yurei":
        return 2 + lion
    if name == "Oni of Skulls":
        return 3 if _lowest(s, owner, prov) else 1
    if name == "Oni of Blood":
        return 4 if _lowest(s, owner, prov) else 2
    return int(CARDS[name].get("force", 1))


def force(s: State, seat: int, prov: str) -> int:
    total = sum(
        fig_force(s, f, prov) for f in s["figures"].values() if f["at"] == prov and f["owner"] == seat
    )
    total += turtle_strongholds(s, seat, prov)
    b = s.get("battle")
    if b and b["province"] == prov:
        total += b["hired_ronin"].get(str(seat), 0)
    return total


def owned_monsters(s: State, seat: int, oni_only: bool = False) -> int:
    names = ONI if oni_only else MONSTERS
    return sum(1 for f in s["figures"].values() if f["owner"] == seat and f["name"] in names)


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
