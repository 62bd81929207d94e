"""Outcomes as facts (rules version 4): what one decision changed in the state,
stated as data, and the plain-data function that applies it.

`decide` runs the rules once on a private copy of the state and compares the
state before and after; the difference is split in two:

- the public outcome (in the batch's public event, `payload.outcome`): figures
  moved, placed or killed (`figures: {id: {from, to}}`), each player's coins, VP,
  Ronin (deltas) and cards, war tokens, Strongholds, alliance seasons gained or
  lost (`{add, remove}`), the step machine's new position (`stack: {keep, push}`:
  the frames kept from the bottom, then the frames pushed: whose turn, which
  prompt), and every other public key's new value (`set`: Honor order,
  alliances, season, phase, display, war provinces, battle without bids, Winter
  VP, result...);
- the secret outcome (in a hidden `HiddenStateChanged` event, `visible_to=()`):
  the keys the view hides (mandate deck order, the 3-2-2 track with Lotus's
  face-down tiles, open and closed proposals, unrevealed bids). The frames of
  the step machine are public: they only hold what the public state implies.

`apply` reads no rules: a change of rules code cannot change what a recorded
event means. It copies every value through canonical JSON (keys sorted), so the
state it builds is the same, dict order included, whether the event comes
straight from `decide` or back from the store (the rules iterate some dicts:
bids, figures, recruit slots). It is order-sensitive only in one place: an unrevealed `battle` set by the
public outcome keeps the current unrevealed bids, which the hidden event
(emitted before it) has already set.
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


def _copy(v: Any) -> Any:
    return pickle.loads(pickle.dumps(v, pickle.HIGHEST_PROTOCOL))


def _canon(v: Any) -> Any:
    return json.loads(canonical_json(v))


def split(s: State) -> tuple[dict[str, Any], dict[str, Any]]:
    """(public, secret) parts of a state; an unrevealed `battle` loses its bids
    to the secret part (none placed yet: nothing secret)."""
    pub: dict[str, Any] = {}
    sec: dict[str, Any] = {}
    for k, v in cast(dict[str, Any], s).items():
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


def _diff(a: dict[str, Any], b: dict[str, Any]) -> Outcome:
    out: Outcome = {}
    if "figures" in a and "figures" in b and a["figures"] != b["figures"]:
        out.update(_figures(a["figures"], b["figures"]))
    if "stack" in a and "stack" in b and a["stack"] != b["stack"]:
        keep = 0
        while keep < min(len(a["stack"]), len(b["stack"])) and a["stack"][keep] == b["stack"][keep]:
            keep += 1
        out["stack"] = {"keep": keep, "push": _copy(b["stack"][keep:])}
    if (
        "players" in a
        and "players" in b
        and len(a["players"]) == len(b["players"])
        and a["players"] != b["players"]
    ):
        out["players"] = _players(a["players"], b["players"])
    done = set(out) | ({"figures"} if "figures" in out or "figures_set" in out else set())
    sets = {
        k: _copy(v)
        for k, v in b.items()
        if k not in done and (k not in a or a[k] != v) and not (k == "figures" and "figures" in a)
    }
    for k in ("players", "stack"):
        if k in out:
            sets.pop(k, None)
    unset = sorted(k for k in a if k not in b)
    if sets:
        out["set"] = sets
    if unset:
        out["unset"] = unset
    return out


def _figures(a: dict[str, Any], b: dict[str, Any]) -> Outcome:
    moved = {
        fid: {"from": a[fid]["at"], "to": f["at"]}
        for fid, f in b.items()
        if fid in a and a[fid] != f and {**a[fid], "at": f["at"]} == f
    }
    other = {fid: _copy(f) for fid, f in b.items() if fid not in moved and a.get(fid) != f}
    out: Outcome = {}
    if moved:
        out["figures"] = moved
    if other:
        out["figures_set"] = other
    gone = sorted(fid for fid in a if fid not in b)
    if gone:
        out["figures_removed"] = gone
    return out


def _players(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for seat, (p, q) in enumerate(zip(a, b, strict=True)):
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


def _list_change(a: list[Any], b: list[Any]) -> dict[str, Any]:
    """`{add, remove}` (removed first occurrences, added at the end) when that
    gives `b` exactly, else `{set: b}` (an order change)."""
    ca, cb = Counter(map(repr, a)), Counter(map(repr, b))
    remove = [x for x in a if _take(ca, cb, x)]
    add = [x for x in b if _take_added(cb, Counter(map(repr, a)), x)]
    change = {"add": _copy(add), "remove": _copy(remove)}
    if _apply_list(a, change) == b:
        return {k: v for k, v in change.items() if v}
    return {"set": _copy(b)}


def _take(ca: Counter[str], cb: Counter[str], x: Any) -> bool:
    """Whether this occurrence of x in the old list is one that went away."""
    r = repr(x)
    if ca[r] > cb[r]:
        ca[r] -= 1
        return True
    return False


def _take_added(cb: Counter[str], ca: Counter[str], x: Any) -> bool:
    r = repr(x)
    if cb[r] > ca[r]:
        cb[r] -= 1
        return True
    return False


def _apply_list(a: list[Any], change: dict[str, Any]) -> list[Any]:
    if "set" in change:
        return list(_canon(change["set"]))
    out = list(a)
    for x in change.get("remove", []):
        out.remove(x)
    return out + list(_canon(change.get("add", [])))


def apply(s: State, outcome: Outcome) -> State:
    """A new state: `s` with the outcome applied. `s` is left as it is and the
    new state shares with it what the outcome does not touch (states are values:
    `decide` works on a clone, nothing changes a state in place), so a fold
    copies only what changed instead of the whole state per event."""
    d = dict(cast(dict[str, Any], s))
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


def _set(d: dict[str, Any], k: str, v: Any) -> None:
    if k == BIDS:
        if d.get("battle") is not None:
            d["battle"] = {**d["battle"], "bids": _canon(v)}
    elif k == "battle" and v is not None and "bids" not in v:
        # unrevealed: its bids are the old battle's unrevealed ones, if any
        # (the hidden event of the batch, applied before, set them if they changed)
        old = d.get("battle")
        d["battle"] = {
            **_canon(v),
            "bids": old["bids"] if old is not None and not old["revealed"] else {},
        }
    else:
        d[k] = _canon(v)


def _unset(d: dict[str, Any], k: str) -> None:
    if k != BIDS:
        d.pop(k, None)
    elif d.get("battle") is not None and not d["battle"]["revealed"]:
        d["battle"] = {**d["battle"], "bids": {}}


def _player(p: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    p = dict(p)
    for k, v in change.items():
        if k in PLAYER_COUNTS and isinstance(v, int):
            p[k] += v
        elif k in PLAYER_LISTS:
            p[k] = _apply_list(p[k], v)
        else:
            p[k] = _canon(v["set"])
    return p
