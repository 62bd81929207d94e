"""The event store: append with an expected version, load, snapshots.

    append(stream, expected_version, [NewEvent(...)...]) -> [StoredEvent...]

raises `VersionConflict(current)` when the stream is not at `expected_version`
(the unique (stream, seq) key is the optimistic lock, so two writers that both
read version N cannot both write N+1), and `UnsaltedPrivateEvent` (writing
nothing) when an event private to some seats has no valid `payload.salt` or
repeats a salt of its batch: this is the one place every event passes through,
so no ruleset and no platform service can forget the rule (docs/audit.md). Call it inside ``transaction.atomic()``
together with whatever else must commit with the events.
"""

from __future__ import annotations

import pickle
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, connections, router, transaction
from django.utils import timezone

from .codec import GENESIS_HASH, chain_hash, salt_problem
from .models import Snapshot, StoredEvent


class VersionConflict(Exception):
    def __init__(self, current: int):
        super().__init__(f"stream is at version {current}")
        self.current = current


class UnsaltedPrivateEvent(ValueError):
    """A private event breaks the salt rule; nothing was written. From an engine
    this is an engine bug, from a platform service a platform bug."""

    def __init__(self, seq: int, type_: str, problem: str):
        super().__init__(f"seq {seq} ({type_}): {problem}")
        self.seq, self.type, self.problem = seq, type_, problem


@dataclass(frozen=True)
class NewEvent:
    type: str
    payload: Mapping[str, Any]
    version: int = 1
    visible_to: tuple[int, ...] | None = None
    actor: Mapping[str, Any] | None = None
    cause: Mapping[str, Any] | None = None
    extra: dict = field(default_factory=dict, compare=False)


def head(stream: uuid.UUID) -> tuple[int, str]:
    """(version, hash of the last event) of a stream; (0, genesis) when empty."""
    last = StoredEvent.objects.filter(stream=stream).order_by("-seq").values_list("seq", "hash").first()
    return (last[0], last[1]) if last else (0, GENESIS_HASH)


def append(stream: uuid.UUID, expected_version: int, events: Iterable[NewEvent],
           prev_hash: str | None = None) -> list[StoredEvent]:
    """Append after `expected_version`. `prev_hash` is the hash of the event at
    `expected_version` when the caller already knows it (the game row keeps the
    chain head under its lock), saving a query; the unique (stream, seq) key
    still refuses a stale writer. Must run inside the caller's transaction: a
    conflict raises and the caller's transaction rolls back (no savepoint — on
    PostgreSQL that would cost two more round trips per append)."""
    events = list(events)
    check_salts(expected_version, events)
    if prev_hash is None or (expected_version == 0) != (prev_hash == GENESIS_HASH):
        version, prev = head(stream)
        if version != expected_version:
            raise VersionConflict(version)
    else:
        prev = prev_hash
    now = timezone.now()
    rows = []
    for i, e in enumerate(events, start=expected_version + 1):
        payload = dict(e.payload)
        h = chain_hash(prev, i, e.type, e.version, payload)
        rows.append(StoredEvent(
            stream=stream, seq=i, type=e.type, version=e.version, payload=payload,
            actor=e.actor, cause=e.cause,
            visible_to=None if e.visible_to is None else sorted(e.visible_to),
            recorded_at=now, prev_hash=prev, hash=h,
        ))
        prev = h
    try:
        _insert(rows)
    except IntegrityError as exc:
        # The caller's transaction is unusable now (PostgreSQL); it rolls back as
        # this propagates. The current version is read by the caller afterwards.
        raise VersionConflict(expected_version + 1) from exc
    return rows


def check_salts(expected_version: int, events: list[NewEvent]) -> None:
    """The salt rule, before anything is written. Uniqueness across the whole game
    is the verifier's check (it sees the whole log; salts drawn from the
    decision's Rng differ across seqs unless an engine copies an old one)."""
    seen: set[str] = set()
    for seq, e in enumerate(events, start=expected_version + 1):
        if e.visible_to is None:
            continue
        problem = salt_problem(e.payload)
        if problem is None and e.payload["salt"] in seen:
            problem = "payload.salt repeats the salt of another event of its batch"
        if problem is not None:
            raise UnsaltedPrivateEvent(seq, e.type, problem)
        seen.add(e.payload["salt"])


_COLUMNS = ("stream", "seq", "type", "version", "payload", "actor", "cause", "visible_to", "recorded_at",
            "prev_hash", "hash")


def _insert(rows: list[StoredEvent]) -> None:
    """One multi-row INSERT, with values prepared by the model's own fields (so
    UUIDs, JSON and datetimes are stored exactly as the ORM would store them).
    The ORM's bulk_create costs about three times as much per event in Python
    and a RETURNING clause we do not need: the append path is the hot path."""
    conn = connections[router.db_for_write(StoredEvent)]
    fields = [StoredEvent._meta.get_field(c) for c in _COLUMNS]
    table = conn.ops.quote_name(StoredEvent._meta.db_table)
    cols = ", ".join(conn.ops.quote_name(f.column) for f in fields)
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    params: list = []
    for r in rows:
        params.extend(f.get_db_prep_save(getattr(r, f.attname), conn) for f in fields)
    with conn.cursor() as cur:
        cur.execute(f"INSERT INTO {table} ({cols}) VALUES " + ", ".join([one] * len(rows)), params)
    for r in rows:  # they are stored now: saving them again must be refused, not re-inserted
        r._state.adding, r._state.db = False, conn.alias


def load(stream: uuid.UUID, after: int = 0, upto: int | None = None, limit: int | None = None) -> list[StoredEvent]:
    qs = StoredEvent.objects.filter(stream=stream, seq__gt=after)
    if upto is not None:
        qs = qs.filter(seq__lte=upto)
    qs = qs.order_by("seq")
    return list(qs[:limit] if limit is not None else qs)


def save_snapshot(stream: uuid.UUID, version: int, rules_version: int, state: Any) -> None:
    try:
        with transaction.atomic():
            Snapshot.objects.create(stream=stream, version=version, rules_version=rules_version,
                                    state=pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    except IntegrityError:
        pass  # another process wrote the same snapshot: it is the same state


def latest_snapshot(stream: uuid.UUID, rules_version: int, upto: int | None = None) -> tuple[int, Any] | None:
    qs = Snapshot.objects.filter(stream=stream, rules_version=rules_version)
    if upto is not None:
        qs = qs.filter(version__lte=upto)
    snap = qs.order_by("-version").first()
    if snap is None:
        return None
    # Snapshots are written only by this server; they are a cache of derived data.
    return snap.version, pickle.loads(bytes(snap.state))  # noqa: S301
