"""The event store: append with an expected version, load, snapshots.

    write(Batch.after(stream, expected_version, [NewEvent(...)...])) -> [Recorded...]

A `Batch` is one unit of work: the events, the owning row's new fields, rows
to insert with them (an Idempotency-Key's receipt) and a snapshot. The store
hashes the events when the batch is made, then `write` checks the expected
version (the unique (stream, seq) key is the optimistic lock: `VersionConflict`),
chooses the pipelining and sends everything in one transaction. A private
event without a valid `payload.salt` is refused before anything is written
(`UnsaltedPrivateEvent`, docs/audit.md): every event passes through here.
"""

from __future__ import annotations

import functools
import json
import pickle
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

import psycopg
from django.db import IntegrityError, connections, models, router, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.constants import OnConflict
from django.db.models.sql import InsertQuery
from django.utils import timezone
from psycopg.errors import UniqueViolation
from psycopg.pq import TransactionStatus

from .codec import GENESIS_HASH, canonical_json, chain_body, salt_problem, sha256_hex
from .models import Snapshot, StoredEvent
from .prepared import Prepared


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
    extra: dict[str, Any] = field(default_factory=dict, compare=False)


def head(stream: uuid.UUID) -> tuple[int, str]:
    """(version, hash of the last event) of a stream; (0, genesis) when empty."""
    last = StoredEvent.objects.filter(stream=stream).order_by("-seq").values_list("seq", "hash").first()
    return (last[0], last[1]) if last else (0, GENESIS_HASH)


@dataclass(frozen=True, slots=True)
class Recorded:
    """An event as it was just stored: what `append` returns. A plain value
    with the columns' names (what `load` returns are StoredEvent rows with the
    same attributes); building model instances on the hot path cost more than
    the INSERT."""

    stream: uuid.UUID
    seq: int
    type: str
    version: int
    payload: dict[str, Any]
    actor: Mapping[str, Any] | None
    cause: Mapping[str, Any] | None
    visible_to: list[int] | None
    recorded_at: datetime
    prev_hash: str
    hash: str


Statement = tuple[str, Sequence[Any]]  # SQL with %s placeholders, and its parameters


@dataclass(frozen=True)
class RowUpdate:
    """The owning row's new fields (the game row: version, chain head, status...):
    `instance.save(update_fields=fields)`, sent as one statement after the INSERT."""

    instance: models.Model
    fields: Sequence[str]


@dataclass(frozen=True)
class SnapshotOf:
    """The folded state after the batch, stored under `rules_version` (a cache)."""

    rules_version: int
    state: Any


@dataclass
class Batch:
    """One unit of work on a stream, filled by its caller and written by `write`
    in one transaction: the events (hashed when the batch is made, so the caller
    can build what depends on them as plain values), the owning row's update, new
    rows to insert (a receipt), a snapshot, and whether nothing follows it in the
    caller's transaction (`last_write`: the COMMIT may ride in the pipeline)."""

    stream: uuid.UUID
    expected_version: int
    rows: list[Recorded]
    texts: list[tuple[str, str | None, str | None, str | None]] = field(repr=False)
    update: RowUpdate | None = None
    inserts: list[models.Model] = field(default_factory=list)
    snapshot: SnapshotOf | None = None
    last_write: bool = False

    @classmethod
    def after(
        cls,
        stream: uuid.UUID,
        expected_version: int,
        events: Iterable[NewEvent],
        prev_hash: str | None = None,
    ) -> Batch:
        """The events hashed onto the stream after `expected_version`. `prev_hash`
        is the hash of the event at `expected_version` when the caller knows it
        (the game row keeps the chain head under its lock), saving a query; the
        unique (stream, seq) key still refuses a stale writer at `write`. Raises
        `UnsaltedPrivateEvent` (nothing written) and, when it reads the head,
        `VersionConflict`."""
        events = list(events)
        check_salts(expected_version, events)
        if prev_hash is None or (expected_version == 0) != (prev_hash == GENESIS_HASH):
            version, prev = head(stream)
            if version != expected_version:
                raise VersionConflict(version)
        else:
            prev = prev_hash
        now = timezone.now()
        rows: list[Recorded] = []
        texts: list[tuple[str, str | None, str | None, str | None]] = []
        for seq, event in enumerate(events, start=expected_version + 1):
            payload = dict(event.payload)
            payload_text = canonical_json(payload)
            digest = sha256_hex(prev + chain_body(seq, event.type, event.version, payload_text))
            visible = None if event.visible_to is None else sorted(event.visible_to)
            rows.append(
                Recorded(
                    stream,
                    seq,
                    event.type,
                    event.version,
                    payload,
                    event.actor,
                    event.cause,
                    visible,
                    now,
                    prev,
                    digest,
                )
            )
            texts.append((payload_text, _json(event.actor), _json(event.cause), _json(visible)))
            prev = digest
        return cls(stream, expected_version, rows, texts)

    @property
    def version(self) -> int:
        """The stream's version once the batch is written."""
        return self.rows[-1].seq if self.rows else self.expected_version

    @property
    def head(self) -> str:
        """The chain head once the batch is written (the last event's hash)."""
        return self.rows[-1].hash


def write(batch: Batch) -> list[Recorded]:
    """Write `batch` inside the caller's transaction: one multi-row INSERT of the
    events, then the row update, the inserts and the snapshot, in one pipeline
    (one round trip) on PostgreSQL. A conflict (another writer took the seqs)
    raises `VersionConflict` and PostgreSQL skips the rest of the pipeline; the
    caller's transaction rolls back (no savepoint: on PostgreSQL that would cost
    two more round trips).

    With `batch.last_write` and the caller's ``transaction.atomic()`` the
    outermost block (no savepoint, no test case's wrapper), the COMMIT rides in
    the same pipeline on PostgreSQL: Django's own commit at the block's exit then
    finds nothing to do and runs the on-commit hooks as usual. Elsewhere
    (SQLite, a nested block) it changes nothing. Nothing may write after it in
    the block: a later statement would open a second transaction."""
    if not batch.rows:
        return []
    statements: list[Statement] = []
    if batch.update is not None:
        statements.append(update_statement(batch.update.instance, batch.update.fields))
    statements += [insert_statement(row) for row in batch.inserts]
    if batch.snapshot is not None:
        snapshot = Snapshot(
            stream=batch.stream,
            version=batch.version,
            rules_version=batch.snapshot.rules_version,
            state=pickle.dumps(batch.snapshot.state, protocol=pickle.HIGHEST_PROTOCOL),
        )
        # another process may have written the same snapshot: it is the same state
        statements.append(insert_statement(snapshot, ignore_conflicts=True))
    _insert(batch.rows, batch.texts, statements, batch.last_write)
    return batch.rows


def append(
    stream: uuid.UUID,
    expected_version: int,
    events: Iterable[NewEvent],
    prev_hash: str | None = None,
    commit: bool = False,
) -> list[Recorded]:
    """Append events alone: a batch with nothing else in it (`commit`: its
    `last_write`). Must run inside the caller's transaction, like `write`."""
    batch = Batch.after(stream, expected_version, events, prev_hash)
    batch.last_write = commit
    return write(batch)


def update_statement(instance: models.Model, fields: Sequence[str]) -> Statement:
    """`instance.save(update_fields=fields)` as one statement, without the ORM's
    per-save machinery (for models without save signals or a save() of their own)."""
    model = type(instance)
    connection = connections[router.db_for_write(model)]
    quote, meta = connection.ops.quote_name, model._meta
    # concrete fields of the model (update_fields names no relation's reverse side)
    columns = [cast("models.Field[Any, Any]", meta.get_field(name)) for name in fields]
    sets = ", ".join(f"{quote(cast(str, column.column))} = %s" for column in columns)
    params = [column.get_db_prep_save(getattr(instance, column.attname), connection) for column in columns]
    params.append(meta.pk.get_db_prep_value(instance.pk, connection))
    return f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(cast(str, meta.pk.column))} = %s", params


def insert_statement(instance: models.Model, ignore_conflicts: bool = False) -> Statement:
    """`instance.save()` of a new row as one statement (Django's own INSERT
    compiler: defaults, auto_now_add and JSON adaptation as the ORM would), to
    send in a pipeline with other statements instead of a round trip of its own."""
    model = type(instance)
    meta = model._meta
    fields = [column for column in meta.local_concrete_fields if column is not meta.auto_field]
    query = InsertQuery(model, on_conflict=OnConflict.IGNORE if ignore_conflicts else None)
    query.insert_values(fields, [instance])
    [(sql, params)] = query.get_compiler(using=router.db_for_write(model)).as_sql()
    return sql, params


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


def _json(value: Any) -> str | None:
    return None if value is None else canonical_json(value)


def _ordered(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)


_COLUMNS = (
    "stream",
    "seq",
    "type",
    "version",
    "payload",
    "actor",
    "cause",
    "visible_to",
    "recorded_at",
    "prev_hash",
    "hash",
)
_JSON_COLUMNS = frozenset({"payload", "actor", "cause", "visible_to"})


@functools.cache
def _insert_sql(vendor: str, n: int) -> str:
    table = StoredEvent._meta.db_table
    cols = ", ".join(
        cast(str, cast("models.Field[Any, Any]", StoredEvent._meta.get_field(c)).column) for c in _COLUMNS
    )
    jsonb = "::jsonb" if vendor == "postgresql" else ""
    one = "(" + ", ".join(f"%s{jsonb}" if c in _JSON_COLUMNS else "%s" for c in _COLUMNS) + ")"
    return f'INSERT INTO "{table}" ({cols}) VALUES ' + ", ".join([one] * n)


def _insert(
    rows: list[Recorded], texts: list[Any], after: Sequence[Statement] = (), commit: bool = False
) -> None:
    """One INSERT of prepared tuples. JSON goes in as the canonical text the
    hash was computed over (cast to jsonb on PostgreSQL), so it is encoded
    once. On PostgreSQL the statement rides in a pipeline: when it opens the
    transaction, BEGIN and INSERT share one round trip."""
    conn = connections[router.db_for_write(StoredEvent)]
    params: list[Any] = []
    if conn.vendor == "postgresql":
        for r, (p, a, c, v) in zip(rows, texts, strict=True):
            params += (r.stream, r.seq, r.type, r.version, p, a, c, v, r.recorded_at, r.prev_hash, r.hash)
    else:  # SQLite and others: values as the model's fields prepare them. JSON is text
        # here and keeps its key order, so it is written in the payload's own order.
        fields = [
            cast("models.Field[Any, Any]", StoredEvent._meta.get_field(c)) for c in ("stream", "recorded_at")
        ]
        for r in rows:
            params += (
                fields[0].get_db_prep_save(r.stream, conn),
                r.seq,
                r.type,
                r.version,
                _ordered(r.payload),
                _ordered(r.actor),
                _ordered(r.cause),
                _ordered(r.visible_to),
                fields[1].get_db_prep_save(r.recorded_at, conn),
                r.prev_hash,
                r.hash,
            )
    sql = _insert_sql(conn.vendor, len(rows))
    try:
        if conn.vendor == "postgresql":
            _pg_execute(conn, [(sql, params), *after], commit=commit and ends_transaction(conn))
        else:
            with conn.cursor() as cur:
                for statement, values in [(sql, params), *after]:
                    cur.execute(statement, values)
    except (IntegrityError, UniqueViolation) as exc:
        # The caller's transaction is unusable now (PostgreSQL); it rolls back as
        # this propagates. The current version is read by the caller afterwards.
        raise VersionConflict(rows[0].seq) from exc


def ends_transaction(conn: BaseDatabaseWrapper) -> bool:
    """Whether a COMMIT sent now would end exactly the caller's transaction: one
    atomic block open (so not a savepoint inside a longer transaction, nor a
    block inside a test case's), one that commits on exit (not a block entered
    with autocommit already off by hand), not already marked for rollback."""
    return (
        conn.in_atomic_block
        and len(conn.atomic_blocks) == 1
        and conn.commit_on_exit
        and not conn.needs_rollback
    )


def _pg_execute(conn: BaseDatabaseWrapper, statements: Sequence[Statement], commit: bool = False) -> None:
    """Statements in one pipeline, through a server-side-bound psycopg cursor
    (Django's is client-side, which cannot prepare), still listed in Django's
    query log when it keeps one (tests counting queries see each).

    With `commit` the pipeline also ends the transaction. When the transaction
    is already open (a command locked its game row first), a COMMIT closes the
    pipeline (not prepared: PostgreSQL prepares only queries). When these
    statements would open it, psycopg would send its BEGIN and wait for it
    before the rest (one more round trip), so the pipeline runs in autocommit
    instead: PostgreSQL runs the statements up to the pipeline's Sync as one
    implicit transaction and commits it there (the standalone append's path),
    unless the connection asks for an isolation level or access mode of its
    own, which only its BEGIN carries. After an error PostgreSQL skips the rest
    (the COMMIT too) and the caller's block rolls back as before."""
    conn.ensure_connection()
    pg = conn.connection
    implicit = (
        commit
        and pg.info.transaction_status == TransactionStatus.IDLE
        and pg.isolation_level is None
        and pg.read_only is None
    )
    start = time.monotonic()
    if implicit:
        pg.autocommit = True  # a local flag: no round trip while idle
    try:
        with conn.wrap_database_errors, psycopg.Cursor(pg) as cur, pg.pipeline():
            for sql, params in statements:
                cur.execute(sql, params, prepare=True)
            if commit and not implicit:
                cur.execute("COMMIT")
    finally:
        if implicit and not pg.closed:
            pg.autocommit = False  # Django's block still owns the connection
    if conn.queries_logged:
        took = f"{time.monotonic() - start:.3f}"
        conn.queries_log.extend({"sql": sql, "time": took} for sql, _ in statements)


# The feed's, the streams' and the state loader's reads, compiled once (events/prepared.py).
_after = Prepared(
    lambda stream, after: StoredEvent.objects.filter(stream=stream, seq__gt=after).order_by("seq")
)
_between = Prepared(
    lambda stream, after, upto: StoredEvent.objects.filter(
        stream=stream, seq__gt=after, seq__lte=upto
    ).order_by("seq")
)


@functools.cache
def _after_limited(limit: int) -> Prepared:
    """One compiled shape per page size (a LIMIT is part of the SQL text)."""
    return Prepared(
        lambda stream, after: StoredEvent.objects.filter(stream=stream, seq__gt=after).order_by("seq")[:limit]
    )


def load(
    stream: uuid.UUID, after: int = 0, upto: int | None = None, limit: int | None = None
) -> list[StoredEvent]:
    """The stream's events with after < seq (<= upto), in seq order, at most `limit`."""
    if not isinstance(stream, uuid.UUID):
        stream = uuid.UUID(str(stream))  # bound as the ORM binds a UUID (text on SQLite)
    if upto is None and limit is None:
        return _after(stream, after)
    if limit is None:
        return _between(stream, after, upto)
    if upto is None and isinstance(limit, int) and 0 < limit <= 10_000:
        return _after_limited(limit)(stream, after)
    qs = StoredEvent.objects.filter(stream=stream, seq__gt=after)
    if upto is not None:
        qs = qs.filter(seq__lte=upto)
    qs = qs.order_by("seq")
    return list(qs[:limit] if limit is not None else qs)


def save_snapshot(stream: uuid.UUID, version: int, rules_version: int, state: Any) -> None:
    try:
        with transaction.atomic():
            Snapshot.objects.create(
                stream=stream,
                version=version,
                rules_version=rules_version,
                state=pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL),
            )
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
