"""What a viewer may see of events and games. The API never serializes raw
state or raw event rows: everything goes through here."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, overload

from events.models import StoredEvent
from games.core_events import REDACTED_TYPE

from ..models import Game, Seat
from . import prepared
from .types import Reader


@overload
def iso(dt: datetime) -> str: ...
@overload
def iso(dt: None) -> None: ...
@overload
def iso(dt: datetime | None) -> str | None: ...
def iso(dt: datetime | None) -> str | None:
    """A datetime as the API writes it: UTC, `Z`."""
    return dt.astimezone(UTC).isoformat().replace("+00:00", "Z") if dt else None


@dataclass(frozen=True)
class Viewer:
    """Who is looking: the seats they hold (empty for a spectator) and whether
    they may see everything (finished game)."""

    seats: frozenset[int]
    omniscient: bool = False
    user_id: int | None = None

    @property
    def seat(self) -> int | None:
        """The lowest seat held (the one a view is drawn for), or None for a spectator."""
        return min(self.seats) if self.seats else None


def viewer_for(game: Game, user: Reader, seats: list[Seat] | None = None) -> Viewer:
    """Who `user` is at this table: their seats, or a spectator; everyone sees all once the game ended."""
    seats = seats if seats is not None else prepared.seats(game)
    uid = getattr(user, "id", None)
    mine = frozenset(s.index for s in seats if uid is not None and s.user_id == uid)
    return Viewer(mine, omniscient=game.status in (Game.Status.FINISHED, Game.Status.ABORTED), user_id=uid)


def can_see(row: StoredEvent, viewer: Viewer) -> bool:
    """Whether the viewer may see the content of this stored event."""
    return viewer.omniscient or row.visible_to is None or bool(viewer.seats & set(row.visible_to))


def present_event(row: StoredEvent, viewer: Viewer) -> dict[str, Any]:
    """A stored event as the viewer may see it (redacted to its chain links when private to others)."""
    if not can_see(row, viewer):
        # No gaps in feeds: the seq and chain links stay, the content does not; nor
        # does the type, which would tell which kind of secret was played.
        return {
            "seq": row.seq,
            "type": REDACTED_TYPE,
            "redacted": True,
            "prev_hash": row.prev_hash,
            "hash": row.hash,
        }
    out = {
        "seq": row.seq,
        "type": row.type,
        "version": row.version,
        "actor": row.actor,
        "recorded_at": row.recorded_at.isoformat().replace("+00:00", "Z"),
        "visibility": "public" if row.visible_to is None else "private",
        "visible_to": row.visible_to,
        "payload": row.payload,
        "redacted": False,
        "prev_hash": row.prev_hash,
        "hash": row.hash,
    }
    if row.cause is not None:
        seat = (row.cause or {}).get("seat")
        # The command itself may be secret (a bid): its author and, at the end, everyone.
        if viewer.omniscient or seat is None or seat in viewer.seats:
            out["cause"] = row.cause
    return out
