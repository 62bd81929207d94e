"""Tenno's Court (seed; reference 12, Appendix R #1-#9).

Why, with the measurements and history: docs/modules.md, `games/rules/shogun/court.py`.
"""

from __future__ import annotations

from typing import Any

from games.rules.base import IllegalCommand

from . import data
from . import events as ev
from . import state as shogun_state
from .base_reveal import reveal_space
from .context import Ctx
from .options import option
from .state import State


def convertible(state: State, seat: int, card: str | None, count: int) -> int:
    """How many armies `card` on court space k could convert now, at most k: the
    province's armies beyond the one that must stay, or his own cubes in the tray; and
    never more than the officials in his supply."""
    if card is not None and data.is_province(card):
        p = state["provinces"].get(card)
        armies = p["armies"] - 1 if p and p["owner"] == seat else 0
    elif isinstance(card, str) and card.startswith("tower"):
        armies = state["tower"]["tray"].count(seat)
    else:
        armies = 0  # a chest card is a bluff
    return max(0, min(count, armies, state["players"][seat]["officials"]))


def converted(state: State, seat: int, card: str | None, count: int) -> int:
    """Armies converted by `card` on space k: k or 0 (R #1); with the `up_to` option
    ([tek] house rule) as many as possible up to k."""
    n = convertible(state, seat, card, count)
    if option(state, "court_conversion") == "up_to":
        return n
    return count if n == count else 0


def auto_convert(ctx: Ctx) -> bool:
    for seat in shogun_state.round_of(ctx.state)["order"]:
        for space in data.COURT_SPACES:
            s = ctx.state
            card = shogun_state.plan_card(s, seat, space)
            k = data.court_size(space)
            n = converted(s, seat, card, k)
            ctx.emit(
                ev.COURT_CONVERTED,
                {
                    "seat": seat,
                    "space": space,
                    "card": card,
                    "n": n or k,  # the armies converted; the space's size when none
                    "done": n > 0,
                    "province": card if data.is_province(card) else None,
                    "reveals": reveal_space(s, seat, space),
                },
            )
    s = ctx.state
    pos = {seat: i for i, seat in enumerate(shogun_state.round_of(s)["order"])}
    queue = sorted(
        (x for x in range(s["n"]) if s["players"][x]["vestibule"] > 0),
        key=lambda seat: (-s["players"][seat]["vestibule"], pos[seat]),
    )
    ctx.emit(ev.COURT_RANKED, {"queue": queue})
    return True


def current(state: State) -> int | None:
    q = shogun_state.round_of(state)["court_queue"]
    return q[0] if shogun_state.phase_of(state) == "favour" and q else None


def affordable(state: State, seat: int) -> list[list[int]]:
    v = state["players"][seat]["vestibule"]
    return [f for f in shogun_state.round_of(state)["favours"] if f[0] <= v]


def auto_favour(ctx: Ctx) -> bool:
    s = ctx.state
    seat = current(s)
    if seat is None or not shogun_state.round_of(s)["favours"]:
        ctx.emit(ev.COURT_ENDED, {"removed": [f[1] for f in shogun_state.round_of(s)["favours"]]})
        return True
    if not affordable(s, seat):
        ctx.emit(ev.COURT_PASSED, {"seat": seat})
        return True
    return False


# --- the favour decision ----------------------------------------------------------------


def targets(state: State, seat: int, card: int) -> list[str | None]:
    """The `province` values allowed with use=true (None = the card needs no target)."""
    fav = data.FAVOURS[card]
    t = fav["type"]
    own: list[str | None] = list(sorted(shogun_state.owned(state, seat)))
    if t == "building":
        return [p for p in own if p is not None and shogun_state.can_build(state, seat, p, fav["building"])]
    if t == "remove_marker":
        marked: list[str | None] = [p for p in own if p is not None and state["provinces"][p]["markers"] > 0]
        return marked or [None]  # no marker: keep the card for the next one
    if t == "free_armies":
        neutral = [p for p in state["in_play"] if state["provinces"][p]["owner"] is None]
        return own + (neutral if shogun_state.supply(state, seat) > 0 else [])
    return [None]


def must_apply(card: int, version: int) -> bool:
    """Taking this favour applies it (seed: "他必须立即获得卡牌恩惠效果"); only the cards
    whose text says "may" (可以, data flag `optional`) can be taken without applying them.
    Games started under rules_version 1 may take any card unapplied."""
    return version >= 2 and not data.FAVOURS[card].get("optional", False)


def legal(state: State, seat: int, version: int = data.RULES_VERSION) -> list[dict[str, Any]]:
    if current(state) != seat:
        return []
    out: list[dict[str, Any]] = [{"type": "pass"}]
    for _, card in affordable(state, seat):
        if not must_apply(card, version):
            out.append({"type": "favour", "card": card, "use": False, "province": None})
        for prov in targets(state, seat, card):
            out.append({"type": "favour", "card": card, "use": True, "province": prov})
    return out


def decide_pass(ctx: Ctx, seat: int) -> None:
    if current(ctx.state) != seat:
        raise IllegalCommand("it is not your turn at the court")
    ctx.emit(ev.COURT_PASSED, {"seat": seat})


def decide_favour(ctx: Ctx, seat: int, card: int, use: bool, prov: str | None) -> None:
    s = ctx.state
    version = getattr(ctx, "version", data.RULES_VERSION)
    if current(s) != seat:
        raise IllegalCommand("it is not your turn at the court")
    slot = next((f for f in shogun_state.round_of(s)["favours"] if f[1] == card), None)
    if slot is None:
        raise IllegalCommand("that favour card is not in the audience hall")
    if slot[0] > s["players"][seat]["vestibule"]:
        raise IllegalCommand(f"that favour costs {slot[0]} officials")
    if use and prov not in targets(s, seat, card):
        raise IllegalCommand("that favour cannot be used there")
    if not use and prov is not None:
        raise IllegalCommand("a favour taken without using it has no province")
    if not use and must_apply(card, version):
        raise IllegalCommand(
            f"favour #{card} takes effect when taken (only 'may' favours can be left unused)"
        )
    ctx.emit(
        ev.FAVOUR_TAKEN,
        {
            "seat": seat,
            "card": card,
            "cost": slot[0],
            "use": use,
            "province": prov,
            **_effect(s, seat, card, use, prov),
        },
    )


def _effect(state: State, seat: int, card: int, use: bool, prov: str | None) -> dict[str, Any]:
    """Numbers decided now so that evolve only applies them."""
    fav = data.FAVOURS[card]
    if not use:
        return {}
    if fav["type"] == "tray":
        return {"n": min(fav["amount"], shogun_state.supply(state, seat))}
    if fav["type"] == "free_armies":
        return {"n": min(fav["amount"], shogun_state.supply(state, seat))}
    if fav["type"] == "building" and prov is not None:
        return {"calmed": calms(state, prov, fav["building"])}
    return {}


def calms(state: State, prov: str, kind: str) -> bool:
    """Nô-theatre events E01/E02: building a theatre removes the markers there."""
    return kind == "theatre" and shogun_state.event(state).get("effect") == "theatre_calms"
