"""The caller's inbox (GET /api/v1/accounts/me/games): every game they hold a
seat in, with whether a decision of theirs is pending, its deadline, the last
activity, the chain head and its signed checkpoint, and how many events happened since the
caller last looked (`unseen_events`, games/services/last_seen.py) — sorted so what needs them soonest comes first.

`pending` comes from the rules (the truth at this version), deadlines from the
play-by-email rows. The user stream announces changes (`inbox` notices, see
`notify.announce`), so a client with 20 games polls none of them."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db.models import OuterRef, Subquery

from events.models import StoredEvent

from ..models import Game, LastSeen, Seat
from . import deadlines, signing
from .errors import ErrorCode, Invalid
from .state import load_state, rules_for

SORTING = "pending first, by deadline (soonest first, untimed after), then by last activity (newest first)"


def _iso(dt: datetime | None) -> str | None:
    return dt.isoformat().replace("+00:00", "Z") if dt else None


def entries(user: User, status: str | None = None, awaiting_me: bool = False) -> list[dict[str, Any]]:
    """The user's games, one entry per seat held, optionally filtered by status or to those awaiting
    them."""
    if status is not None and status not in Game.Status.values:
        raise Invalid(f"status must be one of {Game.Status.values}", code=ErrorCode.INVALID)
    last = StoredEvent.objects.filter(stream=OuterRef("game_id")).order_by("-seq").values("recorded_at")[:1]
    seen = LastSeen.objects.filter(game=OuterRef("game_id"), user=user).values("version")[:1]
    seats = (
        Seat.objects.filter(user=user)
        .select_related("game")
        .annotate(last_event_at=Subquery(last), seen_version=Subquery(seen))
        .order_by("game_id", "index")
    )
    if status:
        seats = seats.filter(game__status=status)
    out: dict[uuid.UUID, dict[str, Any]] = {}
    for seat in seats:
        game = seat.game
        if game.id in out:
            continue  # one entry per game (a user holds one seat per game)
        pending_kind = None
        deadline = None
        if game.status == Game.Status.RUNNING:
            kinds = [p.kind for p in rules_for(game).pending(load_state(game)) if p.seat == seat.index]
            pending_kind = kinds[0] if kinds else None
            if pending_kind is not None:
                deadline = deadlines.due_times(game).get(seat.index)
        if awaiting_me and pending_kind is None:
            continue
        out[game.id] = {
            "id": str(game.id),
            "name": game.name,
            "ruleset": game.ruleset,
            "status": game.status,
            "paused": game.paused,
            "private": game.private,
            "seat": seat.index,
            "faction": seat.faction or None,
            "pending": pending_kind is not None,
            "decision": pending_kind,
            "deadline": deadline,
            "last_activity": _iso(seat.last_event_at or game.created_at),
            "version": game.version,
            "chain_head": game.chain_head or None,
            # never looked: every event is new to them
            "unseen_events": max(0, game.version - (seat.seen_version or 0)),
            "checkpoint": signing.of_game(game),
        }
    return sorted(out.values(), key=_order)


def _order(e: dict[str, Any]) -> tuple[Any, ...]:
    due = datetime.fromisoformat(e["deadline"]).timestamp() if e["deadline"] else None
    last = datetime.fromisoformat(e["last_activity"]).timestamp()
    return (not e["pending"], due is None, due or 0.0, -last, e["id"])
