"""One database read per game and commit for all the live streams of a process.

Without this, a commit woke every stream watching its game and each read the
game's head and its new rows by itself: with ten streams on a game, ten times
the same two queries per commit, in a pool of SSE_DB_THREADS threads, which is
what bounded delivery and took command throughput with it (docs/benchmarks.md,
"Live streams"). Here the first stream to fetch after a wake-up reads; the
others find the rows in memory (a lock per game makes them wait for that read
rather than repeat it) and only redact them for their own viewer.

Why, with the measurements and history: docs/modules.md, `games/services/stream_reads.py`.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from events import store
from events.feed import Batch
from events.models import StoredEvent
from games.models import Game

from . import prepared

MAX_ROWS = 500  # a fetch returns at most this many rows, as the paged feed does
MAX_AGE_SECONDS = 30.0


@dataclass
class Head:
    """A game's version and status, and its events in (after, upto] in seq order
    (upto < version when more than MAX_ROWS were new: the stream asks again)."""

    version: int
    status: str
    rows: list[StoredEvent]
    # What streams made of these rows, by (after, viewer, language): the streams of
    # one seat (or of spectators) share one redaction and one summary per commit.
    presented: dict[tuple[Any, ...], Batch] = field(default_factory=dict)


@dataclass
class _Entry:
    generation: int
    read_at: float
    version: int
    status: str
    base: int  # rows hold every event with base < seq <= upto
    upto: int
    rows: list[StoredEvent]
    presented: dict[tuple[Any, ...], Batch] = field(default_factory=dict)

    def covers(self, after: int) -> bool:
        return self.base <= after and (after < self.upto or self.upto >= self.version)

    def head(self, after: int) -> Head:
        rows = [r for r in self.rows if r.seq > after][:MAX_ROWS]
        return Head(self.version, self.status, rows, self.presented)


class SharedReads:
    """Thread-safe: fetches run in the stream pool's threads, `changed()` on the loop."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._game_locks: dict[str, threading.Lock] = defaultdict(threading.Lock)
        self._generation: dict[str, int] = defaultdict(int)
        self._entries: dict[str, _Entry] = {}
        self.reads = 0  # database reads done (tests, bench)
        self.pushes = 0  # commits taken from their announcement instead

    def changed(self, game_id: str) -> None:
        """The game has (or may have) new events: the next fetch reads."""
        with self._lock:
            self._generation[game_id] += 1

    def pushed(self, game_id: str, version: int, status: str, rows: list[Any]) -> bool:
        """A commit announced with its rows (events.feed.publish's `news`): like
        `changed()`, and when the rows follow what is held (nothing missed, no read
        in progress) the entry is extended with them, so the next fetch reads
        nothing. False when it could not be: the next fetch reads, as after
        `changed()`. The entry keeps the time of its last real read, so memory
        fed only by announcements is still re-read after MAX_AGE_SECONDS."""
        with self._lock:
            before = self._generation[game_id]
            self._generation[game_id] = before + 1
            entry = self._entries.get(game_id)
            game_lock = self._game_locks.get(game_id)
        if entry is None or game_lock is None or not rows or entry.generation != before:
            return False
        if entry.upto != entry.version or rows[0].seq != entry.version + 1 or rows[-1].seq != version:
            return False  # a commit was missed in between, or a backlog is still being paged
        if not game_lock.acquire(blocking=False):  # a read is running: it will be re-read
            return False
        try:
            grown = (entry.rows + list(rows))[-2 * MAX_ROWS :]
            base = grown[0].seq - 1 if len(grown) < len(entry.rows) + len(rows) else entry.base
            new = _Entry(before + 1, entry.read_at, version, status, base, version, grown)
            with self._lock:
                if self._entries.get(game_id) is not entry or self._generation[game_id] != before + 1:
                    return False
                self._entries[game_id] = new
            self.pushes += 1
            return True
        finally:
            game_lock.release()

    def forget(self, game_id: str) -> None:
        """No stream of this process watches the game any more: drop its rows."""
        with self._lock:
            self._entries.pop(game_id, None)
            self._generation.pop(game_id, None)
            self._game_locks.pop(game_id, None)

    def generation(self, game_id: uuid.UUID) -> int:
        """How many times the game was announced as moved (in this process)."""
        with self._lock:
            return self._generation.get(str(game_id), 0)

    def peek(self, game_id: uuid.UUID, after: int) -> Head | None:
        """What `read` would return without reading, or None: memory only and no
        wait for a read in progress (safe on the event loop)."""
        key = str(game_id)
        with self._lock:
            generation = self._generation.get(key, 0)
            entry = self._entries.get(key)
            game_lock = self._game_locks.get(key)
        if entry is None or game_lock is None or game_lock.locked() or entry.generation != generation:
            return None
        if time.monotonic() - entry.read_at >= MAX_AGE_SECONDS or not entry.covers(after):
            return None
        return entry.head(after)

    def read(self, game_id: uuid.UUID, after: int) -> Head:
        """The game's head and its events after `after`, from memory when nothing
        was announced since the last read that covers `after`."""
        key = str(game_id)
        with self._lock:
            game_lock = self._game_locks[key]
        with game_lock:
            with self._lock:
                generation = self._generation[key]
                entry = self._entries.get(key)
            fresh = entry is not None and entry.generation == generation
            if (
                entry is not None
                and fresh
                and time.monotonic() - entry.read_at < MAX_AGE_SECONDS
                and entry.covers(after)
            ):
                return entry.head(after)
            entry = self._read(game_id, after, generation, entry)
            with self._lock:
                if key in self._game_locks:  # not forgotten meanwhile
                    self._entries[key] = entry
            return entry.head(after)

    def _read(self, game_id: uuid.UUID, after: int, generation: int, old: _Entry | None) -> _Entry:
        self.reads += 1
        game = prepared.game(game_id)
        if game is None:
            raise Game.DoesNotExist(game_id)
        version, status = game.version, game.status
        if old is not None and old.base <= after <= old.upto:
            # extend what is held: the streams that are up to date ask after old.upto
            new = store.load(game_id, after=old.upto, limit=MAX_ROWS)
            rows = (old.rows + new)[-2 * MAX_ROWS :]
            base = rows[0].seq - 1 if len(rows) < len(old.rows) + len(new) else old.base
            upto = new[-1].seq if new else old.upto
        else:
            rows = store.load(game_id, after=after, limit=MAX_ROWS)
            base = after
            upto = rows[-1].seq if rows else after
        return _Entry(generation, time.monotonic(), version, status, base, upto, rows)


reads = SharedReads()
