"""Tables of the lobby and of running games. The game's history is its event
stream (events.StoredEvent, stream = Game.id); these rows are metadata and
projections kept next to it (status, version, chain head) for fast listing."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"
        RUNNING = "running"
        FINISHED = "finished"
        ABORTED = "aborted"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    ruleset = models.CharField(max_length=40, db_index=True)
    rules_version = models.PositiveIntegerField(default=1)
    name = models.CharField(max_length=120, blank=True, default="")
    players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict)
    time_control = models.JSONField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games"
    )
    # The secret seed every random outcome derives from; published (and hashed at start) by events.
    seed = models.CharField(max_length=64, editable=False)
    # The key of the game's random streams when seats contributed entropy (games/rules/seeding.py),
    # fixed at start; "" when none did and the seed itself is the key.
    mixed_seed = models.CharField(max_length=64, blank=True, default="", editable=False)
    version = models.PositiveIntegerField(default=0)
    chain_head = models.CharField(max_length=64, blank=True, default="")
    # When the head was committed (its events' recorded_at): the signed checkpoint's issued_at.
    head_at = models.DateTimeField(null=True, blank=True)
    outcome = models.JSONField(null=True, blank=True)
    paused = models.BooleanField(default=False)
    # Private games: unlisted for others, joined with the invite code, readable by seated players only.
    private = models.BooleanField(default=False)
    invite_code = models.CharField(max_length=40, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When this game's background task was queued and not yet started (services/commit.py):
    # at most one waits in the queue per game.
    work_queued_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.ruleset} {self.id}"


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    faction = models.CharField(max_length=40, blank=True, default="")  # "" = random until start
    bot = models.CharField(max_length=20, blank=True, default="")  # "random" for bot seats
    zombie = models.BooleanField(default=False)  # played by a bot after too many missed deadlines
    misses = models.PositiveIntegerField(default=0)
    # 64 hex characters the seat's player contributed before the start ("" = none): mixed into
    # the game's random streams at start and listed in core.GameStarted.
    entropy = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_game_index_unique"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_game_user_unique"),
        ]

    @property
    def is_bot(self) -> bool:
        return bool(self.bot) or self.zombie


class CommandReceipt(models.Model):
    """The first answer to a command sent with an Idempotency-Key, so a retry gets
    the same answer and appends nothing. Scoped to (game, user, key)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200)
    body_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    response = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user", "key"], name="receipt_unique")]


class Invitation(models.Model):
    """A host asks an account (typically a bot account) to take a seat in an open
    game; the account sees it in GET /accounts/me/invitations and on its stream,
    may read the game even if private, and accepts by joining (POST seats)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="invitation_game_user_unique")]


class LastSeen(models.Model):
    """The version of a game an account last looked at (opened its page or view) or moved
    at: read-side bookkeeping for "since you last looked" and the inbox's unseen count,
    not an event (it is no part of the game, so it is never replayed or audited)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    version = models.PositiveIntegerField(default=0)
    seen_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="last_seen_game_user_unique")]
