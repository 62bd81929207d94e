"""HTTP caching of answers that differ by viewer (view, board, events, replay,
export; issue 31).

Their ETag is a digest of everything that chooses the bytes: the game, its
version and status (the end reveals every seat), who is looking (the account and
the seats it holds: taking a seat appends no event, so the version alone would
not change), the language when the answer is localized, and the request's own
parameters. One seat sending another seat's ETag therefore never matches.
They are `Cache-Control: private` and `Vary` on the headers that choose the
viewer (and the language), so no shared cache stores or mixes them; public
answers (the catalogue) keep their own, public, caching."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from ..models import Game
from .present import Viewer

#: Every answer here is for one viewer; `no-cache`: a browser may keep it but asks
#: again (with If-None-Match) each time, since a move can change it at any moment.
PRIVATE = "private, no-cache"
#: Who is looking: a bearer token or the browser's session cookie.
VARY_VIEWER = ("Authorization", "Cookie")


def vary(localized: bool = False, negotiated: bool = False) -> tuple[str, ...]:
    """The request headers that choose the bytes: the viewer's, the language for
    localized answers (`?lang=` is in the URL already), Accept where the rendering
    is negotiated (`application/json; indent=2` changes the bytes)."""
    return (
        *VARY_VIEWER,
        *(("Accept-Language",) if localized else ()),
        *(("Accept",) if negotiated else ()),
    )


def viewer_etag(game: Game, viewer: Viewer, *parts: object, lang: str | None = None) -> str:
    """A strong ETag for what `viewer` gets of `game` with these request `parts`."""
    who = (
        f"{viewer.user_id if viewer.user_id is not None else '-'}/{sorted(viewer.seats)}/{viewer.omniscient}"
    )
    key = "\x1f".join(
        str(p) for p in (game.id, game.version, game.status, who, lang if lang is not None else "", *parts)
    )
    return '"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'


def matches(if_none_match: str | None, etag: str) -> bool:
    """Whether an If-None-Match header names `etag` (one of a list; weak forms too).
    Not `*`: that would answer 304 to a request that is refused (a bad version)."""
    if not if_none_match:
        return False
    return etag in {t.strip().removeprefix("W/") for t in if_none_match.split(",")}


def query_parts(params: Iterable[tuple[str, object]]) -> tuple[str, ...]:
    """The request's query parameters, in a stable order, as ETag parts."""
    return tuple(f"{k}={v}" for k, v in sorted(params, key=lambda pair: (pair[0], str(pair[1]))))
