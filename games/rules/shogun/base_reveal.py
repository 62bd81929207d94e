"""Revealing planned cards: one commitment per planning space, so any single space can be
revealed (and audited) on its own with `base.reveal_entry`."""

from __future__ import annotations

from typing import Any

from games.rules.base import reveal_entry

from .state import State, plans_of, round_of


def plan_key(state: State, seat: int, space: str) -> str:
    return f"plan:y{state['year']}:s{state['season']}:seat{seat}:{space}"


def reveal_space(state: State, seat: int, space: str) -> list[dict[str, Any]]:
    """The reveal entry of one planned space (empty if already public or never planned)."""
    plans = plans_of(state)[seat]
    if not plans or space in round_of(state)["revealed"][seat] or space not in plans:
        return []
    e = plans[space]
    return [reveal_entry(seat, plan_key(state, seat, space), e["card"], e["salt"])]


def reveal_planned_card(state: State, seat: int, prov: str) -> list[dict[str, Any]]:
    """When a province changes hands its card is taken off the old owner's board and so
    becomes public (Appendix R #16)."""
    plans = state.get("plans")
    if not plans or not plans[seat]:
        return []
    for space, e in plans[seat].items():
        if e["card"] == prov:
            return reveal_space(state, seat, space)
    return []
