"""Which language the server speaks to a request (issue 14.4): ``?lang=``, then
the account's ``language`` setting, then ``Accept-Language``, then English.

Resolved only where a localized text is produced (catalogue, feed summaries,
export, error details), not by a middleware on every request: reading the
account's setting costs a query, and the hot paths' query budgets are pinned
(tests/api/test_request_costs.py)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from django.utils.translation.trans_real import parse_accept_lang_header
from rest_framework.request import Request

from accounts.models import Profile
from games.rules.i18n import DEFAULT, LANGUAGES, normalize
from games.services.errors import ErrorCode, Invalid
from games.services.types import Reader


def requested(request: HttpRequest | Request) -> str | None:
    """``?lang=`` as a supported language; a value we do not speak is a 400."""
    raw = request.GET.get("lang")
    if raw is None or raw == "":
        return None
    lang = normalize(raw)
    if lang is None:
        raise Invalid(
            f"lang must be one of {', '.join(LANGUAGES)}",
            code=ErrorCode.UNSUPPORTED_LANGUAGE,
        )
    return lang


def of_account(user: Reader) -> str | None:
    """The account's chosen language, or None (anonymous, or never chosen)."""
    if not isinstance(user, User):  # anonymous: no account to ask
        return None
    # Not memoized on the user: the authentication cache shares user objects between requests.
    return Profile.objects.filter(user_id=user.id).values_list("language", flat=True).first() or None


def of_header(request: HttpRequest | Request) -> str | None:
    """The first language of ``Accept-Language`` that we speak, or None."""
    for tag, _q in parse_accept_lang_header(request.META.get("HTTP_ACCEPT_LANGUAGE", "")):
        lang = normalize(tag)
        if lang is not None:
            return lang
    return None


def language_for(request: HttpRequest | Request) -> str:
    """``?lang=`` (a bad one is a 400), the account's, the browser's, then English."""
    return requested(request) or of_account(request.user) or of_header(request) or DEFAULT


def language_quiet(request: HttpRequest | Request) -> str:
    """As `language_for`, but nothing here may fail: used while answering another
    error (a bad ``?lang=``, an unreadable account), which is what the client must see."""
    try:
        lang = requested(request)
    except Invalid:
        lang = None
    if lang is None:
        try:
            lang = of_account(getattr(request, "user", None))
        except Exception:  # noqa: BLE001 - e.g. the token itself was the error
            lang = None
    return lang or of_header(request) or DEFAULT
