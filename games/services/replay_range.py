"""Range replay (issue 16 item 4): the View at version A, then one RFC 6902 JSON
Patch per version turning the View at v-1 into the View at v, up to B — a whole
game in a few requests instead of one per version. Views go through the same
redaction as /replay?version=v (reading._view_body), so applying the patches
gives exactly what /replay would answer for every v."""

from __future__ import annotations

from typing import Any

import jsonpatch

from events import store

from ..models import Game
from .errors import ErrorCode, Invalid
from .present import viewer_for
from .reading import _view_body
from .state import fold_rows, load_state, rules_for

PAGE = 500  # versions per page


def _version(raw: Any, name: str, default: int | None, top: int) -> int:
    if raw is None or raw == "":
        if default is None:
            raise Invalid(f"{name} is required", code=ErrorCode.INVALID_VERSION)
        return default
    try:
        v = int(raw)
    except (TypeError, ValueError):
        v = -1
    if not 1 <= v <= top:
        raise Invalid(f"{name} must be from 1 to {top}", code=ErrorCode.INVALID_VERSION)
    return v


def replay_range(game: Game, user, frm: Any, to: Any) -> dict:
    """`{"from", "to", "view", "patches"}` for versions frm..min(to, frm+page);
    `more` says whether versions up to the asked `to` remain (the caller builds
    the `next` URL from `to`)."""
    top = game.version
    if top < 1:
        raise Invalid("the game has not started: no version to replay", code=ErrorCode.INVALID_VERSION)
    a = _version(frm, "from", None, top)
    b = _version(to, "to", top, top)
    if b < a:
        raise Invalid("to must not be before from", code=ErrorCode.INVALID_VERSION)
    end = min(b, a + PAGE)
    viewer = viewer_for(game, user)
    rules = rules_for(game)
    state = load_state(game, upto=a)
    prev = _view_body(game, state, viewer, a)
    out = {"from": a, "to": end, "view": prev, "patches": [], "more": end < b, "asked_to": b}
    for row in store.load(game.id, after=a, upto=end):
        # One row at a time (a version is one event); a takeback puts the state
        # back to the version before the undone batch (services/state.py).
        state = fold_rows(rules, [row], state, lambda v: load_state(game, upto=v))
        cur = _view_body(game, state, viewer, row.seq)
        out["patches"].append({"version": row.seq, "patch": jsonpatch.make_patch(prev, cur).patch})
        prev = cur
    return out
