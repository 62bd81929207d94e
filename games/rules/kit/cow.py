"""Copying state without mutating the input: `evolve` and `decide` never change
the state they are given (folds keep snapshots and older versions intact)."""

from __future__ import annotations

import marshal
import pickle
from collections.abc import Iterable, Mapping
from typing import Any, Final, TypeVar, cast

T = TypeVar("T")

ALL: Final = "*"
"""In a list of keys to copy: every key (a whole deep copy)."""


def deep_copy(value: T) -> T:
    """A deep copy of plain data: a marshal round trip (the fastest in CPython for
    dicts, lists and scalars), or pickle for anything marshal cannot write."""
    try:
        return cast(T, marshal.loads(marshal.dumps(cast(Any, value))))
    except ValueError:
        return cast(T, pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL)))


def copy_on_write(state: Mapping[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    """A shallow copy of `state` whose entries under `keys` are deep copies.

    Everything else is shared with `state`, so a handler may mutate exactly the
    entries it declared. `ALL` among the keys deep-copies the whole state."""
    wanted = tuple(keys)
    if ALL in wanted:
        return deep_copy(dict(state))
    out = dict(state)
    for key in wanted:
        if out.get(key) is not None:
            out[key] = deep_copy(out[key])
    return out
