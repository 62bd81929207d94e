"""Per-user settings next to Django's auth user: notifications and vacation.
API tokens are django-rest-knox tokens (stored hashed)."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import models


def _unsubscribe_token() -> str:
    return secrets.token_urlsafe(24)


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    email_notifications = models.BooleanField(default=True)
    webhook_url = models.URLField(blank=True, default="", max_length=500)
    webhook_secret = models.CharField(blank=True, default="", max_length=200)
    # One-click unsubscribe links carry this token instead of requiring a login.
    unsubscribe_token = models.CharField(max_length=64, unique=True, default=_unsubscribe_token)
    vacation_until = models.DateTimeField(null=True, blank=True)
    vacation_days_used = models.JSONField(default=dict)  # {"2026": 12.5}
    # The language the server speaks to this account (issue 14.4): one of
    # games.rules.i18n.LANGUAGES, or "" to follow the request's Accept-Language.
    language = models.CharField(max_length=8, blank=True, default="")
    # A program plays for this account through the ordinary API (shown in seat lists).
    is_bot = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"Profile({self.user_id})"


def profile_of(user: User | AnonymousUser) -> Profile:
    # web views pass `request.user` behind a login: an account, never an AnonymousUser
    profile, _ = Profile.objects.get_or_create(user=user)  # type: ignore[misc]
    return profile


class TokenInfo(models.Model):
    """What a user may know about one of their API tokens (knox stores the token
    itself, hashed): a name the client gave at creation and when it was last used.
    Never the secret nor its digest; `id` is how the owner names it."""

    token = models.OneToOneField("knox.AuthToken", on_delete=models.CASCADE, related_name="info")
    client_name = models.CharField(max_length=100, blank=True, default="")
    # Updated at most once a minute (with knox's sliding expiry), not on every request.
    last_used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"TokenInfo({self.id} {self.client_name!r})"


class UsernameSkeleton(models.Model):
    """The look of a username (accounts.usernames.skeletons), kept current by a
    post_save signal on the user, so "is a name like this one taken?" is one
    indexed lookup. Unique: two accounts never look alike. A value is None only
    for an account that already looked like an older one when this table was
    filled (or was named so by the admin); the older account still holds it."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="skeleton")
    folded = models.CharField(max_length=600, unique=True, null=True)  # case-folded, then mapped
    shaped = models.CharField(max_length=600, unique=True, null=True)  # mapped, then case-folded

    def __str__(self) -> str:
        return f"UsernameSkeleton({self.user_id} {self.folded!r})"


class WebSession(models.Model):
    """Which browser sessions (django.contrib.sessions keys) an account signed
    in, so logout-all and a password change can end them (issue 31) whatever
    the SESSION_ENGINE: the engine's own store deletes each key."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="web_sessions")
    session_key = models.CharField(max_length=40, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"WebSession({self.user_id})"
