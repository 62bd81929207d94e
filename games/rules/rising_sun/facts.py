"""Outcomes as facts (rules version 4): what one decision changed in the state,
stated as data, and the plain-data function that applies it.

`decide` runs the rules once on a private copy of the state and compares the
state before and after; the difference is split in two:

Why, with the measurements and history: docs/modules.md, `games/rules/rising_sun/facts.py`.
"""

from __future__ import annotations

import json
import pickle
from collections import Counter
from typing import Any, cast

from ..base import canonical_json
from ..kit.position import POSITION
from .state import State

Outcome = dict[str, Any]

SECRET_KEYS = ("mandate_deck", "track", "lotus_tiles", "proposals", "closed_proposals", "secret_draws")
BIDS = "battle_bids"  # the secret part of `battle`, as a key of the split state
PLAYER_LISTS = ("cards", "war_tokens", "alliance_seasons", "strongholds")
PLAYER_COUNTS = ("coins", "ronin", "vp")
STACK = "stack"
"""The outcome's name for the kit position (`state["position"]`): stored events of
versions 4-5 say `stack` (the state's key then), and recorded events never change."""


def _copy(value: Any) -> Any:
    return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))


def _canon(value: Any) -> Any:
    return json.loads(canonical_json(value))


def split(state: State) -> tuple[dict[str, Any], dict[str, Any]]:
    """(public, secret) parts of a state; an unrevealed `battle` loses its bids
    to the secret part (none placed yet: nothing secret)."""
    pub: dict[str, Any] = {}
    sec: dict[str, Any] = {}
    for k, v in cast(dict[str, Any], state).items():
        if k == POSITION:
            pub[STACK] = v  # recorded outcomes (versions 4-5) name the position `stack`
        elif k in SECRET_KEYS:
            sec[k] = v
        elif k == "battle" and v is not None and not v["revealed"]:
            pub[k] = {bk: bv for bk, bv in v.items() if bk != "bids"}
            if v["bids"]:
                sec[BIDS] = v["bids"]
        else:
            pub[k] = v
    return pub, sec


def diff(old: State, new: State) -> tuple[Outcome, Outcome]:
    """(public outcome, secret outcome) turning `old` into `new` (see `apply`)."""
    (op, osec), (np_, nsec) = split(old), split(new)
    return _diff(op, np_), _diff(osec, nsec)


def _diff(old: dict[str, Any], new: dict[str, Any]) -> Outcome:
    out: Outcome = {}
    if "figures" in old and "figures" in new and old["figures"] != new["figures"]:
        out.update(_figures(old["figures"], new["figures"]))
    if "stack" in old and "stack" in new and old["stack"] != new["stack"]:
        keep = 0
        while keep < min(len(old["stack"]), len(new["stack"])) and old["stack"][keep] == new["stack"][keep]:
            keep += 1
        out["stack"] = {"keep": keep, "push": _copy(new["stack"][keep:])}
    if (
        "players" in old
        and "players" in new
        and len(old["players"]) == len(new["players"])
        and old["players"] != new["players"]
    ):
        out["players"] = _players(old["players"], new["players"])
    done = set(out) | ({"figures"} if "figures" in out or "figures_set" in out else set())
    sets = {
        k: _copy(v)
        for k, v in new.items()
        if k not in done and (k not in old or old[k] != v) and not (k == "figures" and "figures" in old)
    }
    for k in ("players", "stack"):
        if k in out:
            sets.pop(k, None)
    unset = sorted(k for k in old if k not in new)
    if sets:
        out["set"] = sets
    if unset:
        out["unset"] = unset
    return out


def _figures(old: dict[str, Any], new: dict[str, Any]) -> Outcome:
    moved = {
        fid: {"from": old[fid]["at"], "to": f["at"]}
        for fid, f in new.items()
        if fid in old and old[fid] != f and {**old[fid], "at": f["at"]} == f
    }
    other = {fid: _copy(f) for fid, f in new.items() if fid not in moved and old.get(fid) != f}
    out: Outcome = {}
    if moved:
        out["figures"] = moved
    if other:
        out["figures_set"] = other
    gone = sorted(fid for fid in old if fid not in new)
    if gone:
        out["figures_removed"] = gone
    return out


def _players(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for seat, (p, q) in enumerate(zip(old, new, strict=True)):
        if p == q:
            continue
        change: dict[str, Any] = {}
        for k in q:
            if p.get(k) == q[k]:
                continue
            if k in PLAYER_COUNTS and k in p:
                change[k] = q[k] - p[k]
            elif k in PLAYER_LISTS and k in p:
                change[k] = _list_change(p[k], q[k])
            else:
                change[k] = {"set": _copy(q[k])}
        out[str(seat)] = change
    return out


def _list_change(old: list[Any], new: list[Any]) -> dict[str, Any]:
    """`{add, remove}` (removed first occurrences, added at the end) when that
    gives `b` exactly, else `{set: b}` (an order change)."""
    ca, cb = Counter(map(repr, old)), Counter(map(repr, new))
    remove = [x for x in old if _take(ca, cb, x)]
    add = [x for x in new if _take_added(cb, Counter(map(repr, old)), x)]
    change = {"add": _copy(add), "remove": _copy(remove)}
    if _apply_list(old, change) == new:
        return {k: v for k, v in change.items() if v}
    return {"set": _copy(new)}


def _take(ca: Counter[str], cb: Counter[str], item: Any) -> bool:
    """Whether this occurrence of x in the old list is one that went away."""
    r = repr(item)
    if ca[r] > cb[r]:
        ca[r] -= 1
        return True
    return False


def _take_added(cb: Counter[str], ca: Counter[str], item: Any) -> bool:
    r = repr(item)
    if cb[r] > ca[r]:
        cb[r] -= 1
        return True
    return False


def _apply_list(items: list[Any], change: dict[str, Any]) -> list[Any]:
    if "set" in change:
        return list(_canon(change["set"]))
    out = list(items)
    for x in change.get("remove", []):
        out.remove(x)
    return out + list(_canon(change.get("add", [])))


def apply(state: State, outcome: Outcome) -> State:
    """A new state: `state` with the outcome applied. `state` is left as it is and the
    new state shares with it what the outcome does not touch (states are values:
    `decide` works on a clone, nothing changes a state in place), so a fold
    copies only what changed instead of the whole state per event."""
    d = dict(cast(dict[str, Any], state))
    if {"figures", "figures_set", "figures_removed"} & outcome.keys():
        d["figures"] = _apply_figures(d["figures"], outcome)
    if STACK in outcome:
        kept = d[POSITION][: outcome[STACK]["keep"]]
        d[POSITION] = kept + _canon(outcome[STACK]["push"])
    if "players" in outcome:
        d["players"] = list(d["players"])
        for seat, change in outcome["players"].items():
            d["players"][int(seat)] = _player(d["players"][int(seat)], change)
    for k, v in sorted(outcome.get("set", {}).items()):
        _set(d, k, v)
    for k in outcome.get("unset", []):
        _unset(d, k)
    return cast(State, d)


def _apply_figures(figures: dict[str, Any], outcome: Outcome) -> dict[str, Any]:
    figs = dict(figures)
    for fid, move in outcome.get("figures", {}).items():
        figs[fid] = {**figs[fid], "at": move["to"]}
    for fid, fig in sorted(outcome.get("figures_set", {}).items()):
        figs[fid] = _canon(fig)
    for fid in outcome.get("figures_removed", []):
        del figs[fid]
    return figs


def _set(data: dict[str, Any], key: str, value: Any) -> None:
    if key == BIDS:
        if data.get("battle") is not None:
            data["battle"] = {**data["battle"], "bids": _canon(value)}
    elif key == "battle" and value is not None and "bids" not in value:
        # unrevealed: its bids are the old battle's unrevealed ones, if any
        # (the hidden event of the batch, applied before, set them if they changed)
        old = data.get("battle")
        data["battle"] = {
            **_canon(value),
            "bids": old["bids"] if old is not None and not old["revealed"] else {},
        }
    else:
        data[key] = _canon(value)


def _unset(data: dict[str, Any], key: str) -> None:
    if key != BIDS:
        data.pop(key, None)
    elif data.get("battle") is not None and not data["battle"]["revealed"]:
        data["battle"] = {**data["battle"], "bids": {}}


def _player(player: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    player = dict(player)
    for k, v in change.items():
        if k in PLAYER_COUNTS and isinstance(v, int):
            player[k] += v
        elif k in PLAYER_LISTS:
            player[k] = _apply_list(player[k], v)
        else:
            player[k] = _canon(v["set"])
    return player
