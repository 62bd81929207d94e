"""The turn wheel (§3.2, §4): advance 1–2 free or 3 for 8 supply (4p: 1–3 free)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rules.base import IllegalCommand

from . import commands, data
from . import events as ev
from .context import Ctx
from .event_cards import reveal
from .state import State


def spaces() -> list[str]:
    return list(data.rules()["wheel"]["spaces"])


def step_costs(state: State, seat: int) -> dict[int, int]:
    w = data.rules()["wheel"]
    if state["n"] == 4:
        return {k: 0 for k in w["free_steps_4p"]}
    out = {k: 0 for k in w["free_steps_2p"]}
    paid = w["paid_step_2p"]
    if state["supply"][seat] >= paid["cost"]:
        out[paid["steps"]] = paid["cost"]
    return out


def crosses_divider(pos: int, steps: int) -> bool:
    """A divider sits just before each Move/Battle space: crossing one = landing on
    or passing through such a space."""
    n = len(spaces())
    return any((pos + i) % n in data.rules()["wheel"]["event_spaces"] for i in range(1, steps + 1))


def legal(state: State, seat: int) -> list[dict[str, Any]]:
    return [{"type": "advance", "steps": k} for k in sorted(step_costs(state, seat))]


def decide(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    s = ctx.state
    steps = commands.integer(cmd, "steps")
    costs = step_costs(s, seat)
    if steps not in costs:
        raise IllegalCommand(f"you may advance {sorted(costs)} spaces now")
    side = s["side"][seat]
    pos = s["wheel"][side]
    to = (pos + steps) % len(spaces())
    ctx.pop()
    ctx.emit(
        ev.WHEEL_ADVANCED,
        {"side": side, "seat": seat, "steps": steps, "to": to, "cost": costs[steps], "action": spaces()[to]},
    )
    ctx.supply(seat, -costs[steps], "third_step")
    ctx.step(ev.ACTION_CHOSEN, "begin", action=spaces()[to])
    if crosses_divider(pos, steps):
        reveal(ctx)
