"""Notifications: your turn, reminders, a default applied to you, game
started/finished, a message addressed to you.

Each notice is one `Notification` row per (event, user, channel) — a unique
key, so creating it twice (a retried hook, the catch-up sweep) sends nothing
twice. Rows are written inside the transaction that decided them; delivery is
queued only in `transaction.on_commit`, so a rolled-back write sends nothing.
Channels: `stream` (GET /accounts/me/stream, stored and published at once),
`email` (Django email, opt-out per user) and `webhook` (signed JSON POST,
retried with exponential backoff through Celery). Every payload carries the
game's version and chain head, and their signed `checkpoint` (services/signing.py):
a receipt of the log the player can keep.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounts.models import profile_of
from events import feed, store
from events.models import StoredEvent
from games.pbem import emails, webhooks

from .. import core_events
from ..models import Deadline, Game, Notification, PbemCursor, WebhookDelivery
from . import dispatch, observe, signing
from .present import iso
from .types import GameId

log = logging.getLogger(__name__)
N = Notification
REQUEUE_GRACE_SECONDS = 60
LOST_SENDING_SECONDS = 600
EMAIL_MAX_ATTEMPTS = 3


def user_channel(user_id: int) -> str:
    """The live-stream channel of one user's notifications."""
    return f"user:{user_id}"


def inline() -> bool:
    """Whether notifications are delivered in this process instead of by a task."""
    return bool(settings.PBEM_INLINE or settings.CELERY_TASK_ALWAYS_EAGER)


# ---------------------------------------------------------------------------------------------
# Deciding what to send


def game_payload(game: Game) -> dict[str, Any]:
    """The game as every notification shows it, with its version and chain head
    and their signed checkpoint (a receipt the player can keep)."""
    return {
        "id": str(game.id),
        "name": game.name,
        "ruleset": game.ruleset,
        "status": game.status,
        "version": game.version,
        "chain_head": game.chain_head or None,
        "checkpoint": signing.of_game(game),
        "url": f"{settings.PUBLIC_BASE_URL}/api/v1/games/{game.id}",
    }


@dataclass(frozen=True)
class _Human:
    """A seat held by a person (not a bot): who is told what happens at it."""

    index: int
    user: User


def _humans(game: Game) -> dict[int, _Human]:
    return {
        s.index: _Human(s.index, s.user)
        for s in game.seats.select_related("user").all()
        if s.user is not None and not s.bot
    }


def notify_user(
    game: Game, user: User, kind: str, key: str, data: dict[str, Any], now: datetime
) -> list[Notification]:
    """Create the user's rows for one notice (once per channel, ever) and
    queue their delivery after commit. Returns the rows created now."""
    profile = profile_of(user)
    payload = {
        "kind": kind,
        "game": game_payload(game),
        "user": user.username,
        "created_at": iso(now),
        **data,
    }
    channels = [N.Channel.STREAM]
    if user.email and profile.email_notifications:
        channels.append(N.Channel.EMAIL)
    if profile.webhook_url:
        channels.append(N.Channel.WEBHOOK)
    created = []
    for ch in channels:
        stream = ch == N.Channel.STREAM
        row, new = Notification.objects.get_or_create(
            game=game,
            event_key=key,
            user=user,
            channel=ch,
            defaults={
                "kind": kind,
                "payload": {**payload, "channel": ch},
                "created_at": now,
                "next_attempt_at": now,
                "status": N.Status.SENT if stream else N.Status.PENDING,
                "sent_at": now if stream else None,
            },
        )
        if new:
            created.append(row)
    if created:
        _after_commit(created)
    return created


def notify_stream(
    game: Game, user: User, kind: str, key: str, data: dict[str, Any], now: datetime
) -> Notification | None:
    """A notice on the user stream only (no email, no webhook), once per key."""
    payload = {
        "kind": kind,
        "game": game_payload(game),
        "user": user.username,
        "created_at": iso(now),
        "channel": N.Channel.STREAM,
        **data,
    }
    row, new = Notification.objects.get_or_create(
        game=game,
        event_key=key,
        user=user,
        channel=N.Channel.STREAM,
        defaults={
            "kind": kind,
            "payload": payload,
            "created_at": now,
            "next_attempt_at": now,
            "status": N.Status.SENT,
            "sent_at": now,
        },
    )
    if new:
        _after_commit([row])
        return row
    return None


def _after_commit(rows: list[Notification]) -> None:
    stream = [(r.user_id, r.id) for r in rows if r.channel == N.Channel.STREAM]
    outgoing = [(r.id, r.attempts) for r in rows if r.channel != N.Channel.STREAM]

    def _run() -> None:
        observe.notification(N.Channel.STREAM, N.Status.SENT, len(stream))
        for uid, nid in stream:
            feed.publish(user_channel(uid), nid)
        for nid, attempt in outgoing:
            enqueue(nid, attempt)

    transaction.on_commit(_run)


def turns_opened(game: Game, rows: list[Deadline], now: datetime) -> None:
    """ "Your turn" for each newly opened decision (called by deadlines.sync)."""
    humans = _humans(game)
    for d in rows:
        seat = humans.get(d.seat)
        if seat is not None:
            notify_user(
                game,
                seat.user,
                N.Kind.YOUR_TURN,
                f"turn:{d.id}",
                {"seat": d.seat, "decision": d.kind, "deadline": iso(d.due_at)},
                now,
            )


def reminder(game: Game, d: Deadline, now: datetime) -> None:
    """Tell the seat of deadline `d` that its decision is due soon."""
    seat = _humans(game).get(d.seat)
    if seat is not None:
        notify_user(
            game,
            seat.user,
            N.Kind.REMINDER,
            f"remind:{d.id}",
            {"seat": d.seat, "decision": d.kind, "deadline": iso(d.due_at)},
            now,
        )


def game_changed(game_id: GameId, version: int | None = None) -> None:
    """Called after every commit: notices for the events not yet processed.
    Never raises (the command has committed); the sweep catches up."""
    try:
        _game_changed(game_id)
    except Exception:
        log.exception("notifications for game %s failed; the sweep will catch up", game_id)


def _game_changed(game_id: GameId) -> None:
    now = timezone.now()
    with transaction.atomic():
        # Lock order everywhere in this layer: the game row first. (Inserting rows that
        # reference the game takes a KEY SHARE lock on it on PostgreSQL, so taking the
        # cursor first could deadlock with a sync that holds the game.)
        game = Game.objects.select_for_update().filter(id=game_id).first()
        if game is None:
            return
        cursor, _ = PbemCursor.objects.get_or_create(game=game)
        if cursor.notified_version >= game.version:
            return
        humans = _humans(game)
        for row in store.load(game.id, after=cursor.notified_version, upto=game.version):
            _for_event(game, humans, row, now)
        announce(game, humans, now)
        PbemCursor.objects.filter(pk=cursor.pk).update(notified_version=game.version)


def _for_event(game: Game, humans: dict[int, _Human], row: StoredEvent, now: datetime) -> None:
    """The notices one stored event gives rise to (only platform events do)."""
    handler = _HANDLERS.get(row.type)
    if handler is None:
        return
    try:
        event = core_events.read_row(row)
    except core_events.BadCoreEvent:
        log.exception("game %s seq %s: unreadable platform event, no notice sent", game.id, row.seq)
        return
    handler(game, humans, event, _Ref(game, row, now))


@dataclass(frozen=True)
class _Ref:
    """What every notice of one event shares: its game, its key and its reference."""

    game: Game
    row: StoredEvent
    now: datetime

    @property
    def key(self) -> str:
        return f"seq:{self.row.seq}"

    def notify(self, seat: _Human, kind: str, body: dict[str, Any]) -> None:
        event = {"seq": self.row.seq, "type": self.row.type, "hash": self.row.hash}
        notify_user(
            self.game, seat.user, kind, self.key, {"seat": seat.index, "event": event, **body}, self.now
        )


def _on_started(game: Game, humans: dict[int, _Human], e: core_events.GameStarted, ref: _Ref) -> None:
    for s in humans.values():
        ref.notify(s, N.Kind.GAME_STARTED, {})


def _on_finished(game: Game, humans: dict[int, _Human], e: core_events.GameFinished, ref: _Ref) -> None:
    winners = ", ".join(str(w) for w in e.outcome.winners) or "none"
    for s in humans.values():
        ref.notify(s, N.Kind.GAME_FINISHED, {"outcome": e.outcome.as_json(), "winners_text": winners})


def _on_aborted(game: Game, humans: dict[int, _Human], e: core_events.GameAborted, ref: _Ref) -> None:
    outcome = {"winners": [], "scores": {}, "reason": f"aborted by {e.by}: {e.reason or '-'}"}
    for s in humans.values():
        ref.notify(s, N.Kind.GAME_FINISHED, {"outcome": outcome, "aborted": True, "winners_text": "none"})


def _on_missed(game: Game, humans: dict[int, _Human], e: core_events.DeadlineMissed, ref: _Ref) -> None:
    s = humans.get(e.seat)
    if s is None:
        return
    body = {
        "decision": e.kind,
        "default_command": dict(e.default_command),
        "default_command_text": ", ".join(f"{k}={v}" for k, v in e.default_command.items()),
        "misses": e.misses,
        "excused_misses": e.excused_misses,
        "zombie": e.zombie,
    }
    ref.notify(s, N.Kind.DEFAULT_APPLIED, body)


def _on_message(game: Game, humans: dict[int, _Human], e: core_events.MessageSent, ref: _Ref) -> None:
    from_seat = humans.get(e.sender)
    message = {
        "from": e.sender,
        "from_name": from_seat.user.username if from_seat else f"seat {e.sender}",
        "to": None if e.to is None else list(e.to),
        "private": e.to is not None,
        "text": e.text,
    }
    for i in humans if e.to is None else e.to:
        s = humans.get(i)
        if i != e.sender and s is not None:
            ref.notify(s, N.Kind.MESSAGE, {"message": message})


_HANDLERS: dict[str, Callable[[Game, dict[int, _Human], Any, _Ref], None]] = {
    core_events.GameStarted.TYPE: _on_started,
    core_events.GameFinished.TYPE: _on_finished,
    core_events.GameAborted.TYPE: _on_aborted,
    core_events.DeadlineMissed.TYPE: _on_missed,
    core_events.MessageSent.TYPE: _on_message,
}


# ---------------------------------------------------------------------------------------------
# Announcing changes on the user stream (the caller's inbox, games/services/inbox.py)


def _signature(game: Game, seat: int, open_rows: dict[int, Deadline]) -> dict[str, Any]:
    d = open_rows.get(seat)
    return {
        "status": game.status,
        "paused": game.paused,
        "pending": d is not None,
        "decision": d.kind if d else None,
        "deadline": iso(d.due_at) if d else None,
    }


def announce(game: Game, humans: dict[int, _Human], now: datetime) -> None:
    """After a commit was processed (_game_changed, after deadlines.sync):
    an `inbox` notice on the user stream of every seated player whose entry
    changed in what sorts or filters it (status, pause, pending decision,
    deadline). Stream only: no email, no webhook."""
    open_rows = {d.seat: d for d in Deadline.objects.filter(game=game, status=Deadline.Status.OPEN)}
    for index, seat in humans.items():
        sig = _signature(game, index, open_rows)
        last = (
            Notification.objects.filter(game=game, user=seat.user, kind=Notification.Kind.INBOX)
            .order_by("-id")
            .values_list("payload", flat=True)
            .first()
        )
        if last is not None and all(last.get(k) == v for k, v in sig.items()):
            continue
        notify_stream(
            game, seat.user, Notification.Kind.INBOX, f"inbox:v{game.version}", {"seat": index, **sig}, now
        )


# ---------------------------------------------------------------------------------------------
# Delivering


def enqueue(nid: int, attempt: int) -> None:
    """Deliver in this process (tests, PBEM_INLINE) or queue the Celery task.
    A broker hiccup is logged; the sweep requeues what stays pending."""
    if inline():
        try:
            deliver(nid, attempt)
        except Exception:
            log.exception("inline delivery of notification %s failed", nid)
        return
    dispatch.send(dispatch.DELIVER, nid, attempt)  # not queued: the sweep retries it


def deliver(nid: int, attempt: int | None = None) -> int | None:
    """One delivery attempt. Returns seconds until the next attempt when it
    should be retried, else None. At most one attempt runs at a time: the
    claim is a conditional UPDATE pending -> sending on (id, attempts)."""
    now = timezone.now()
    n = Notification.objects.filter(id=nid).select_related("user").first()
    if n is None or n.status != N.Status.PENDING or (attempt is not None and n.attempts != attempt):
        return None
    if not Notification.objects.filter(id=nid, status=N.Status.PENDING, attempts=n.attempts).update(
        status=N.Status.SENDING, claimed_at=now
    ):
        return None
    attempts = n.attempts + 1
    try:
        status, error, retry_in = _send(n, attempts, now)
    except Exception as exc:  # a bug or an SMTP error: retried like a network failure
        log.exception("delivering notification %s failed", nid)
        status, error, retry_in = N.Status.PENDING, f"{type(exc).__name__}: {exc}"[:500], None
        if attempts >= _max_attempts(n):
            status = N.Status.FAILED
        else:
            retry_in = webhooks.backoff_seconds(attempts)
    fields = {"status": status, "attempts": attempts, "last_error": error}
    if status == N.Status.SENT:
        fields["sent_at"] = timezone.now()
    if status == N.Status.PENDING:
        fields["next_attempt_at"] = now + timedelta(seconds=retry_in or 0)
    Notification.objects.filter(id=nid).update(**fields)
    observe.notification(n.channel, status)
    return retry_in if status == N.Status.PENDING else None


def _max_attempts(n: Notification) -> int:
    return settings.WEBHOOK_MAX_ATTEMPTS if n.channel == N.Channel.WEBHOOK else EMAIL_MAX_ATTEMPTS


def _send(n: Notification, attempts: int, now: datetime) -> tuple[str, str, int | None]:
    profile = profile_of(n.user)
    if n.channel == N.Channel.EMAIL:
        if not (n.user.email and profile.email_notifications):
            return N.Status.SKIPPED, "email notifications are off", None
        emails.send(n.user, profile, n.payload)
        return N.Status.SENT, "", None
    if not profile.webhook_url:
        return N.Status.SKIPPED, "no webhook URL", None
    t = int(now.timestamp())
    body = {**n.payload, "notification_id": n.id}
    result = webhooks.post(
        profile.webhook_url,
        profile.webhook_secret,
        body,
        t,
        {"X-Sengoku-Delivery": str(n.id), "X-Sengoku-Event": n.kind, "X-Sengoku-Attempt": str(attempts)},
    )
    retry = result.retry and attempts < settings.WEBHOOK_MAX_ATTEMPTS
    retry_in = webhooks.backoff_seconds(attempts) if retry else None
    WebhookDelivery.objects.create(
        notification=n,
        user=n.user,
        url=profile.webhook_url[:500],
        attempt=attempts,
        timestamp=t,
        status_code=result.status_code,
        ok=result.ok,
        error=result.error[:500],
        duration_ms=result.duration_ms,
        next_retry_at=now + timedelta(seconds=retry_in) if retry_in else None,
        created_at=now,
    )
    if result.ok:
        return N.Status.SENT, "", None
    return (N.Status.PENDING if retry else N.Status.FAILED), result.error, retry_in


def requeue_stale(now: datetime) -> int:
    """Pending deliveries whose task was lost (broker down, worker restarted
    before the retry ran) go out again; a row stuck in `sending` (its worker
    died mid-POST) is marked failed rather than risk sending it twice."""
    grace = 0 if inline() else REQUEUE_GRACE_SECONDS
    due = Notification.objects.filter(
        status=N.Status.PENDING, next_attempt_at__lte=now - timedelta(seconds=grace)
    )
    n = 0
    for nid, attempt in due.values_list("id", "attempts")[:200]:
        enqueue(nid, attempt)
        n += 1
    Notification.objects.filter(
        status=N.Status.SENDING, claimed_at__lt=now - timedelta(seconds=LOST_SENDING_SECONDS)
    ).update(
        status=N.Status.FAILED, last_error="the worker was lost during delivery (not retried: at most once)"
    )
    return n
