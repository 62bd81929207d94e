"""The game state: one plain dict of JSON-like values (dicts, lists, ints, strs, bools, None).

Why a dict and not nested frozen dataclasses: `evolve` makes a shallow copy, deep-copies
(the kit's `copy_on_write`) only the top-level entries the event's handler declares it
changes, mutates those and returns the copy - copy-on-write, so the input is never
touched (a test checks every event of whole games); states compare with ``==`` and
pickle as they are. Secret planned cards
and their salts live in ``plans`` (per seat), the tower's levels and their commitments
(rules version 4 on) in ``tower`` and ``tower_commits``; `view.py` is the only door out.

Why, with the measurements and history: docs/modules.md, `games/rules/shogun/state.py`.
"""

from __future__ import annotations

from typing import Any, TypedDict, cast

from games.rules.kit import deep_copy, position

from . import data

SEASONS = ("spring", "summer", "autumn", "winter")

Seat = int  # 0..4; the peasants' cubes are data.GREEN (-1) in tower lists
Payload = dict[str, Any]  # an event payload or command, as JSON-like builtins


class Province(TypedDict):
    owner: Seat | None
    armies: int
    castle: bool
    temple: bool
    theatre: bool
    markers: int  # revolt markers


class Player(TypedDict):
    money: int  # war chests
    rice: int
    vp: int  # victory points
    officials: int  # in his supply
    vestibule: int
    hall: int
    samurai: int  # his face-up Samurai card (1..4)
    fav4: bool  # favour #4 kept for the next marker on his provinces
    immune: list[str]  # Attack/Move letters that may not target him this season
    special: str | None  # this season's special card


class Tower(TypedDict):
    l1: list[int]  # cubes stuck on baffle level 1
    l2: list[int]  # cubes stuck on baffle level 2
    tray: list[int]


class TowerCommit(TypedDict):
    """One commitment of the cubes inside the tower (rules version 4, tower_secret.py)."""

    key: str  # tower:<throw number>
    choice: dict[str, list[int]]  # {l1, l2}
    salt: str


class PlanEntry(TypedDict):
    card: str | None
    salt: str


class Current(TypedDict):
    i: int  # index of the action being executed (0..9; 10 = done)
    j: int  # index in the turn order of the player revealing it
    sub: str | None  # his step: None (not revealed), "execute", "recruit", "move", "attack", "end"


class Round(TypedDict):
    actions: list[str]  # action cards face up, in execution order
    pool: list[str]  # action cards still face down
    specials: list[str]  # special cards on the turn-order slots 1..5
    favours: list[list[int]]  # [cost, card] in the audience hall
    cur: Current
    planned: list[bool]
    revealed: list[dict[str, Any]]  # per seat: space -> card, once public
    lost: list[list[Any]]  # [seat, province]: cards lost this season
    bids: list[int] | None
    queue: list[int]  # bid order of players still to choose a special card
    chosen: list[int | None]  # slot chosen per seat
    order: list[int]  # this season's turn order
    court_queue: list[int]


class Draft(TypedDict):
    first: Seat
    turn: int
    display: list[str]
    pool: list[str]
    bottom: list[str]
    villages: list[list[int]]
    last_offer: list[list[str] | None]
    offered: bool


class Winter(TypedDict):
    queue: list[Seat]  # starving players still to be struck
    seat: Seat | None
    left: list[str]  # his revolting provinces still to resolve
    extra: int


class Result(TypedDict):
    winners: list[Seat]
    scores: list[int]


class State(TypedDict, total=False):
    """Every key is present from `GameStarted` on (before it the state is {"position": []})."""

    position: list[dict[str, Any]]  # the kit's Position: one frame, whose kind is the phase
    opts: dict[str, Any]
    n: int  # number of players
    colours: list[str]
    year: int
    season: int
    in_play: list[str]
    provinces: dict[str, Province]
    players: list[Player]
    tiles: dict[str, int]
    tower: Tower
    tower_commits: list[TowerCommit]  # only in games whose tower is hidden (rules version 4 on)
    year_events: list[str]
    used_events: list[str]
    past_events: list[str]
    event: str | None
    event_cancelled: bool
    favour_pool: list[int]
    round: Round | None
    plans: list[dict[str, PlanEntry]] | None
    last_battle: dict[str, Any] | None
    famine: list[dict[str, Any]]
    last_scoring: list[dict[str, Any]] | None
    result: Result | None


def initial() -> State:
    """The state before `GameStarted`: nothing pending (phase "init")."""
    return {"position": []}


def phase_of(state: State) -> str:
    """The phase: the kind of the position's frame ("init" before the start, "over" at the end)."""
    current = position.base(state)
    if current is not None:
        return str(current["kind"])
    return "over" if state.get("result") is not None else "init"


def frame_of(state: State, kind: str) -> dict[str, Any] | None:
    """The position's frame when it is of `kind` (its fields carry the step's data), else None."""
    current = position.top(state)
    return current if current is not None and current["kind"] == kind else None


def enter(state: State, kind: str, **data: Any) -> None:
    """A new phase: the position becomes one frame of `kind` carrying `data` (a new list,
    so the state before keeps its own)."""
    position.start(raw(state), kind, **data)


def samurai_pending(state: State) -> list[Seat]:
    """The seats still to take a Samurai bonus (the `samurai` frame's `seats`)."""
    current = frame_of(state, "samurai")
    return [] if current is None else cast(list[Seat], current["seats"])


def round_of(state: State) -> Round:
    """The current season's round (set from the first season on)."""
    r = state["round"]
    assert r is not None, "no season is running"
    return r


def draft_of(state: State) -> Draft:
    """The draft: the fields of the `draft` frame."""
    current = frame_of(state, "draft")
    assert current is not None, "no draft is running"
    return cast(Draft, current)


def winter_step(state: State) -> Winter | None:
    """Winter's famine order (the `winter` frame's fields once the rice is lost), else None."""
    current = frame_of(state, "winter")
    return cast(Winter, current) if current is not None and "queue" in current else None


def winter_of(state: State) -> Winter:
    found = winter_step(state)
    assert found is not None, "it is not winter"
    return found


def plans_of(state: State) -> list[dict[str, PlanEntry]]:
    plans = state["plans"]
    assert plans is not None, "no season is running"
    return plans


def raw_province(province: Province) -> dict[str, Any]:
    """A province as a plain dict, for code that picks a building by name."""
    return cast(dict[str, Any], province)


def raw(state: State) -> dict[str, Any]:
    """The state as a plain dict, for code that addresses its entries by computed keys."""
    return cast(dict[str, Any], state)


def clone(value: Any) -> Any:
    """A deep copy (the kit's `deep_copy`)."""
    return deep_copy(value)


def on_map(state: State, seat: int) -> int:
    return sum(p["armies"] for p in state["provinces"].values() if p["owner"] == seat)


def in_tower(state: State, seat: int) -> int:
    t = state["tower"]
    return t["l1"].count(seat) + t["l2"].count(seat) + t["tray"].count(seat)


def inside(tower: Tower, players: int) -> dict[str, Any]:
    """The cubes stuck inside the tower per colour, as anyone at the table can count
    them: ``{seats: [count of seat 0, ...], green}``, never which level holds them."""
    stuck = tower["l1"] + tower["l2"]
    return {"seats": [stuck.count(seat) for seat in range(players)], "green": stuck.count(data.GREEN)}


def supply(state: State, seat: int) -> int:
    """Armies in the player's supply: 62 minus those on the map and in the tower."""
    return data.ARMIES - on_map(state, seat) - in_tower(state, seat)


def supplies(state: State) -> list[int]:
    """`supply` of every seat, in one pass over the map and the tower."""
    n = state["n"]
    used = [0] * n
    for p in state["provinces"].values():
        owner = p["owner"]
        if isinstance(owner, int) and 0 <= owner < n:
            used[owner] += p["armies"]
    t = state["tower"]
    for cube in (*t["l1"], *t["l2"], *t["tray"]):
        if isinstance(cube, int) and 0 <= cube < n:
            used[cube] += 1
    return [data.ARMIES - u for u in used]


def owned(state: State, seat: int) -> list[str]:
    return [n for n, p in state["provinces"].items() if p["owner"] == seat]


def buildings(prov: Province) -> list[str]:
    return [b for b in data.BUILDINGS if raw_province(prov)[b]]


def hand(state: State, seat: int) -> list[str]:
    """Cards a player may plan with: his province cards, chest cards, tower cards (court)."""
    cards = sorted(owned(state, seat)) + data.chest_cards()
    if state["opts"]["tennos_court"]:
        cards += data.tower_cards()
    return cards


def spaces(state: State) -> list[str]:
    out = list(data.ACTION_IDS) + ["bid"]
    if state["opts"]["tennos_court"]:
        out += data.COURT_SPACES
    return out


def event(state: State) -> dict[str, Any]:
    """The season event's data, or {} when none applies (winter, cancelled by favour #1)."""
    ev = state.get("event")
    if ev is None or state.get("event_cancelled") or state.get("season", 3) >= 3:
        return {}
    return data.EVENTS[ev]


def special(state: State, seat: int) -> dict[str, Any]:
    sid = state["players"][seat]["special"]
    return data.SPECIALS[sid] if sid else {}


def region_of(state: State, prov: str) -> str:
    return data.regions(state["opts"]["board"])[prov]


def plan_card(state: State, seat: int, space: str) -> str | None:
    plan = plans_of(state)[seat]
    entry = plan.get(space) if plan else None
    return None if entry is None else entry["card"]


def planned_province(state: State, seat: int, space: str) -> str:
    """The province card on a space whose action is under way (it is one by then)."""
    card = plan_card(state, seat, space)
    assert card is not None and data.is_province(card), f"{space} holds no province card"
    return card


def card_lost(state: State, seat: int, prov: str) -> bool:
    return [seat, prov] in round_of(state)["lost"]


def can_build(state: State, seat: int, prov: str, kind: str) -> bool:
    """Normal building rules: own province, free site, one of each type, a tile left."""
    p = state["provinces"].get(prov)
    if p is None or p["owner"] != seat or raw_province(p)[kind] or state["tiles"][kind] <= 0:
        return False
    return len(buildings(p)) < int(data.PROVINCES[prov]["sites"])


def protected(state: State, attacker: int, prov: str, letter: str) -> bool:
    """May `attacker` not target `prov` with Attack/Move `letter`? Temple event and the
    immunity favours protect only other players' provinces (Appendix R #8, #24)."""
    p = state["provinces"][prov]
    owner = p["owner"]
    if owner is None or owner == attacker:
        return False
    if event(state).get("effect") == "temple_immune" and p["temple"]:
        return True
    return letter in state["players"][owner]["immune"]
