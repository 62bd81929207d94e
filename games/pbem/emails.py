"""Notification emails through Django's email framework (console backend in
the embedded default, locmem in tests), with a one-click unsubscribe link in
the body and in the List-Unsubscribe header (RFC 2369 / RFC 8058)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext, gettext_noop

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from accounts.models import Profile

# gettext_noop: marked for the catalogues (locale/), translated when the email is built
SUBJECTS = {
    "your_turn": gettext_noop("Your turn in %(game)s"),
    "reminder": gettext_noop("Reminder: your decision in %(game)s is due soon"),
    "default_applied": gettext_noop("Deadline missed in %(game)s: the default was played for you"),
    "game_started": gettext_noop("%(game)s has started"),
    "game_finished": gettext_noop("%(game)s is over"),
    "message": gettext_noop("New message in %(game)s"),
}
NEWS = gettext_noop("News from %(game)s")


def unsubscribe_url(profile: Profile) -> str:
    return f"{settings.PUBLIC_BASE_URL}/api/v1/accounts/unsubscribe?token={profile.unsubscribe_token}"


def game_title(payload: dict[str, Any]) -> str:
    g = payload.get("game") or {}
    return g.get("name") or f"{g.get('ruleset', 'game')} {str(g.get('id', ''))[:8]}"


def build(user: User, profile: Profile, payload: dict[str, Any]) -> EmailMessage:
    """The email in the recipient's language (their account's `language`, else English)."""
    with translation.override(getattr(profile, "language", "") or "en"):
        return _build(user, profile, payload)


def _build(user: User, profile: Profile, payload: dict[str, Any]) -> EmailMessage:
    kind = payload["kind"]
    subject = "[Sengoku] " + gettext(SUBJECTS.get(kind, NEWS)) % {"game": game_title(payload)}
    link = unsubscribe_url(profile)
    body = render_to_string(
        "pbem/email/notice.txt",
        {
            "user": user,
            "p": payload,
            "kind": kind,
            "title": game_title(payload),
            "unsubscribe": link,
            # the signed checkpoint as one JSON line: a receipt to paste into the verifier's file
            "checkpoint": _one_line((payload.get("game") or {}).get("checkpoint")),
            # the web client's game page (sign-in first, then back to the game)
            "play_url": f"{settings.PUBLIC_BASE_URL}/games/{(payload.get('game') or {}).get('id', '')}",
        },
    )
    return EmailMessage(
        subject=subject,
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{link}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "X-Sengoku-Game": str((payload.get("game") or {}).get("id", "")),
            "X-Sengoku-Chain-Head": str((payload.get("game") or {}).get("chain_head") or ""),
        },
    )


def _one_line(checkpoint: Any) -> str:
    return json.dumps(checkpoint, sort_keys=True, separators=(",", ":")) if checkpoint else ""


def send(user: User, profile: Profile, payload: dict[str, Any]) -> None:
    build(user, profile, payload).send(fail_silently=False)
