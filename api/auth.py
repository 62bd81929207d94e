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
"""

from __future__ import annotations

import binascii

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from knox.auth import TokenAuthentication
from knox.crypto import hash_token
from knox.models import AuthToken
from rest_framework import exceptions

PREFIX = "auth:token:"


def _ttl() -> int:
    return int(getattr(settings, "TOKEN_CACHE_SECONDS", 30))


class BearerTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, token: bytes):
        if _ttl() <= 0:
            return super().authenticate_credentials(token)
        try:
            digest = hash_token(token.decode("utf-8"))
        except (TypeError, UnicodeDecodeError, binascii.Error) as exc:
            raise exceptions.AuthenticationFailed("Invalid token.") from exc
        hit = cache.get(PREFIX + digest)
        if hit is not None:
            user, auth_token = hit
            return user, auth_token
        user, auth_token = super().authenticate_credentials(token)
        if auth_token.expiry is None:  # expiring tokens are left to knox's own checks
            cache.set(PREFIX + digest, (user, auth_token), _ttl())
        return user, auth_token


@receiver(post_delete, sender=AuthToken)
def _token_deleted(sender, instance: AuthToken, **kwargs) -> None:
    cache.delete(PREFIX + instance.digest)


@receiver(post_save, sender=get_user_model())
def _user_saved(sender, instance, created: bool, **kwargs) -> None:
    if not created:
        digests = AuthToken.objects.filter(user=instance).values_list("digest", flat=True)
        cache.delete_many([PREFIX + d for d in digests])
