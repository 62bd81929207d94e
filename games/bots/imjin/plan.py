"""The Imjin heuristic's own decisions (heuristic.py's `decide` hook), for the
prompts a one-ply lookahead prices badly; None leaves a decision to the
lookahead. Every rule reads only the seat's view and its legal commands."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.rules.base import LegalSet
from games.rules.kit import position

from ..base import InfoSet
from . import actions, battles, generals, moves, recruits

Command = dict[str, Any]
Rule = Callable[[Mapping[str, Any], int, Sequence[Command], Mapping[str, Any]], Command | None]


def _declare(
    view: Mapping[str, Any], seat: int, legal: Sequence[Command], prompt: Mapping[str, Any]
) -> Command | None:
    """Battles: the ones worth their odds, with the supports that pay; then fight."""
    draft = prompt.get("draft")
    if draft is not None:
        return battles.next_support(view, seat, draft) or {"type": "confirm"}
    attack = battles.best_attack(view, seat, legal)
    if attack is not None:
        return attack
    return {"type": "fight"} if {"type": "fight"} in legal else None


def _move(
    view: Mapping[str, Any], seat: int, legal: Sequence[Command], prompt: Mapping[str, Any]
) -> Command | None:
    """Marches: take empty lands, close in on the lands worth taking, keep fighters."""
    if prompt.get("mode") not in ("action", "redeploy"):
        return None
    return moves.best_move(view, seat, legal, prompt) or {"type": "done"}


def _wheel(
    view: Mapping[str, Any], seat: int, legal: Sequence[Command], prompt: Mapping[str, Any]
) -> Command | None:
    """The action: march when it pays, collect when short, recruit when rich."""
    return actions.choose(view, seat, legal)


def _recruit(
    view: Mapping[str, Any], seat: int, legal: Sequence[Command], prompt: Mapping[str, Any]
) -> Command | None:
    """Recruits at the front, onto led units first, keeping a stock to march with."""
    return recruits.best_recruit(view, seat, legal, prompt) or {"type": "done"}


def _manage(
    view: Mapping[str, Any], seat: int, legal: Sequence[Command], prompt: Mapping[str, Any]
) -> Command | None:
    """Generals: the strongest card onto the biggest unit at the front, when affordable."""
    return generals.best_deploy(view, seat, legal) or {"type": "done"}


def _place(
    view: Mapping[str, Any], seat: int, legal: Sequence[Command], prompt: Mapping[str, Any]
) -> Command | None:
    """Setup placement: the strongest card onto the biggest unit at the front."""
    return generals.best_deploy(view, seat, legal, "place_general")


def _pick(
    view: Mapping[str, Any], seat: int, legal: Sequence[Command], prompt: Mapping[str, Any]
) -> Command | None:
    """Setup picks: the cards with most battle dice."""
    return generals.best_pick(legal)


RULES: dict[str, Rule] = {
    "pick_generals": _pick,
    "place_general": _place,
    "manage": _manage,
    "recruit": _recruit,
    "advance_wheel": _wheel,
    "declare": _declare,
    "move": _move,
}


def decide(
    view: Mapping[str, Any], seat: int, legal: LegalSet, rng: random.Random, worlds: InfoSet
) -> Command | None:
    frames = position.frames(view)
    if len(frames) < 2:  # only the stage frame: no prompt is asked
        return None
    head = frames[-1]
    rule = RULES.get(head["kind"])
    if rule is None:
        return None
    return rule(view, seat, [dict(c) for c in legal.commands], head)
