"""What nobody sees inside the cube tower (rules version 4, issue 31).

At the table nobody sees inside the tower: the players see the cubes that fall into
the tray, and can count what did not come out, never which cubes stick on which baffle.
From rules version 4 the engine keeps the two levels as a secret of the game itself:

Why, with the measurements and history: docs/modules.md, `games/rules/shogun/tower_secret.py`.
"""

from __future__ import annotations

from typing import Any

from games.rules.base import GAME_SEAT, commit_hidden, reveal_entry

from . import events as ev
from .context import Ctx
from .state import Tower, inside

HIDDEN_SINCE = 4  # the first rules version whose tower levels are secret


def hidden(version: int) -> bool:
    return version >= HIDDEN_SINCE


def publish(ctx: Ctx, payload: dict[str, Any]) -> dict[str, Any]:
    """The public payload of a throw whose `payload["tower"]` is the whole tower after it.
    Under hidden rules this first commits the levels (hidden event + commitment) and
    keeps only the tray and the per-colour counts; older rules publish it whole."""
    if not hidden(ctx.version):
        return payload
    tower: Tower = payload["tower"]
    key = f"tower:{len(ctx.state.get('tower_commits') or [])}"
    choice = {"l1": list(tower["l1"]), "l2": list(tower["l2"])}
    private, public = commit_hidden(ctx.factory, key, choice, ev.TOWER_SETTLED)
    ctx.add(private)
    ctx.add(public)
    return {**payload, "tower": {"tray": list(tower["tray"])}, "inside": inside(tower, ctx.state["n"])}


def reveal(ctx: Ctx) -> None:
    """At the end of the game: every commitment of the tower's contents, made public."""
    commits = ctx.state.get("tower_commits") or []
    if commits:
        ctx.emit(
            ev.TOWER_REVEALED,
            {"reveals": [reveal_entry(GAME_SEAT, c["key"], c["choice"], c["salt"]) for c in commits]},
        )
