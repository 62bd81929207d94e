"""Django's PostgreSQL backend whose connection pool checks a borrowed connection
without a round trip when it safely can.

Why, with the measurements and history: docs/modules.md, `config/postgres/base.py`.
"""

from __future__ import annotations

import select
import time
import weakref

from django.core.exceptions import ImproperlyConfigured
from django.db.backends.base.base import NO_DB_ALIAS
from django.db.backends.postgresql import base
from psycopg import OperationalError, pq
from psycopg_pool import ConnectionPool

IDLE_CHECK_SECONDS = 5.0  # a connection rested longer than this is checked with a query

_lent: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # connection -> monotonic time


def _waiting(fd: int) -> bool:
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLERR | select.POLLHUP)
    return bool(poller.poll(0))


def check(conn) -> None:
    """Raise if the connection cannot be used (the pool then replaces it)."""
    if conn.closed or conn.pgconn.status != pq.ConnStatus.OK:
        raise OperationalError("the connection is closed")
    now = time.monotonic()
    rested = now - _lent.get(conn, float("-inf"))
    idle = conn.pgconn.transaction_status == pq.TransactionStatus.IDLE
    if not idle or rested > IDLE_CHECK_SECONDS or _waiting(conn.pgconn.socket):
        ConnectionPool.check_connection(conn)
    _lent[conn] = now


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self):
        """As Django's (5.2), with `check` above when health checks are on."""
        pool_options = self.settings_dict["OPTIONS"].get("pool")
        if self.alias == NO_DB_ALIAS or not pool_options:
            return None
        if self.alias not in self._connection_pools:
            if self.settings_dict.get("CONN_MAX_AGE", 0) != 0:
                raise ImproperlyConfigured("Pooling doesn't support persistent connections.")
            options = {} if pool_options is True else dict(pool_options)
            if self.settings_dict["CONN_HEALTH_CHECKS"]:
                options.setdefault("check", check)
            connect_kwargs = self.get_connection_params()
            connect_kwargs["autocommit"] = True  # Django sets it as it needs later, as its own pool does
            pool = ConnectionPool(
                kwargs=connect_kwargs, open=False, configure=self._configure_connection, **options
            )
            # several threads may build one at start-up; the first stored wins (as in Django)
            self._connection_pools.setdefault(self.alias, pool)
        return self._connection_pools[self.alias]
