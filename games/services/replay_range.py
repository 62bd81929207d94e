"""Range replay (issue 16 item 4): the View at version A, then one RFC 6902 JSON
Patch per version turning the View at v-1 into the View at v, up to B — a whole
game in a few requests instead of one per version. Views go through the same
redaction as /replay?version=v (reading._view_body), so applying the patches
gives exactly what /replay would answer for every v."""

from __future__ import annotations

from typing import Any

import jsonpointer
from django.core.cache import cache

from events import store

from ..models import Game
from .errors import ErrorCode, Invalid
from .present import Viewer, viewer_for
from .reading import _view_body
from .state import fold_rows, load_state, rules_for
from .types import Reader

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


def replay_range(game: Game, user: Reader, frm: Any, to: Any) -> dict[str, Any]:
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


def _page(game: Game, viewer: Viewer, a: int, end: int) -> dict[str, Any]:
    rules = rules_for(game)
    state = load_state(game, upto=a)
    prev = _view_body(game, state, viewer, a)
    patches: list[dict[str, Any]] = []
    out = {"from": a, "to": end, "view": prev, "patches": patches}
    for row in store.load(game.id, after=a, upto=end):
        # One row at a time (a version is one event); a takeback puts the state
        # back to the version before the undone batch (services/state.py).
        state = fold_rows(rules, [row], state, game)
        cur = _view_body(game, state, viewer, row.seq)
        patches.append({"version": row.seq, "patch": diff(prev, cur)})
        prev = cur
    return out


def diff(a: Any, b: Any, path: str = "") -> list[dict[str, Any]]:
    """RFC 6902 operations turning `a` into `b` (JSON values).

    Equal subtrees are skipped by one C-level `==`; dicts are compared key by
    key; a list keeps its common head and tail and patches the middle item by
    item (with removes or adds for a change of length). jsonpatch.make_patch
    (which this replaced) also looks for moves, but serializes and walks every
    value on both sides to do so: it was half the cost of a page. Patches are
    at most slightly longer where an item moved inside a list.

    The seats' views of one version share their public parts (games.rules.base.views),
    so a pair of containers already compared is not compared again: its
    operations are reused under the new path."""
    return [{**op, "path": path + op["path"]} if path else op for op in _diff(a, b, {})]


def _diff(a: Any, b: Any, seen: dict[tuple[int, int], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """`diff` with paths relative to a and b; `seen` holds the pairs of containers done."""
    pair = (id(a), id(b))
    done = seen.get(pair)
    if done is not None:
        return done
    if isinstance(a, dict) and isinstance(b, dict):
        ops = _diff_dicts(a, b, seen)
    elif isinstance(a, list) and isinstance(b, list):
        ops = _diff_lists(a, b, seen)
    elif a == b and type(a) is type(b):
        return []
    else:
        return [{"op": "replace", "path": "", "value": b}]
    seen[pair] = ops
    return ops


_CONTAINERS = (dict, list)


def _diff_dicts(
    a: dict[str, Any], b: dict[str, Any], seen: dict[tuple[int, int], list[dict[str, Any]]]
) -> list[dict[str, Any]]:
    ops: list[dict[str, Any]] = []
    for k, x in a.items():
        if k not in b:
            ops.append({"op": "remove", "path": "/" + _escape(k)})
            continue
        y = b[k]
        if x is y or (type(x) is type(y) and (x == y if type(x) not in _CONTAINERS else _same(x, y, seen))):
            continue
        at = "/" + _escape(k)
        ops += [{**op, "path": at + op["path"]} for op in _diff(x, y, seen)]
    ops += [{"op": "add", "path": "/" + _escape(k), "value": y} for k, y in b.items() if k not in a]
    return ops


def _diff_lists(
    a: list[Any], b: list[Any], seen: dict[tuple[int, int], list[dict[str, Any]]]
) -> list[dict[str, Any]]:
    """Items compared pairwise between the common start and end; the rest removed or added."""
    n, m = len(a), len(b)
    head = 0
    while head < n and head < m and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < n - head and tail < m - head and a[n - 1 - tail] == b[m - 1 - tail]:
        tail += 1
    ka, kb = n - head - tail, m - head - tail
    ops: list[dict[str, Any]] = []
    for i in range(head, head + min(ka, kb)):
        ops += [{**op, "path": f"/{i}{op['path']}"} for op in _diff(a[i], b[i], seen)]
    at = head + min(ka, kb)
    # removing at one index shifts the rest down; adds go in order
    ops += [{"op": "remove", "path": f"/{at}"} for _ in range(ka - kb)]
    ops += [{"op": "add", "path": f"/{i}", "value": b[i]} for i in range(at, head + kb)]
    return ops


def _same(x: Any, y: Any, seen: dict[tuple[int, int], list[dict[str, Any]]]) -> bool:
    """x == y for two containers, remembered (the seats' views share their public parts)."""
    done = seen.get((id(x), id(y)))
    if done is not None:
        return not done
    if x == y:
        seen[(id(x), id(y))] = []
        return True
    return False


def _escape(key: Any) -> str:
    key = str(key)
    return key if "~" not in key and "/" not in key else jsonpointer.escape(key)
