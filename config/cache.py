"""Django's Redis cache with one connection pool per process.

Django keeps a cache object per request context; under ASGI every request is a
new context, and the stock client creates its connection pool per object --
so every request opened (and later leaked until garbage collection) a fresh
Redis connection. Here the pools are shared by URL within the process, and so
is the client on each pool: the stock backend builds a `redis.Redis` per cache
call (its constructor fills a dict of some 200 response callbacks: about a
third of a millisecond, twice per API request for the rate limit alone); a
client is thread-safe, taking a connection from the pool per command."""

from __future__ import annotations

import os
import threading

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

_pools: dict[tuple[int, str], object] = {}
_clients: dict[int, object] = {}  # id(pool) -> its client (pools live as long as the process)
_lock = threading.Lock()


class SharedPoolClient(RedisCacheClient):
    def _get_connection_pool(self, write):
        url = self._servers[self._get_connection_pool_index(write)]
        key = (os.getpid(), url)  # a forked child must not reuse its parent's sockets
        pool = _pools.get(key)
        if pool is None:
            with _lock:
                pool = _pools.get(key)
                if pool is None:
                    pool = _pools[key] = self._pool_class.from_url(url, **self._pool_options)
        return pool

    def get_client(self, key=None, *, write: bool = False):
        pool = self._get_connection_pool(write)
        client = _clients.get(id(pool))
        if client is None:
            client = _clients.setdefault(id(pool), self._client(connection_pool=pool))
        return client


class SharedPoolRedisCache(RedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = SharedPoolClient
