"""Sign up, sign in, sign out (browser sessions) and the settings page, whose
script saves through PATCH /api/v1/accounts/me like any other client.

The doors are as tight as the API's (issue 31, accounts/security.py): sign-up
and sign-in count in the API's per-address register limit (THROTTLE_REGISTER),
and sign-in (here and at /admin/login/) in the per-account failure count; a
refusal is a 429 page with Retry-After, decided before any password hash."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.forms import AdminPasswordChangeForm
from django.contrib.auth import authenticate, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView, LogoutView, PasswordChangeView
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect

from accounts import sessions, usernames
from accounts.models import profile_of
from accounts.security import LoginLocked, register_wait
from games.rules.i18n import LANGUAGES
from games.services.vacation import days_left

from ..forms import SignUpForm, refusal_words


def _next(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or "/"
    ok = url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure())
    return target if ok else "/"


BACKEND = "accounts.backends.AccountBackend"


def too_many(request: HttpRequest, wait: float, title: str, text: str) -> HttpResponse:
    seconds = int(wait) + 1
    r = render(
        request,
        "web/message.html",
        {
            "title": title,
            "text": text + " " + gettext("Try again in %(seconds)s seconds.") % {"seconds": seconds},
        },
        status=429,
    )
    r["Retry-After"] = str(seconds)
    return r


def too_many_signups(request: HttpRequest, wait: float) -> HttpResponse:
    return too_many(
        request,
        wait,
        gettext("Too many sign-ups"),
        gettext("Too many sign-ups or sign-ins from your address."),
    )


def locked(request: HttpRequest, exc: LoginLocked) -> HttpResponse:
    return too_many(
        request,
        exc.wait,
        gettext("Too many failed sign-ins"),
        gettext(
            "Too many failed sign-ins for this account; it is locked for a while, whatever the password."
        ),
    )


def signup(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        wait = register_wait(request)  # counted before anything is validated or hashed
        if wait is not None:
            return too_many_signups(request, wait)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = form.save()
        except usernames.UsernameRefused as exc:  # a look-alike was created meanwhile
            form.add_error("username", refusal_words(exc))
        else:
            login(request, user, backend=BACKEND)
            return redirect(_next(request))
    return render(request, "web/signup.html", {"form": form, "next": _next(request)})


class SignIn(LoginView):
    template_name = "web/signin.html"
    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = register_wait(request)  # the API's token endpoint counts here too
        if wait is not None:
            return too_many_signups(request, wait)
        try:
            return super().post(request, *args, **kwargs)
        except LoginLocked as exc:
            return locked(request, exc)


@csrf_protect
@never_cache
def admin_login(request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
    """The admin's login (AdminSite.login), with the same doors as the sign-in page."""
    if request.method == "POST":
        wait = register_wait(request)
        if wait is not None:
            return too_many_signups(request, wait)
    try:
        return admin.site.login(request, extra_context)
    except LoginLocked as exc:
        return locked(request, exc)


class CountedPasswordChangeForm(AdminPasswordChangeForm):
    """The admin's password change, its current password checked through
    authenticate(): counted with the account's other failed logins, refused
    (LoginLocked) while the account is locked."""

    def clean_old_password(self) -> str:
        old: str = self.cleaned_data["old_password"]
        if authenticate(None, username=self.user.get_username(), password=old) is None:
            raise ValidationError(self.error_messages["password_incorrect"], code="password_incorrect")
        return old


class AdminPasswordChange(PasswordChangeView):
    """/admin/password_change/: as the API's password change, every token of the
    account is revoked and every other browser session ends."""

    form_class = CountedPasswordChangeForm

    def get_success_url(self) -> str:
        return reverse("admin:password_change_done")

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**admin.site.each_context(self.request), **super().get_context_data(**kwargs)}

    def form_valid(self, form: CountedPasswordChangeForm) -> HttpResponse:  # type: ignore[override]
        user = form.save()
        kept = sessions.keep_signed_in(self.request, user)
        sessions.revoke_all(user)
        sessions.end_web_sessions(user, keep=kept)
        return redirect(self.get_success_url())

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return super().post(request, *args, **kwargs)
        except LoginLocked as exc:
            return locked(request, exc)


admin_password_change = admin.site.admin_view(AdminPasswordChange.as_view())


class SignOut(LogoutView):
    pass


# Each language named in itself, as a language menu should.
NATIVE_NAMES = {
    "en": "English",
    "ja": "日本語",
    "zh-Hant": "繁體中文",
    "zh-Hans": "简体中文",
    "es": "Español",
    "ko": "한국어",
}


def languages() -> list[tuple[str, str]]:
    """The languages the rules catalogue speaks; "" follows the browser."""
    return [("", gettext("The browser's language"))] + [
        (code, NATIVE_NAMES.get(code, code)) for code in LANGUAGES
    ]


@login_required
def settings_page(request: HttpRequest) -> HttpResponse:
    profile = profile_of(request.user)
    ctx = {
        "profile": profile,
        "days_left": days_left(profile),
        "languages": languages(),
        "language": getattr(profile, "language", ""),
    }
    return render(request, "web/settings.html", ctx)
