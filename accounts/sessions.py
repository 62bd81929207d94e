"""API tokens as sessions the user controls: issue (with a client name), list,
revoke one / the current / all, and revoke the others on a password change.

Tokens are django-rest-knox tokens (stored as a digest) with a sliding expiry:
REST_KNOX TOKEN_TTL (TOKEN_TTL_DAYS, default 30) from the last use, refreshed by
knox (AUTO_REFRESH) at most once per MIN_REFRESH_INTERVAL. `TokenInfo` keeps the
client name and the last use next to each token.

Browser sessions (django.contrib.sessions) are listed in `WebSession` when they
sign in; `end_web_sessions` ends them through the configured SESSION_ENGINE's
own store, so logout-all and a password change reach every browser too."""

from __future__ import annotations

from datetime import datetime
from importlib import import_module
from typing import Any, cast

from django.conf import settings
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from knox.models import AuthToken

from .models import TokenInfo, WebSession

CLIENT_NAME_MAX = 100

SignedIn = User | AnonymousUser
"""`request.user` of a view behind a login (never an AnonymousUser in fact)."""


def issue(user: AbstractBaseUser, client_name: str = "") -> str:
    """A new token for `user`; returns the secret (shown once, stored hashed)."""
    with transaction.atomic():
        row, secret = AuthToken.objects.create(user)
        TokenInfo.objects.create(token=row, client_name=(client_name or "")[:CLIENT_NAME_MAX])
    return cast(str, secret)  # knox is untyped: create() returns (AuthToken, the secret)


def touch(token: AuthToken, now: datetime | None = None) -> None:
    """Record a use of `token` (called when knox slides its expiry)."""
    now = now or timezone.now()
    if not TokenInfo.objects.filter(token=token).update(last_used_at=now):
        TokenInfo.objects.get_or_create(token=token, defaults={"last_used_at": now})


def _iso(dt: datetime | None) -> str | None:
    return dt.isoformat().replace("+00:00", "Z") if dt else None


def listing(user: User, current: AuthToken | None) -> list[dict[str, Any]]:
    """The user's live tokens, newest first: id, client name, created, last used,
    expiry, and whether it is the one this request used. No secret, no digest."""
    now = timezone.now()
    rows = list(AuthToken.objects.filter(user=user).select_related("info").order_by("-created"))
    out = []
    for t in rows:
        if t.expiry is not None and t.expiry < now:
            continue  # knox deletes expired tokens lazily; they are not sessions any more
        info = getattr(t, "info", None)
        if info is None:  # a token made outside issue() (fixtures, the shell)
            info, _ = TokenInfo.objects.get_or_create(token=t)
        out.append(
            {
                "id": info.id,
                "client_name": info.client_name,
                "created_at": _iso(t.created),
                "last_used_at": _iso(info.last_used_at),
                "expires_at": _iso(t.expiry),
                "current": current is not None and t.pk == current.pk,
            }
        )
    return out


def revoke(token: AuthToken) -> int:
    """Revoke one token; 1 if it existed, else 0."""
    _, per_model = AuthToken.objects.filter(pk=token.pk).delete()
    return cast(int, per_model.get(AuthToken._meta.label, 0))  # knox is untyped


def revoke_by_id(user: SignedIn, token_id: int) -> bool:
    """Revoke one of `user`'s tokens by its listing id; False if there is none."""
    # `user` is signed in (the view's login requirement): an account, not an AnonymousUser
    info = TokenInfo.objects.filter(id=token_id, token__user=user).select_related("token").first()  # type: ignore[misc]
    if info is None:
        return False
    AuthToken.objects.filter(pk=info.token_id).delete()
    return True


def revoke_all(user: SignedIn, keep: AuthToken | None = None) -> int:
    """Revoke every token of `user` (but `keep`); the number revoked."""
    qs = AuthToken.objects.filter(user=user)
    if keep is not None:
        qs = qs.exclude(pk=keep.pk)
    n: int = qs.count()
    qs.delete()
    return n


def end_web_sessions(user: SignedIn, keep: str | None = None) -> int:
    """End every browser session `user` signed in (but the one keyed `keep`);
    the number ended."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    rows = WebSession.objects.filter(user=user)  # type: ignore[misc]  # signed in, as above
    if keep:
        rows = rows.exclude(session_key=keep)
    keys = list(rows.values_list("session_key", flat=True))
    for key in keys:
        store().delete(key)
    WebSession.objects.filter(session_key__in=keys).delete()
    return len(keys)


def keep_signed_in(request: HttpRequest, user: User) -> str | None:
    """After a password change made from a browser session, keep that session
    signed in (Django's update_session_auth_hash; it rotates the key, so the
    listing follows) and return its key; None for a request without one."""
    session = getattr(request, "session", None)
    if session is None or session.session_key is None or not session.get("_auth_user_id"):
        return None
    old = session.session_key
    update_session_auth_hash(request, user)
    WebSession.objects.filter(session_key=old).update(session_key=session.session_key)
    return cast(str | None, session.session_key)
