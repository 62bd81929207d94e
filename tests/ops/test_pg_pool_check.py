"""The pooled connection check (config/postgres/base.py): a healthy connection
handed back a moment ago is lent without a query; one the server closed is
found and replaced, so a request after `pg_terminate_backend` (or a restart)
still gets a working connection. Real PostgreSQL with the pool only."""

import psycopg
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from config.postgres import base

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def pooled():
    if connection.vendor != "postgresql" or connection.pool is None:
        pytest.skip("needs PostgreSQL with the connection pool (DATABASE_URL=postgres://...)")
    connection.close()  # hand back whatever this thread holds: each test borrows afresh
    # ... from a pool of its own: earlier tests' threads may still hold connections
    # of the old one (tests/events/test_concurrency.py's 20 writers), or leave many idle
    connection.close_pool()
    connection.ensure_connection()  # opens the new pool
    connection.pool.wait(10)  # ... and lets it fill to its minimum size
    connection.close()
    yield connection
    connection.close()


@pytest.fixture
def query_checks(monkeypatch):
    calls = []
    real = ConnectionPool.check_connection

    def counted(conn):
        calls.append(conn)
        return real(conn)

    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(counted))
    return calls


def _pid() -> int:
    with connection.cursor() as cur:
        cur.execute("SELECT pg_backend_pid()")
        return cur.fetchone()[0]


def _cycle(times: int) -> None:
    """Borrow and hand back: the pool lends its connections in turn."""
    for _ in range(times):
        _pid()
        connection.close()


def _everyone() -> int:
    """Borrows that reach every idle connection of the pool (it lends them in turn;
    earlier tests, e.g. 20 concurrent writers, may have left many)."""
    return connection.pool.get_stats().get("pool_available", 0) + 3


def test_a_healthy_connection_is_lent_without_a_query(pooled, query_checks):
    _cycle(_everyone())  # every pooled connection lent once just now (a new one is checked)
    before = len(query_checks)
    _cycle(_everyone())
    assert len(query_checks) == before


def test_a_connection_rested_too_long_is_checked_with_a_query(pooled, query_checks, monkeypatch):
    _cycle(_everyone())
    monkeypatch.setattr(base, "IDLE_CHECK_SECONDS", -1.0)
    before = len(query_checks)
    _pid()
    assert len(query_checks) > before


def test_a_connection_the_server_closed_is_replaced(pooled, query_checks):
    pids = set()
    for _ in range(_everyone()):  # every pooled connection, each handed back at once
        pids.add(_pid())
        pooled.close()
    # the killer is a connection of its own: a pooled one could be one of `pids`
    with psycopg.connect(**pooled.get_connection_params()) as killer:
        for pid in pids:
            # with a timeout it returns once the backend has exited (its socket closed)
            killer.execute("SELECT pg_terminate_backend(%s, 10000)", (pid,))
    for _ in range(_everyone()):  # every connection lent afterwards works
        assert _pid() not in pids
        pooled.close()
    assert query_checks, "a terminated connection's socket showed it: the query check ran"
