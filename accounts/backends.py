"""The one place a password is checked (settings.AUTHENTICATION_BACKENDS):
every door calls `django.contrib.auth.authenticate` -- the API's token and
password-change endpoints, the web sign-in form, the admin login -- and so
shares one failure count per account (accounts.security.FailedLogins)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied

from .security import FailedLogins
from .usernames import normalize


class AccountBackend(ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        failures = FailedLogins(username)
        failures.check()  # LoginLocked propagates to the door: no hash is computed while locked
        user = super().authenticate(request, username=normalize(username), password=password, **kwargs)
        if user is None:
            failures.failed()
            # stop here: the ModelBackend listed after this one (for sessions signed in
            # before it existed) must not check the same password again
            raise PermissionDenied
        failures.succeeded()
        return user
