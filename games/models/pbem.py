"""Play-by-email tables: deadlines, notifications, webhook deliveries, pause votes.

A `Deadline` row exists for every pending decision of a human seat (timed or
not: untimed rows have no `due_at` and only serve "your turn" notices). Beat
sweeps the rows whose `due_at` has passed; firing one is the idempotent command
"apply seat S's default if the game is still at version V" (see
games/services/deadlines.py).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Deadline(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"
        FIRED = "fired"  # the default was applied
        DONE = "done"  # the seat decided (or is no longer pending)

    class Frozen(models.TextChoices):
        NO = ""
        PAUSE = "pause"  # the game is paused
        VACATION = "vacation"  # the seat's player is on vacation

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="deadlines")
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=60)
    # The game version this decision is pending at; refreshed by sync while the
    # seat stays pending on the same decision (others acting, messages...).
    version = models.PositiveIntegerField()
    since_version = models.PositiveIntegerField()  # when the decision became pending
    seconds = models.PositiveIntegerField(null=True, blank=True)  # the time control; null = untimed
    due_at = models.DateTimeField(null=True, blank=True)  # null: untimed, or frozen
    frozen = models.CharField(max_length=10, choices=Frozen.choices, blank=True, default="")
    frozen_at = models.DateTimeField(null=True, blank=True)
    remaining = models.FloatField(null=True, blank=True)  # seconds left while frozen
    remind_before = models.PositiveIntegerField(null=True, blank=True)
    remind_at = models.DateTimeField(null=True, blank=True)
    reminded_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # At most one open decision per seat: two concurrent syncs cannot both create one.
            models.UniqueConstraint(
                fields=["game", "seat"], condition=Q(status="open"), name="deadline_one_open_per_seat"
            ),
        ]
        indexes = [
            models.Index(fields=["status", "due_at"], name="deadline_due_idx"),
            models.Index(fields=["status", "remind_at"], name="deadline_remind_idx"),
        ]

    def __str__(self) -> str:
        return f"Deadline({self.game_id} seat {self.seat} v{self.version} {self.status} due {self.due_at})"


class SweeperState(models.Model):
    """One row: when the sweeper last ran (the outage guard compares with it)."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    last_run_at = models.DateTimeField(null=True, blank=True)
    last_outage_at = models.DateTimeField(null=True, blank=True)
    last_outage_seconds = models.FloatField(default=0)


class PbemCursor(models.Model):
    """How far the play-by-email layer has processed a game's stream, so a
    sweep can catch up on a commit whose after-commit hook never ran."""

    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, primary_key=True, related_name="pbem_cursor"
    )
    synced_version = models.PositiveIntegerField(default=0)
    notified_version = models.PositiveIntegerField(default=0)


class PauseVote(models.Model):
    class Action(models.TextChoices):
        PAUSE = "pause"
        RESUME = "resume"

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="pause_votes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    action = models.CharField(max_length=6, choices=Action.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user", "action"], name="pause_vote_unique")]


class Notification(models.Model):
    """One notice to one user on one channel. The unique key makes every
    (event, user, channel) go out at most once, whoever creates it twice."""

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn"
        REMINDER = "reminder"
        DEFAULT_APPLIED = "default_applied"
        GAME_STARTED = "game_started"
        GAME_FINISHED = "game_finished"
        MESSAGE = "message"
        INBOX = "inbox"  # stream only: an entry of GET /accounts/me/games changed
        INVITATION = "invitation"  # stream only: a host invited you to a seat

    class Channel(models.TextChoices):
        STREAM = "stream"  # GET /accounts/me/stream and /accounts/me/notifications
        EMAIL = "email"
        WEBHOOK = "webhook"

    class Status(models.TextChoices):
        PENDING = "pending"
        SENDING = "sending"
        SENT = "sent"
        FAILED = "failed"
        SKIPPED = "skipped"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    event_key = models.CharField(max_length=100)  # what it is about: "seq:12", "turn:<deadline id>"...
    channel = models.CharField(max_length=8, choices=Channel.choices)
    payload = models.JSONField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "event_key", "user", "channel"], name="notification_once"
            ),
        ]
        indexes = [
            models.Index(fields=["user", "channel", "id"], name="notification_user_idx"),
            models.Index(fields=["status", "next_attempt_at"], name="notification_retry_idx"),
        ]

    def __str__(self) -> str:
        return f"Notification({self.kind} {self.channel} user {self.user_id} {self.status})"


class WebhookDelivery(models.Model):
    """One attempt to POST a notification to a user's webhook (the user reads these)."""

    notification = models.ForeignKey(Notification, on_delete=models.CASCADE, related_name="deliveries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    url = models.CharField(max_length=500)
    attempt = models.PositiveIntegerField()
    timestamp = models.BigIntegerField()  # the signed `t`
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    ok = models.BooleanField(default=False)
    error = models.CharField(max_length=500, blank=True, default="")
    duration_ms = models.PositiveIntegerField(default=0)
    next_retry_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["user", "-id"], name="webhook_delivery_user_idx")]
