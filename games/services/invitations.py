"""Invitations: a game's host asks an account (a bot account, or anyone) to take
a seat. The invitee finds it in GET /accounts/me/invitations and on its stream
(kind "invitation"), may read the game while it is open even if it is private,
and accepts by joining like anybody (POST /games/{id}/seats, no invite code
needed); joining removes the invitation, DELETE declines it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from ..models import Game, Invitation, Notification
from . import lobby, notify
from .errors import Conflict, ErrorCode, Forbidden, NotFound
from .types import GameId


def invite(game_id: GameId, host: User, username: str) -> Invitation:
    """The game's creator invites an account (a bot, typically) to an open seat; it hears of it on its stream."""
    with transaction.atomic():
        game = lobby.lock_game(game_id, host)
        if game.creator_id != host.id:
            raise Forbidden("only the game's creator can invite", code=ErrorCode.NOT_CREATOR)
        if game.status != Game.Status.OPEN:
            raise Conflict("the game has already started", code=ErrorCode.GAME_NOT_OPEN)
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise NotFound(f"no account named {username!r}", code=ErrorCode.USER_NOT_FOUND)
        if game.seats.filter(user=user).exists():
            raise Conflict(f"{username} already has a seat in this game", code=ErrorCode.ALREADY_SEATED)
        if game.seats.count() >= game.players:
            raise Conflict("the game is full", code=ErrorCode.GAME_FULL)
        inv, _ = Invitation.objects.get_or_create(game=game, user=user)
        notify.notify_stream(
            game,
            user,
            Notification.Kind.INVITATION,
            f"invite:{inv.id}",
            {"invited_by": host.username},
            timezone.now(),
        )
    return inv


def pending_for(user: User) -> list[Invitation]:
    """The caller's invitations to games still open where it has no seat yet."""
    return list(
        Invitation.objects.filter(user=user, game__status=Game.Status.OPEN)
        .exclude(game__seats__user=user)
        .select_related("game", "game__creator")
    )


def decline(game_id: GameId, user: User) -> None:
    """The invited account says no: its invitation to that game is gone."""
    found = Invitation.objects.filter(user=user, game_id=lobby.get_game(game_id, user).id).delete()[0]
    if not found:
        raise NotFound("no invitation to that game", code=ErrorCode.INVITATION_NOT_FOUND)


def entry(inv: Invitation) -> dict[str, Any]:
    """An invitation as `/accounts/me/invitations` lists it."""
    g = inv.game
    return {
        "game": str(g.id),
        "name": g.name,
        "ruleset": g.ruleset,
        "players": g.players,
        "seats_taken": g.seats.count(),
        "private": g.private,
        "invited_by": g.creator.username,
        "created_at": inv.created_at,
    }
