"""Rule-based Rising Sun decisions for the `heuristic` bot (`decide`): where to
summon, move, build and betray (each option priced by the expected war VP it
adds, board.Table), the battle prompts, Shrines. War bids are in bids.py,
mandates, cards and the Tea Ceremony in mandates.py. A decision these rules do
not cover returns None: the generic one-ply lookahead takes it."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, cast

from games.bots.base import InfoSet
from games.rules.base import LegalSet
from games.rules.rising_sun.data import CARDS, TRACK
from games.rules.rising_sun.state import pay_cost

from . import bids, mandates
from .board import Table

Command = dict[str, Any]
SHINTO_KEPT = 0.05  # a Shinto summoned to a province could have gone to a Shrine: prefer a Bushi
MOVE_MIN = 0.05  # a move must gain at least this much expected VP, else the Marshal stops
# VP-equivalent of one Kami gift (Susanoo: its VP are the seat's Strongholds)
KAMI = {"Amaterasu": 0.8, "Fujin": 1.5, "Hachiman": 0.8, "Raijin": 1.5, "Ryujin": 1.5, "Tsukuyomi": 0.9}


def decide(
    view: Mapping[str, Any], seat: int, legal: LegalSet, rng: random.Random, worlds: InfoSet
) -> Command | None:
    kind = _pending_kind(view, seat)
    rule = RULES.get(kind)
    if rule is None:
        return None
    # the legal commands are the engine's plain command dicts
    return rule(view, seat, cast(list[Command], list(legal.commands)))


def _pending_kind(view: Mapping[str, Any], seat: int) -> str:
    prompt = view.get("prompt")
    if prompt is not None:
        return str(prompt["what"])
    return next((str(p["kind"]) for p in view["pending"] if p["seat"] == seat), "")


def _best(scored: list[tuple[float, Command]]) -> tuple[float, Command] | None:
    return max(scored, key=lambda x: x[0]) if scored else None


def _done(cmds: list[Command]) -> Command | None:
    return next((c for c in cmds if c["type"] == "done"), None)


# ------------------------------------------------------------ summons


def shrine_gain(view: Mapping[str, Any], seat: int, shrine: str) -> float:
    """Expected VP of one more of the seat's figures on a Shrine this season."""
    step = view.get("political_step", len(TRACK)) if view["phase"] in ("tea", "politics") else len(TRACK)
    left = sum(1 for k in TRACK[step:] if k == "K")
    if not left:
        return 0.0
    counts: dict[int, int] = {}
    for f in view["figures"].values():
        if f["at"] == "shrine:" + shrine:
            counts[f["owner"]] = counts.get(f["owner"], 0) + 1
    mine = counts.pop(seat, 0)
    best = max(counts.values(), default=0)
    leader = min((q for q, c in counts.items() if c == best), key=view["honor"].index, default=None)
    ahead = leader is None or view["honor"].index(seat) < view["honor"].index(leader)
    won_before = mine > best or (mine == best and mine > 0 and ahead)
    won_after = mine + 1 > best or (mine + 1 == best and ahead)
    each = len(view["players"][seat]["strongholds"]) if shrine == "Susanoo" else KAMI.get(shrine, 1.0)
    if won_before:
        return 0.2 * each * left  # a guard against a rival's Shinto
    return (each * left) if won_after else 0.0


def _summon_score(t: Table, c: Command) -> float:
    if c.get("shrine"):
        return shrine_gain(t.view, t.seat, c["shrine"])
    kind, prov = c["kind"], c["province"]
    extra = -SHINTO_KEPT if kind == "shinto" else 0.0
    return t.gain(prov, t.kind_force(kind, prov)) + t.on_map() + extra


def recruit(view: Mapping[str, Any], seat: int, cmds: list[Command]) -> Command | None:
    t = Table(view, seat)
    best = _best([(_summon_score(t, c), c) for c in cmds if c["type"] == "summon"])
    return best[1] if best else _done(cmds)


def place_monster(view: Mapping[str, Any], seat: int, cmds: list[Command]) -> Command | None:
    t = Table(view, seat)
    fid = "m:" + view["players"][seat]["cards"][-1]  # the monster just bought
    fid = fid if fid in view["figures"] else None

    def score(c: Command) -> float:
        if c.get("shrine"):
            return shrine_gain(view, seat, c["shrine"])
        return t.gain(c["province"], t.figure_force(fid, c["province"]) if fid else 1)

    best = _best([(score(c), c) for c in cmds])
    return best[1] if best else None


def raijin(view: Mapping[str, Any], seat: int, cmds: list[Command]) -> Command | None:
    t = Table(view, seat)
    best = _best([(t.gain(c["province"], 1), c) for c in cmds if c["type"] == "summon"])
    return best[1] if best else _done(cmds)


# ------------------------------------------------------------ moves


def _move_score(t: Table, c: Command) -> float:
    frm, to, kind = c["from"], c["to"], c["kind"]
    return t.gain(to, t.kind_force(kind, to, frm)) + t.gain(frm, -t.kind_force(kind, frm, frm))


def marshal(view: Mapping[str, Any], seat: int, cmds: list[Command]) -> Command | None:
    """One move at a time (the engine asks again after each): the best gain,
    or done when no move gains enough."""
    t = Table(view, seat)
    best = _best([(_move_score(t, c), c) for c in cmds if c["type"] == "move"])
    if best is None or best[0] < MOVE_MIN:
        return _done(cmds)
    return best[1]


def build(view: Mapping[str, Any], seat: int, cmds: list[Command]) -> Command | None:
    """A Stronghold: one more summon there at every Recruit. Built where one
    more figure helps most this season, unless in Autumn it would take the
    coins of the last bids."""
    t = Table(view, seat)
    builds = [(t.gain(c["province"], 1), c) for c in cmds if c["type"] == "build"]
    best = _best(builds)
    coins = view["players"][seat]["coins"]
    if best is None or (view["season"] >= 2 and coins - pay_cost(t.s, seat, 3) < 3):
        return _done(cmds)
    return best[1]


def _target_force(kind: str) -> int:
    return int(CARDS[kind].get("force", 1)) if kind in CARDS else 1


def betray(view: Mapping[str, Any], seat: int, cmds: list[Command]) -> Command | None:
    t = Table(view, seat)

    def score(c: Command) -> float:
        at = c["at"]
        if at.startswith("shrine:"):
            return 0.1
        return t.gain(at, t.kind_force(c["with"], at), {c["owner"]: -_target_force(c["kind"])})

    best = _best([(score(c), c) for c in cmds if c["type"] == "betray"])
    if best is None or best[0] <= 0:
        return _done(cmds)
    return best[1]


# ------------------------------------------------------------ prompts


def _choose(choice: str) -> Command:
    return {"type": "choose", "choice": choice}


def _options(view: Mapping[str, Any]) -> list[str]:
    return [str(o) for o in view["prompt"]["options"]]


def take_hostage(view: Mapping[str, Any], seat: int, cmds: list[Command]) -> Command | None:
    """The figure whose loss costs a rival most in this battle (ties: the VP leader's)."""
    t = Table(view, seat)
    prov = view["battle"]["province"]
    vps = [p["vp"] for p in view["players"]]

    def score(opt: str) -> float:
        owner, kind = opt.split(":", 1)
        result: float = t.gain(prov, 0, {int(owner): -_target_force(kind)}) + 0.01 * vps[int(owner)]
        return result

    opts = [o for o in _options(view) if o != "decline"]
    return _choose(max(opts, key=score)) if opts else _choose("decline")


def seppuku(view: Mapping[str, Any], seat: int, cmds: list[Command]) -> Command | None:
    """Commit when the battle is probably lost: the figures die anyway, and
    Seppuku pays 1 VP and 1 Honor each."""
    t = Table(view, seat)
    return _choose("commit" if t.chance(view["battle"]["province"]) < 0.5 else "decline")


def _poorest(view: Mapping[str, Any], opts: list[str]) -> str:
    """The option naming the seat with the fewest VP (coins given help rivals least there)."""
    return min(opts, key=lambda o: view["players"][int(o)]["vp"])


def reparations(view: Mapping[str, Any], seat: int, cmds: list[Command]) -> Command | None:
    return _choose(_poorest(view, _options(view)))


def benevolence(view: Mapping[str, Any], seat: int, cmds: list[Command]) -> Command | None:
    return _choose(_poorest(view, [o for o in _options(view) if o != "keep"]))


def kenin(view: Mapping[str, Any], seat: int, cmds: list[Command]) -> Command | None:
    t = Table(view, seat)
    opts = [o for o in _options(view) if o != "pass"]
    return _choose(max(opts, key=lambda p: t.gain(p, 1))) if opts else None


def light(view: Mapping[str, Any], seat: int, cmds: list[Command]) -> Command | None:
    opts = [o for o in _options(view) if o != "pass"]
    return _choose(max(opts, key=lambda o: shrine_gain(view, seat, o.split(":")[-1]))) if opts else None


def _fixed(choice: str) -> Callable[[Mapping[str, Any], int, list[Command]], Command | None]:
    def rule(view: Mapping[str, Any], seat: int, cmds: list[Command]) -> Command | None:
        return _choose(choice) if choice in _options(view) else None

    return rule


RULES: dict[str, Callable[[Mapping[str, Any], int, list[Command]], Command | None]] = {
    "recruit": recruit,
    "marshal": marshal,
    "fujin": marshal,
    "build": build,
    "raijin": raijin,
    "place_monster": place_monster,
    "betray": betray,
    "war_bid": bids.bid,
    "choose_mandate": mandates.choose,
    "train": mandates.train,
    "tea_ceremony": mandates.tea,
    "take_hostage": take_hostage,
    "seppuku": seppuku,
    "hire_ronin": _fixed("hire"),
    "imperial_poets": _fixed("compose"),
    "reparations": reparations,
    "benevolence": benevolence,
    "mercy": _fixed("spare"),
    "path_of_the_serpent": _fixed("charge"),
    "path_of_the_monkey": _fixed("pass"),
    "path_of_the_kenin": kenin,
    "path_of_the_samurai": kenin,
    "path_of_the_light": light,
}
