"""A batch with `last_write` (`store.append(..., commit=True)` for events alone):
the write that ends its transaction sends the COMMIT with the INSERT
(PostgreSQL), and changes nothing where that would commit more or less than
the caller's block (a savepoint, SQLite)."""

from __future__ import annotations

import uuid

import psycopg
import pytest
from django.db import connection, transaction
from psycopg.pq import TransactionStatus

from events import store
from events.codec import GENESIS_HASH
from events.models import Snapshot, StoredEvent
from tests.events.test_store import _batch

pytestmark = pytest.mark.django_db(transaction=True)


def ev(i=0):
    return store.NewEvent("test.Happened", {"i": i})


def _pg_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL=postgres://...)")


def _seen_by_another_connection(stream) -> int:
    """Rows of `stream` committed, as a second session sees them."""
    params = connection.get_connection_params()
    with psycopg.connect(**{k: v for k, v in params.items() if k != "cursor_factory"}) as other:
        (n,) = other.execute(
            f'SELECT count(*) FROM "{StoredEvent._meta.db_table}" WHERE stream = %s', [stream]
        ).fetchone()
    return n


@pytest.mark.postgres
@pytest.mark.parametrize("opened_before", [False, True], ids=["append-opens", "already-open"])
def test_the_append_ends_the_transaction_itself(opened_before):
    """Committed before the block exits (another session sees the rows and the
    batch's other rows), the connection idle; the block's exit then runs the
    on-commit hooks as usual. Writes made earlier in the block commit with it."""
    _pg_only()
    s, earlier, hooks = uuid.uuid4(), uuid.uuid4(), []
    with transaction.atomic():
        if opened_before:  # as a command does: its game row is locked first
            store.append(earlier, 0, [ev()])
        transaction.on_commit(lambda: hooks.append("ran"))
        store.write(_batch(s, 0, [ev(1), ev(2)], last_write=True))
        assert connection.connection.info.transaction_status == TransactionStatus.IDLE
        assert _seen_by_another_connection(s) == 2
        assert _seen_by_another_connection(earlier) == (1 if opened_before else 0)
        assert hooks == []
    assert hooks == ["ran"]
    assert Snapshot.objects.filter(stream=s).count() == 1
    # the connection is back in Django's hands: the next block is a transaction again
    with pytest.raises(RuntimeError), transaction.atomic():
        store.append(s, 2, [ev(3)])
        raise RuntimeError
    assert StoredEvent.objects.filter(stream=s).count() == 2


@pytest.mark.postgres
@pytest.mark.parametrize("opened_before", [False, True], ids=["append-opens", "already-open"])
def test_a_conflict_commits_nothing(opened_before):
    """A stale writer: the INSERT fails, PostgreSQL skips the rest (the UPDATE's
    stand-in, the COMMIT), and the caller's block rolls back all of it."""
    _pg_only()
    s, earlier = uuid.uuid4(), uuid.uuid4()
    store.append(s, 0, [ev()])
    with pytest.raises(store.VersionConflict), transaction.atomic():
        if opened_before:
            store.append(earlier, 0, [ev()])
        store.write(_batch(s, 0, [ev()], prev_hash=GENESIS_HASH, last_write=True))
    assert StoredEvent.objects.filter(stream=s).count() == 1
    assert not StoredEvent.objects.filter(stream=earlier).exists()
    assert not Snapshot.objects.filter(stream=s).exists()
    assert connection.connection.info.transaction_status == TransactionStatus.IDLE
    assert connection.get_autocommit()
    store.append(s, 1, [ev()], commit=True)  # and the connection works on
    assert StoredEvent.objects.filter(stream=s).count() == 2


def test_inside_a_savepoint_it_commits_nothing_early():
    """A nested block is part of a longer transaction: the outer block's
    failure still takes the append with it (any database)."""
    s = uuid.uuid4()
    with pytest.raises(RuntimeError), transaction.atomic():
        with transaction.atomic():
            store.append(s, 0, [ev()], commit=True)
        raise RuntimeError
    assert not StoredEvent.objects.filter(stream=s).exists()


def test_outside_a_block_or_on_any_database_the_events_are_written():
    s = uuid.uuid4()
    store.append(s, 0, [ev()], commit=True)  # autocommit: the INSERT commits by itself
    with transaction.atomic():
        store.append(s, 1, [ev()], commit=True)
    assert [r.seq for r in store.load(s)] == [1, 2]


@pytest.mark.postgres
def test_a_connection_with_its_own_isolation_level_keeps_its_begin():
    """Only psycopg's BEGIN carries an isolation level: the implicit transaction
    of an autocommit pipeline is not used then (the COMMIT rides instead)."""
    _pg_only()
    connection.ensure_connection()
    pg, s = connection.connection, uuid.uuid4()
    pg.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
    try:
        with transaction.atomic():
            store.append(s, 0, [ev()], commit=True)
            assert pg.info.transaction_status == TransactionStatus.IDLE
            assert _seen_by_another_connection(s) == 1
            assert not pg.autocommit  # the COMMIT rode in the pipeline; no autocommit switch
    finally:
        pg.isolation_level = None
