"""Range replay (issue 16 item 4): the View at version A, then one RFC 6902 JSON
Patch per version turning the View at v-1 into the View at v, up to B — a whole
game in a few requests instead of one per version. Views go through the same
redaction as /replay?version=v (reading._view_body), so applying the patches
gives exactly what /replay would answer for every v."""

from __future__ import annotations

from typing import Any

import jsonpatch
import jsonpointer
from django.core.cache import cache

from events import store

from ..models import Game
from .errors import ErrorCode, Invalid
from .present import viewer_for
from .reading import _view_body
from .state import fold_rows, load_state, rules_for

PAGE = 500  # versions per page
CACHE_SECONDS = 3600


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
    # Versions up to the game's current one never change (a takeback appends), so
    # a page is cached by what decides it: the viewer's seat and omniscience.
    key = f"replay:{game.id}:{game.rules_version}:{viewer.seat}:{viewer.omniscient}:{a}:{end}"
    body = cache.get(key)
    if body is None:
        body = _page(game, viewer, a, end)
        cache.set(key, body, CACHE_SECONDS)
    return {**body, "more": end < b, "asked_to": b}


def _page(game: Game, viewer, a: int, end: int) -> dict:
    rules = rules_for(game)
    state = load_state(game, upto=a)
    prev = _view_body(game, state, viewer, a)
    out = {"from": a, "to": end, "view": prev, "patches": []}
    for row in store.load(game.id, after=a, upto=end):
        # One row at a time (a version is one event); a takeback puts the state
        # back to the version before the undone batch (services/state.py).
        state = fold_rows(rules, [row], state, lambda v: load_state(game, upto=v))
        cur = _view_body(game, state, viewer, row.seq)
        out["patches"].append({"version": row.seq, "patch": diff(prev, cur)})
        prev = cur
    return out


def diff(a: Any, b: Any, path: str = "") -> list[dict]:
    """RFC 6902 operations turning `a` into `b`, by jsonpatch.make_patch — but
    only on the subtrees that differ. make_patch walks and serializes every
    value of both documents; a view changes in a few places per version, so
    equal subtrees (and equal-length lists, item by item) are compared here
    first (== is a C-level comparison), which makes a 500-version page some
    30 times cheaper."""
    if a == b:
        return []
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        ops: list[dict] = []
        for k in a:
            ops += diff(a[k], b[k], f"{path}/{jsonpointer.escape(str(k))}")
        return ops
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [op for i, (x, y) in enumerate(zip(a, b, strict=True)) for op in diff(x, y, f"{path}/{i}")]
    ops = jsonpatch.make_patch(a, b).patch
    for op in ops:
        op["path"] = path + op["path"]
        if "from" in op:
            op["from"] = path + op["from"]
    return ops
