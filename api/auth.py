"""Bearer tokens: django-rest-knox tokens (stored hashed, revocable), sent as
`Authorization: Bearer <token>` (REST_KNOX["AUTH_HEADER_PREFIX"] = "Bearer";
knox compares the header's scheme with its WWW-Authenticate answer).

Why, with the measurements and history: docs/modules.md, `api/auth.py`.
"""

from __future__ import annotations

import binascii
from functools import lru_cache

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import connections, router
from django.utils import timezone
from django.utils.translation import gettext_lazy
from knox.auth import TokenAuthentication
from knox.crypto import hash_token
from knox.models import AuthToken
from knox.settings import knox_settings
from rest_framework import exceptions

from accounts.sessions import touch


class _Lookup:
    """SELECT token.*, user.* FROM token JOIN user WHERE token.digest = %s, and
    the rows made into an AuthToken with its user, as the ORM would make them."""

    def __init__(self, alias: str) -> None:
        self.alias = alias
        connection = connections[alias]
        q = connection.ops.quote_name
        self.models = (AuthToken, get_user_model())
        self.fields = [list(m._meta.concrete_fields) for m in self.models]
        token_meta, user_meta = AuthToken._meta, get_user_model()._meta
        columns = [f"t.{q(f.column)}" for f in self.fields[0]] + [f"u.{q(f.column)}" for f in self.fields[1]]
        self.sql = (
            f"SELECT {', '.join(columns)} FROM {q(token_meta.db_table)} t "
            f"INNER JOIN {q(user_meta.db_table)} u ON u.{q(str(user_meta.pk.column))} = t.{q(token_meta.get_field('user').column)} "
            f"WHERE t.{q(token_meta.get_field('digest').column)} = %s"
        )
        self.converters = [
            [
                (
                    f,
                    connection.ops.get_db_converters(f.get_col(m._meta.db_table))
                    + f.get_db_converters(connection),
                )
                for f in fields
            ]
            for m, fields in zip(self.models, self.fields, strict=True)
        ]

    def __call__(self, digest: str) -> AuthToken | None:
        connection = connections[self.alias]
        with connection.cursor() as cursor:
            cursor.execute(self.sql, [digest])
            row = cursor.fetchone()
        if row is None:
            return None
        values, out = list(row), []
        for model, converters in zip(self.models, self.converters, strict=True):
            mine, values = values[: len(converters)], values[len(converters) :]
            for i, (field, convs) in enumerate(converters):
                for conv in convs:
                    mine[i] = conv(mine[i], field.get_col(model._meta.db_table), connection)
            out.append(model.from_db(self.alias, [f.attname for f, _ in converters], mine))
        token, user = out
        token.user = user
        return token


@lru_cache(maxsize=8)
def _lookup(alias: str) -> _Lookup:
    return _Lookup(alias)


class BearerTokenAuthentication(TokenAuthentication):  # type: ignore[misc]  # knox ships no types
    def authenticate_credentials(self, token: bytes) -> tuple[User, AuthToken]:
        try:
            digest = hash_token(token.decode("utf-8"))
        except (TypeError, UnicodeDecodeError, binascii.Error, ValueError) as exc:
            raise exceptions.AuthenticationFailed(gettext_lazy("Invalid token.")) from exc
        auth_token = _lookup(router.db_for_read(AuthToken))(digest)
        if auth_token is None:
            raise exceptions.AuthenticationFailed(gettext_lazy("Invalid token."))
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            auth_token.delete()
            raise exceptions.AuthenticationFailed(gettext_lazy("Invalid token."))
        if knox_settings.AUTO_REFRESH and auth_token.expiry:
            self.renew_token(auth_token)
        validated: tuple[User, AuthToken] = self.validate_user(auth_token)  # an inactive user is refused
        return validated

    def renew_token(self, auth_token: AuthToken) -> None:
        before = auth_token.expiry
        super().renew_token(auth_token)
        if (auth_token.expiry - before).total_seconds() > knox_settings.MIN_REFRESH_INTERVAL:
            touch(auth_token)
            # knox deletes a user's expired tokens on every request; once a minute is enough
            AuthToken.objects.filter(user_id=auth_token.user_id, expiry__lt=timezone.now()).delete()
