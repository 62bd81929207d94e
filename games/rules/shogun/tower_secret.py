"""What nobody sees inside the cube tower (rules version 4, issue 31).

At the table nobody sees inside the tower: the players see the cubes that fall into
the tray, and can count what did not come out, never which cubes stick on which baffle.
From rules version 4 the engine keeps the two levels as a secret of the game itself:

* every throw (the seeding, every battle, revolt and famine) first commits the cubes now
  stuck inside with `base.commit_hidden`: a `shogun.TowerSettled` event visible to no
  seat (key ``tower:<throw number>``, choice ``{l1, l2}``, salt) and a public
  `core.ChoiceCommitted` with seat -1;
* the throw's public event (`TowerSeeded`, `BattleFought`) then carries only the tray
  (``tower: {tray}``) and the cubes inside per colour (``inside: {seats, green}``);
* when the game ends, one public `shogun.TowerRevealed` lists every commitment under
  ``reveals``, so the audit checks each against its commitment, and the replay of the
  finished game's export re-derives every throw from the contents before it and the
  revealed seed.

Games of rules versions 1-3 keep their public levels (their recorded events carry them).
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
