"""Notification emails through Django's email framework (console backend in
the embedded default, locmem in tests), with a one-click unsubscribe link in
the body and in the List-Unsubscribe header (RFC 2369 / RFC 8058)."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string

SUBJECTS = {
    "your_turn": "Your turn in {game}",
    "reminder": "Reminder: your decision in {game} is due soon",
    "default_applied": "Deadline missed in {game}: the default was played for you",
    "game_started": "{game} has started",
    "game_finished": "{game} is over",
    "message": "New message in {game}",
}


def unsubscribe_url(profile) -> str:
    return f"{settings.PUBLIC_BASE_URL}/api/v1/accounts/unsubscribe?token={profile.unsubscribe_token}"


def game_title(payload: dict) -> str:
    g = payload.get("game") or {}
    return g.get("name") or f"{g.get('ruleset', 'game')} {str(g.get('id', ''))[:8]}"


def build(user, profile, payload: dict) -> EmailMessage:
    kind = payload["kind"]
    subject = "[Sengoku] " + SUBJECTS.get(kind, "News from {game}").format(game=game_title(payload))
    link = unsubscribe_url(profile)
    body = render_to_string(
        "pbem/email/notice.txt",
        {
            "user": user,
            "p": payload,
            "kind": kind,
            "title": game_title(payload),
            "unsubscribe": link,
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


def send(user, profile, payload: dict) -> None:
    build(user, profile, payload).send(fail_silently=False)
