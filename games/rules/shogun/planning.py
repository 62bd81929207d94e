"""Secret simultaneous planning (reference section 4, Appendix R #14 #15).

One command per player: ``{"type": "plan", "spaces": {space: card | null}}`` covering the
10 action spaces, the bid space and (Tenno's Court) the 3 court spaces. The choice space is
huge, so `legal` offers a JSON-Schema template plus a sampler. Each space is committed on
its own (`base.commit`, key ``plan:y<year>:s<season>:seat<n>:<space>``) so that every space
can be revealed - and audited - at the moment the rules reveal it.

Validity: every card of the hand at most once; all court spaces filled; no card left in
hand while a space is empty (so exactly max(0, spaces - cards) base spaces are empty, the
player chooses which); a chest card on the bid space may not exceed the player's chests.
"""

from __future__ import annotations

import random
from typing import Any

from games.rules.base import IllegalCommand, Template, commit

from . import data
from . import events as ev
from . import state as shogun_state
from .base_reveal import plan_key, reveal_space
from .context import Ctx
from .state import State


def validate(state: State, seat: int, spaces: dict[str, Any]) -> dict[str, Any]:
    names = shogun_state.spaces(state)
    if set(spaces) != set(names):
        raise IllegalCommand(f"a plan must name exactly these spaces: {', '.join(names)}")
    hand = shogun_state.hand(state, seat)
    used = [c for c in spaces.values() if c is not None]
    if any(c not in hand for c in used):
        raise IllegalCommand("a planned card is not in your hand")
    if len(set(used)) != len(used):
        raise IllegalCommand("each card can be placed on one space only")
    if any(spaces[c] is None for c in data.COURT_SPACES if c in spaces):
        raise IllegalCommand("every court space must hold a card")
    if len(used) != min(len(hand), len(names)):
        raise IllegalCommand("spaces may stay empty only when you have no card left")
    if data.chest_value(spaces["bid"]) > state["players"][seat]["money"]:
        raise IllegalCommand("you cannot bid more war chests than you own")
    return {k: spaces[k] for k in names}


def default(state: State, seat: int) -> dict[str, Any]:
    """The missed-deadline plan: bid the 0 chest, chest cards on the court spaces (no
    conversion), then the other cards on the action spaces (none executes unless its
    owner chooses to when it is revealed)."""
    names = shogun_state.spaces(state)
    extras = [c for c in shogun_state.hand(state, seat) if not data.is_province(c) and c != "chest0"]
    provinces = sorted(shogun_state.owned(state, seat))
    plan: dict[str, str | None] = {"bid": "chest0"}
    for space in data.COURT_SPACES if state["opts"]["tennos_court"] else ():
        plan[space] = extras.pop(0)
    rest = extras + provinces
    for space in data.ACTION_IDS:
        plan[space] = rest.pop(0) if rest else None
    return {k: plan[k] for k in names}


def sample(state: State, seat: int, rnd: random.Random) -> dict[str, Any]:
    """A random valid plan: shuffle the hand over the spaces (court spaces first)."""
    names = shogun_state.spaces(state)
    money = state["players"][seat]["money"]
    for _ in range(50):
        hand = shogun_state.hand(state, seat)
        rnd.shuffle(hand)
        court = [x for x in names if x.startswith("court")]
        base = [x for x in names if not x.startswith("court")]
        plan: dict[str, str | None] = {x: hand.pop() for x in court}
        cards = hand + [None] * max(0, len(base) - len(hand))
        rnd.shuffle(cards)
        plan.update(zip(base, cards, strict=False))  # surplus cards stay in hand
        if data.chest_value(plan["bid"]) <= money:
            return {k: plan[k] for k in names}
    return default(state, seat)


def template(state: State, seat: int) -> Template:
    names = shogun_state.spaces(state)
    schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["type", "spaces"],
        "properties": {
            "type": {"const": "plan"},
            "spaces": {
                "type": "object",
                "additionalProperties": False,
                "required": names,
                "properties": {n: {"enum": shogun_state.hand(state, seat) + [None]} for n in names},
            },
        },
    }
    return Template(
        "plan",
        schema,
        (
            "Place one card of your hand (province cards, chest0..chest4, tower1..tower3) on each "
            "space, each card at most once. Court spaces must all be filled; other spaces may be "
            "null only when no card is left. A chest card on 'bid' may not exceed your chests."
        ),
    )


def decide(ctx: Ctx, seat: int, spaces: dict[str, Any]) -> None:
    s = ctx.state
    if shogun_state.phase_of(s) != "plan" or shogun_state.round_of(s)["planned"][seat]:
        raise IllegalCommand("you have nothing to plan now")
    plan = validate(s, seat, spaces)
    for space, card in plan.items():
        for e in commit(
            ctx.factory,
            seat,
            plan_key(s, seat, space),
            card,
            ev.CARD_PLANNED,
            {"seat": seat, "space": space, "of": len(plan)},
        ):
            ctx.add(e)


def auto(ctx: Ctx) -> bool:
    """When every plan is in: the season's event, then the bids revealed and paid."""
    s = ctx.state
    if not all(shogun_state.round_of(s)["planned"]):
        return False
    left = [e for e in s["year_events"] if e not in s["used_events"]]
    ctx.emit(ev.EVENT_REVEALED, {"event": ctx.stream("event").choice(left)})
    reveal_bids(ctx)
    return True


def reveal_bids(ctx: Ctx) -> None:
    """All players pay their bid; highest bid chooses a special card first; ties are
    broken by one seeded random permutation (Appendix R #15)."""
    s = ctx.state
    n = s["n"]
    bids = [data.chest_value(shogun_state.plan_card(s, seat, "bid")) for seat in range(n)]
    perm = ctx.stream("bid-ties").shuffled(range(n))
    order = sorted(perm, key=lambda seat: -bids[seat])
    reveals = [r for seat in range(n) for r in reveal_space(s, seat, "bid")]
    ctx.emit(ev.BIDS_REVEALED, {"reveals": reveals, "bids": bids, "paid": bids, "order": order})
