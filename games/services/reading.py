"""Read-side services: game metadata, views, legal commands, feeds and replay —
always through the viewer's redaction (audit and export: services/audit.py)."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from events import store
from games.rules.base import canonical_json, sha256_hex
from games.rules.base import views as rules_views

from ..models import Game
from . import deadlines, prepared, signing, summaries
from .errors import ErrorCode, Invalid
from .present import Viewer, present_event, viewer_for
from .state import load_state, rules_for
from .types import Reader

MAX_LEGAL = 1000
SAMPLES = 20


def _seats(game: Game) -> list[Any]:
    return prepared.seats(game, with_users=True)


def _bot_account(user: Reader) -> bool:
    profile = getattr(user, "profile", None)  # None: an account that never saved settings
    return bool(profile and profile.is_bot)


def seats_json(game: Game, seats: list[Any] | None = None) -> list[dict[str, Any]]:
    """The game's seats as the API lists them (`seats`: already loaded ones)."""
    return [
        {
            "index": s.index,
            "faction": s.faction or None,
            "user": (
                {"id": s.user.id, "username": s.user.username, "is_bot": _bot_account(s.user)}
                if s.user
                else None
            ),
            "is_bot": s.is_bot,
            "bot": s.bot or None,
            "zombie": s.zombie,
            "misses": s.misses,
            "entropy_given": bool(s.entropy),
        }
        for s in (seats if seats is not None else _seats(game))
    ]


def pending_json(game: Game, seat_rows: list[Any] | None = None) -> list[dict[str, Any]]:
    """Who must act now, plainly: seat, faction, the seat's player (null for a
    bot seat), whether a bot plays it (bot seats, and zombie seats whose player
    missed too many deadlines), the ruleset's name of the decision, its deadline."""
    if game.status != Game.Status.RUNNING:
        return []
    rules = rules_for(game)
    due = deadlines.due_times(game)
    seats = {s.index: s for s in (seat_rows if seat_rows is not None else _seats(game))}
    out = []
    for p in rules.pending(load_state(game)):
        s = seats.get(p.seat)
        out.append(
            {
                "seat": p.seat,
                "faction": (s.faction or None) if s else None,
                "user": s.user.username if s is not None and s.user else None,
                "is_bot": bool(s and s.is_bot),
                "kind": p.kind,
                "deadline": due.get(p.seat),
            }
        )
    return out


def game_json(game: Game, user: Reader = None) -> dict[str, Any]:
    """The game's metadata; its invite code only for its creator (private games)."""
    host = game.private and getattr(user, "id", None) == game.creator_id
    seats = _seats(game)  # one query for the seats, the pending list and (usually) the creator
    creator = next((s.user for s in seats if s.user_id == game.creator_id), None) or game.creator
    return {
        "id": str(game.id),
        "ruleset": game.ruleset,
        "rules_version": game.rules_version,
        "name": game.name,
        "players": game.players,
        "options": game.options,
        "time_control": game.time_control,
        "status": game.status,
        "paused": game.paused,
        "private": game.private,
        "invite_code": game.invite_code if host else None,
        "creator": creator.username,
        "version": game.version,
        "chain_head": game.chain_head or None,
        "checkpoint": signing.of_game(game),
        "seed_commitment": sha256_hex(game.seed),
        "seats": seats_json(game, seats),
        "pending": pending_json(game, seats),
        "outcome": game.outcome,
        "created_at": _iso(game.created_at),
        "started_at": _iso(game.started_at),
        "finished_at": _iso(game.finished_at),
    }


def _iso(dt: datetime | None) -> str | None:
    return dt.isoformat().replace("+00:00", "Z") if dt else None


def view(game: Game, user: Reader) -> dict[str, Any]:
    """What `user` sees of the game now: the engine's view for their seat (or a spectator's)."""
    viewer = viewer_for(game, user)
    if game.status == Game.Status.OPEN:
        return {
            "ruleset": game.ruleset,
            "version": 0,
            "seat": viewer.seat,
            "state": None,
            "seats": None,
            "checkpoint": None,
        }
    return {**_view_body(game, load_state(game), viewer, game.version), "checkpoint": signing.of_game(game)}


def _view_body(game: Game, state: Any, viewer: Viewer, version: int) -> dict[str, Any]:
    """One shape whatever the status: `state` is the caller's view (their seat's,
    or the public one for a spectator); `seats` adds every seat's view once the
    game is over and nothing is secret any more (null before)."""
    rules = rules_for(game)
    wanted = [viewer.seat, *(i for i in range(game.players) if viewer.omniscient and i != viewer.seat)]
    views = rules_views(rules, state, wanted)  # may share parts: read-only
    return {
        "ruleset": game.ruleset,
        "version": version,
        "seat": viewer.seat,
        "state": views[viewer.seat],
        "seats": {str(i): views[i] for i in range(game.players)} if viewer.omniscient else None,
    }


def legal(game: Game, user: Reader) -> dict[str, Any]:
    """The commands `user` may send now: listed, or templates with samples when there are too many."""
    viewer = viewer_for(game, user)
    out = {
        "ruleset": game.ruleset,
        "version": game.version,
        "seat": viewer.seat,
        "pending": False,
        "deadline": None,
        "commands": [],
        "templates": [],
        "samples": [],
    }
    if game.status != Game.Status.RUNNING or viewer.seat is None or game.paused:
        return out
    rules = rules_for(game)
    state = load_state(game)
    out["pending"] = any(p.seat == viewer.seat for p in rules.pending(state))
    out["deadline"] = deadlines.due_times(game).get(viewer.seat)
    ls = rules.legal_commands(state, viewer.seat)
    commands = [dict(c) for c in ls.commands]
    rnd = random.Random(f"{game.id}:{game.version}:{viewer.seat}")
    if len(commands) <= MAX_LEGAL and not ls.templates:
        out["commands"] = commands
        return out
    if len(commands) <= MAX_LEGAL:
        out["commands"] = commands
    out["templates"] = [
        {"type": t.type, "schema": t.schema, "description": t.description} for t in ls.templates
    ]
    samples: list[dict[str, Any]] = []
    if ls.sample is not None:
        seen = set()
        for _ in range(SAMPLES * 3):
            c = dict(ls.sample(rnd))
            k = canonical_json(c)
            if k not in seen:
                seen.add(k)
                samples.append(c)
            if len(samples) >= SAMPLES:
                break
    elif commands:
        samples = rnd.sample(commands, min(SAMPLES, len(commands)))
    out["samples"] = samples
    return out


def events_page(
    game: Game, user: Reader, after: int, limit: int, lang: str = "en"
) -> tuple[list[dict[str, Any]], bool]:
    """A page of the viewer's redacted feed; the first event of every batch
    carries the batch's one-line `summary` in `lang` (services/summaries.py)."""
    viewer = viewer_for(game, user)
    rows = store.load(game.id, after=after, limit=limit + 1)
    more = len(rows) > limit
    page = rows[:limit]
    out = [present_event(r, viewer) for r in page]
    summaries.annotate(game, viewer, page, out, lang)
    # each commit's last event carries its checkpoint; a page cut inside a commit leaves it to the next
    signing.mark_batches(page, out, rows[limit] if more else None)
    return out, more


def replay(game: Game, user: Reader, version: Any) -> dict[str, Any]:
    """The view at `version` of the game's history; Invalid outside 1..current version."""
    try:
        v = int(version)
    except (TypeError, ValueError):
        v = -1
    if not 1 <= v <= game.version:
        raise Invalid(f"version must be from 1 to {game.version}", code=ErrorCode.INVALID_VERSION)
    # the same shape as the view: the signed checkpoint at `version` too
    at = store.load(game.id, after=v - 1, upto=v)
    checkpoint = signing.of_row(at[0]) if at else None
    return {**_view_body(game, load_state(game, upto=v), viewer_for(game, user), v), "checkpoint": checkpoint}
