"""Sign up, sign in, sign out (browser sessions) and the settings page, whose
script saves through PATCH /api/v1/accounts/me like any other client."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.views import LoginView, LogoutView
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from accounts.models import profile_of
from games.rules.i18n import LANGUAGES
from games.services.vacation import days_left


def _next(request) -> str:
    target = request.POST.get("next") or request.GET.get("next") or "/"
    ok = url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure())
    return target if ok else "/"


def signup(request):
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(_next(request))
    return render(request, "web/signup.html", {"form": form, "next": _next(request)})


class SignIn(LoginView):
    template_name = "web/signin.html"
    redirect_authenticated_user = True


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
    return [("", "The browser's language")] + [(code, NATIVE_NAMES.get(code, code)) for code in LANGUAGES]


@login_required
def settings_page(request):
    profile = profile_of(request.user)
    ctx = {
        "profile": profile,
        "days_left": days_left(profile),
        "languages": languages(),
        "language": getattr(profile, "language", ""),
    }
    return render(request, "web/settings.html", ctx)
