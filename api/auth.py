"""Bearer tokens: django-rest-knox tokens (stored hashed, revocable), sent as
`Authorization: Bearer <token>` (REST_KNOX["AUTH_HEADER_PREFIX"] = "Bearer";
knox compares the header's scheme with its WWW-Authenticate answer).

Knox looks the token up on every request: a query for the token (with its
user) and one more for the user's other tokens (its expiry clean-up). We keep
the answer in the cache (Redis when configured) for TOKEN_CACHE_SECONDS, keyed
by the token's digest (the stored hash: the token itself never reaches the
cache). Deleting a token (logout, revocation) or saving its user (deactivated,
renamed) drops the entries at once, through signals; with the in-process cache
and several processes, the other processes keep theirs until it expires, so
the setting stays short (30 s by default, 0 turns the cache off).

In front of a shared cache (Redis) each process also keeps its own answers for
TOKEN_LOCAL_CACHE_SECONDS (5 s by default, 0 = off), which saves the cache's
round trip too: a token revoked through another process keeps working here for
at most that long.

Expiry slides: a use moves it TOKEN_TTL ahead (knox AUTO_REFRESH), written at
most once per MIN_REFRESH_INTERVAL; the token's last use is recorded at the
same pace (accounts.sessions.touch). A cached answer skips that renewal, so the
expiry slides on the next cache miss (at most TOKEN_CACHE_SECONDS later, far
inside the 30-day TTL); a cached token past its expiry is never accepted.
"""

from __future__ import annotations

import binascii
import threading
import time
from collections import OrderedDict

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone
from knox.auth import TokenAuthentication
from knox.crypto import hash_token
from knox.models import AuthToken
from knox.settings import knox_settings
from rest_framework import exceptions

from accounts.sessions import touch

PREFIX = "auth:token:"


def _ttl() -> int:
    return int(getattr(settings, "TOKEN_CACHE_SECONDS", 30))


class _Local:
    """A small per-process LRU with expiry (a thread-safe dict)."""

    def __init__(self, size: int = 4096):
        self.size, self.lock, self.items = size, threading.Lock(), OrderedDict()

    def get(self, key: str):
        with self.lock:
            hit = self.items.get(key)
            if hit is None or hit[0] < time.monotonic():
                return None
            return hit[1]

    def put(self, key: str, value, ttl: float) -> None:
        with self.lock:
            self.items[key] = (time.monotonic() + ttl, value)
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def drop(self, keys) -> None:
        with self.lock:
            for k in keys:
                self.items.pop(k, None)


_LOCAL = _Local()


def _local_ttl() -> float:
    return float(getattr(settings, "TOKEN_LOCAL_CACHE_SECONDS", 5))


class BearerTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, token: bytes):
        if _ttl() <= 0:
            return super().authenticate_credentials(token)
        try:
            digest = hash_token(token.decode("utf-8"))
        except (TypeError, UnicodeDecodeError, binascii.Error) as exc:
            raise exceptions.AuthenticationFailed("Invalid token.") from exc
        key = PREFIX + digest
        hit = _LOCAL.get(key) if _local_ttl() > 0 else None
        if hit is None:
            hit = cache.get(key)
            if hit is not None and _local_ttl() > 0:
                _LOCAL.put(key, hit, min(_local_ttl(), _ttl()))
        if hit is not None:
            user, auth_token = hit
            if auth_token.expiry is None or auth_token.expiry > timezone.now():
                return user, auth_token
            cache.delete(key)
            _LOCAL.drop([key])
        user, auth_token = super().authenticate_credentials(token)  # knox checks expiry and renews
        cache.set(key, (user, auth_token), _ttl())
        return user, auth_token

    def renew_token(self, auth_token) -> None:
        before = auth_token.expiry
        super().renew_token(auth_token)
        if (auth_token.expiry - before).total_seconds() > knox_settings.MIN_REFRESH_INTERVAL:
            touch(auth_token)


@receiver(post_delete, sender=AuthToken)
def _token_deleted(sender, instance: AuthToken, **kwargs) -> None:
    cache.delete(PREFIX + instance.digest)
    _LOCAL.drop([PREFIX + instance.digest])


@receiver(post_save, sender=get_user_model())
def _user_saved(sender, instance, created: bool, **kwargs) -> None:
    if not created:
        digests = AuthToken.objects.filter(user=instance).values_list("digest", flat=True)
        keys = [PREFIX + d for d in digests]
        cache.delete_many(keys)
        _LOCAL.drop(keys)
