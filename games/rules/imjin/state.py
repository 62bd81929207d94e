"""The game state: one JSON-like dict (value equality, picklable, easy to redact).

Why, with the measurements and history: docs/modules.md, `games/rules/imjin/state.py`.
"""

from __future__ import annotations

from typing import Any, TypedDict, TypeVar

from games.rules.kit import deep_copy, position
from games.rules.kit.position import Frame

from . import data


class Unit(TypedDict):
    owner: int
    area: str
    troops: int
    general: str | None


class GeneralRecord(TypedDict):
    owner: int
    where: str  # "map" | "hand" | "dead"
    unit: str | None
    damage: int


class Secret(TypedDict):
    key: str
    salt: str


class Deck(TypedDict):
    size: int
    drawn: int
    pool: list[str]
    reset_in: bool


class TimedEffect(TypedDict):
    card: str
    left: int


class Taunt(TypedDict):
    unit: str
    general: str


class Result(TypedDict):
    winners: list[int]
    reason: str
    scores: dict[str, float]


Prompt = dict[str, Any]
"""One decision of the queue, a position frame: ``kind``, ``seat`` (``seats`` for the
setup pick) and the kind's own data (see the README's command table)."""
Act = dict[str, Any]
"""Scratch of the current action: battles, used/moved/immune units, rolling dice..."""


class State(TypedDict, total=False):
    """The whole game (``{"stage": "new"}`` before `GameSetUp`)."""

    rules_version: int
    stage: str
    n: int
    faction: list[str]
    side: list[str]
    order: list[int]
    options: dict[str, Any]
    supply: list[int]
    wheel: dict[str, int]
    control: dict[str, str]
    units: dict[str, Unit]
    next_uid: int
    generals: dict[str, GeneralRecord]
    hands: list[list[str]]
    secrets: list[dict[str, Secret]]
    picks: list[list[str]]
    legendary: dict[str, str | None]
    killed: dict[str, list[str]]
    deck: Deck
    resets: int
    timed: list[TimedEffect]
    last_card: str | None
    revealed: list[str]
    taunt: Taunt | None
    last_battle: dict[str, Any] | None
    ending: bool
    result: Result | None
    position: list[Frame]
    act: Act


SIDES = ("japan", "allies")

T = TypeVar("T")

RULES_VERSION = 4
"""The current rules version. A game's state carries the version it was started
under (`GameSetUp` writes it from version 3 on; older tables lack the key and are
version 2), so decide and legal_commands keep an old game's rules — in replay and
in live play alike."""
LEGACY_VERSION = 2


def rules_version(state: State) -> int:
    v = state.get("rules_version", LEGACY_VERSION)
    return v if isinstance(v, int) else LEGACY_VERSION


def copy(value: T) -> T:
    """A deep copy (the kit's `deep_copy`)."""
    return deep_copy(value)


def initial() -> State:
    return {"stage": "new"}


def other(side: str) -> str:
    return "allies" if side == "japan" else "japan"


def side_seats(state: State, side: str) -> list[int]:
    return [s for s in state["order"] if state["side"][s] == side]


def four(state: State) -> bool:
    return state["n"] == 4


def units_in(state: State, area: str) -> list[str]:
    return sorted((u for u, d in state["units"].items() if d["area"] == area), key=uid_key)


def uid_key(uid: str) -> int:
    return int(uid[1:])


def unit_side(state: State, uid: str) -> str:
    return state["side"][state["units"][uid]["owner"]]


def side_in(state: State, area: str) -> str | None:
    """The side whose units stand in an area (enemies never share one)."""
    for d in state["units"].values():
        if d["area"] == area:
            return state["side"][d["owner"]]
    return None


def general_of(state: State, uid: str) -> str | None:
    return state["units"][uid]["general"]


def leader(state: State, uid: str) -> str:
    """The general of a unit known to have one."""
    gid = state["units"][uid]["general"]
    assert gid is not None, f"{uid} has no general"
    return gid


def unit_of(state: State, gid: str) -> str:
    """The unit a general on the map leads."""
    uid = state["generals"][gid]["unit"]
    assert uid is not None, f"{gid} is not on the map"
    return uid


def hp_left(state: State, gid: str) -> int:
    return int(data.generals()[gid]["hp"]) - state["generals"][gid]["damage"]


def troop_cap(state: State, uid: str) -> int:
    lim = data.rules()["limits"]
    if state["units"][uid]["general"] == "mori_hidemoto":
        return int(lim["mori_troops_per_unit"])
    return int(lim["troops_per_unit"])


def troops_on_map(state: State, side: str) -> int:
    return sum(d["troops"] for d in state["units"].values() if state["side"][d["owner"]] == side)


def reserve(state: State, side: str) -> int:
    return int(data.rules()["limits"]["troops_per_side_on_map"]) - troops_on_map(state, side)


def new_unit_room(state: State, seat: int) -> int:
    """How many more units this seat may form (component limit). 2p: units carry no
    token, so only discs and stacking limit them. 4p: army labels — at most 25 − 1
    units per army (its supply marker uses one army-backed token) and 50 − 4 per side."""
    if state["n"] != 4:
        return 1_000
    lim = data.rules()["limits"]
    side = state["side"][seat]
    own = sum(1 for d in state["units"].values() if d["owner"] == seat)
    team = sum(1 for d in state["units"].values() if state["side"][d["owner"]] == side)
    per_army = int(lim["army_labels_4p"]) - int(lim["army_face_markers_4p"])
    per_side = 2 * per_army - int(lim["faction_face_markers_4p"])
    return max(0, min(per_army - own, per_side - team))


def controller(state: State, area: str) -> str | None:
    """Who controls an area now: lands by last occupation; home seas belong to their
    owner except while only enemy units stand there; ordinary seas to nobody."""
    info = data.areas()[area]
    if info["type"] == "land":
        return state["control"].get(area)
    if info.get("special") is None:
        return None
    owner = "japan" if info["special"] == "japan_home" else "allies"
    present = side_in(state, area)
    return present if present is not None else owner


def income(state: State, side: str) -> int:
    total = 0
    for a, info in data.areas().items():
        if info["supply"] and controller(state, a) == side:
            total += info["supply"]
    return min(total, 50)


def lands_of(state: State, side: str) -> int:
    return sum(1 for a in data.lands() if state["control"].get(a) == side)


def timed_active(state: State, card: str) -> bool:
    return any(t["card"] == card for t in state["timed"])


def is_pending_turn(state: State, seat: int) -> bool:
    return stage(state).get("seat") == seat


def team_chooser(state: State, side: str) -> int:
    """Who decides for a side ("the team-mates decide together"): the turn player
    if on that side, else that side's first seat after the turn player in play order."""
    turn = int(stage(state).get("turn", state["order"][0]))
    if state["side"][turn] == side:
        return turn
    order = state["order"]
    i = order.index(turn)
    for k in range(1, len(order) + 1):
        s = order[(i + k) % len(order)]
        if state["side"][s] == side:
            return s
    raise AssertionError("no seat on side")


def adjacent(area: str, other: str) -> bool:
    return other in data.adjacency()[area]


def enemy_units(state: State, area: str, side: str) -> list[str]:
    return [u for u in units_in(state, area) if unit_side(state, u) != side]


def unit_view(state: State, uid: str) -> dict[str, Any]:
    d = dict(state["units"][uid])
    d["id"] = uid
    return d


# -- the position: the stage frame at the bottom, the prompt queue above it ------


def stage(state: State) -> Frame:
    """The bottom frame: the stage (`kind` "setup" or "turn") and the turn's step data."""
    bottom = position.base(state)
    assert bottom is not None, "the game has no position before it is set up"
    return bottom


def prompts(state: State) -> list[Prompt]:
    """The prompt queue, head first (the frames above the stage, top first)."""
    return list(reversed(position.frames(state)[1:]))


def head_prompt(state: State) -> Prompt:
    """The prompt at the head of the queue (the top frame; one is known to be there)."""
    stack = position.frames(state)
    assert len(stack) > 1, "no prompt is queued"
    return stack[-1]


def flow_record(state: State) -> dict[str, Any]:
    """The stage frame as the `flow` record that versions 1-3 write into FlowChanged."""
    bottom = dict(stage(state))
    return {"stage": bottom.pop("kind"), **bottom}


def stage_frame(flow: dict[str, Any]) -> Frame:
    """The stage frame of a `flow` record (GameSetUp's table, FlowChanged)."""
    rest = {key: value for key, value in flow.items() if key != "stage"}
    return position.frame(str(flow["stage"]), **rest)


def set_prompts(state: State, queue: list[Prompt]) -> None:
    """Replace the prompt queue (head first) above the stage frame."""
    state["position"] = [stage(state), *reversed(queue)]
