"""Deadlines (play-by-email).

Every pending decision of a human seat has a `Deadline` row (games/models/pbem.py). For
timed games it carries `due_at`; Celery beat runs `sweep()` every
DEADLINE_SWEEP_SECONDS, and firing a row is the idempotent command

    "apply seat S's default_command if the game is still at version V"

Why, with the measurements and history: docs/modules.md, `games/services/deadlines.py`.
"""

from __future__ import annotations

import logging
import random
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from accounts.models import Profile
from events.models import StoredEvent
from events.store import Recorded
from games import bots, plugins

from ..core_events import DeadlineMissed, SeatZombified
from ..models import Deadline, Game, PbemCursor, Seat, SweeperState
from . import commit, notify, observe, play
from .commit import new_event
from .errors import ServiceError
from .present import iso
from .state import load_state, rules_for
from .types import GameId

log = logging.getLogger(__name__)
OPEN = Deadline.Status.OPEN
SWEEP_BATCH = 200


def seconds_per_decision(game: Game) -> int | None:
    """The game's clock per decision in seconds, or None when it has no deadlines."""
    return (game.time_control or {}).get("seconds_per_decision") or None


def excused_misses(game: Game) -> int:
    """How many missed deadlines a seat is excused before a bot takes it over (default 2)."""
    return int((game.time_control or {}).get("excused_misses", 2))


# ---------------------------------------------------------------------------------------------
# Reading


def due_times(game: Game) -> dict[int, str]:
    """{seat: "…Z"} for the open timed decisions. A row frozen by its player's
    vacation shows when it will be due once the vacation ends; a paused game
    has no due times."""
    out: dict[int, str] = {}
    if not seconds_per_decision(game):  # an untimed game has no timed rows: no query on every read
        return out
    rows = Deadline.objects.filter(game=game, status=OPEN, seconds__isnull=False)
    for d in rows:
        if d.due_at is not None:
            out[d.seat] = iso(d.due_at)
        elif d.frozen == Deadline.Frozen.VACATION and d.remaining is not None:
            until = _vacation_until(game, d.seat)
            if until is not None:
                out[d.seat] = iso(until + timedelta(seconds=d.remaining))
    return out


def _vacation_until(game: Game, seat_index: int) -> datetime | None:
    seat = Seat.objects.filter(game=game, index=seat_index).select_related("user__profile").first()
    profile = getattr(getattr(seat, "user", None), "profile", None) if seat else None
    until: datetime | None = getattr(profile, "vacation_until", None)
    return until


def _on_vacation(seat: Seat, now: datetime) -> bool:
    if seat.user_id is None:
        return False
    until = Profile.objects.filter(user_id=seat.user_id).values_list("vacation_until", flat=True).first()
    return until is not None and until > now


# ---------------------------------------------------------------------------------------------
# Sync: rows follow the engine's `pending`


def sync(game_id: GameId) -> None:
    """Called after every commit: bring the game's rows in line with `pending`.
    Never raises: the command has committed already; a failure here is logged
    and repaired by the sweep's catch-up pass."""
    try:
        with transaction.atomic():
            game = Game.objects.select_for_update().filter(id=game_id).first()
            if game is not None:
                sync_locked(game)
    except Exception:
        log.exception("deadline sync of game %s failed; the sweep will catch up", game_id)


def _wanted(game: Game, seats: dict[int, Seat]) -> dict[int, str]:
    """{seat: decision kind} for pending seats played by a human (bots and
    zombie seats play by themselves and get no deadline)."""
    if game.status != Game.Status.RUNNING:
        return {}
    try:
        pending = rules_for(game).pending(load_state(game))
    except ServiceError:  # the ruleset is not available on this server: nothing can be decided
        return {}
    out: dict[int, str] = {}
    for p in pending:
        s = seats.get(p.seat)
        if s is not None and s.user_id is not None and not s.bot and not s.zombie:
            out.setdefault(p.seat, str(p.kind))
    return out


def _acted_since(game: Game, after: int) -> dict[int, int]:
    """{seat: last seq} of the seats whose own command (or default) produced
    events after version `after`: their earlier decision is resolved."""
    out: dict[int, int] = {}
    if after >= game.version:
        return out
    causes = StoredEvent.objects.filter(stream=game.id, seq__gt=after, cause__isnull=False).values_list(
        "seq", "cause"
    )
    for seq, cause in causes:
        seat = cause.get("seat") if isinstance(cause, dict) else None
        if isinstance(seat, int):
            out[seat] = max(out.get(seat, 0), seq)
    return out


def sync_locked(game: Game, now: datetime | None = None, catch_up: bool = False) -> list[Deadline]:
    """`sync` with `game` already locked; returns the rows it opened."""
    now = now or timezone.now()
    seats = {s.index: s for s in game.seats.all()}
    wanted = _wanted(game, seats)
    rows = {d.seat: d for d in Deadline.objects.filter(game=game, status=OPEN)}
    acted = _acted_since(game, min((d.version for d in rows.values()), default=game.version))
    # One UPDATE for the rows that closed and one for those still pending: this
    # runs after every commit, so it stays at a constant number of queries.
    done = [seat for seat, d in rows.items() if wanted.get(seat) != d.kind or acted.get(seat, 0) > d.version]
    if done:
        Deadline.objects.filter(id__in=[rows[s].id for s in done], status=OPEN).update(
            status=Deadline.Status.DONE, closed_at=now
        )
        for seat in done:
            del rows[seat]
    stale = [d.id for d in rows.values() if d.version != game.version]
    if stale:
        Deadline.objects.filter(id__in=stale, status=OPEN).update(version=game.version)
    opened = [_open(game, seats[seat], kind, now) for seat, kind in wanted.items() if seat not in rows]
    cursor, _ = PbemCursor.objects.get_or_create(
        game=game, defaults={"notified_version": game.version if catch_up else 0}
    )
    if cursor.synced_version != game.version:
        PbemCursor.objects.filter(pk=cursor.pk).update(synced_version=game.version)
    if opened:
        notify.turns_opened(game, opened, now)
    return opened


def _open(game: Game, seat: Seat, kind: str, now: datetime) -> Deadline:
    spd = seconds_per_decision(game)
    rb = (game.time_control or {}).get("reminder_before_seconds") if spd else None
    d = Deadline(
        game=game,
        seat=seat.index,
        kind=kind,
        version=game.version,
        since_version=game.version,
        seconds=spd,
        remind_before=rb,
        created_at=now,
    )
    if spd:
        reason = _freeze_reason(game, seat, now)
        if reason:
            d.frozen, d.frozen_at, d.remaining = reason, now, float(spd)
        else:
            _run_from(d, now, float(spd))
    d.save()
    return d


def _run_from(d: Deadline, base: datetime, remaining: float) -> None:
    d.due_at = base + timedelta(seconds=max(0.0, remaining))
    d.remind_at = (
        d.due_at - timedelta(seconds=d.remind_before) if d.remind_before and not d.reminded_at else None
    )
    d.frozen, d.frozen_at, d.remaining = "", None, None


# ---------------------------------------------------------------------------------------------
# Freezing: pause and vacation


def _freeze_reason(game: Game, seat: Seat, now: datetime) -> str:
    if game.paused:
        return Deadline.Frozen.PAUSE
    if _on_vacation(seat, now):
        return Deadline.Frozen.VACATION
    return ""


def refresh_freeze(game: Game, now: datetime | None = None) -> int:
    """Freeze or thaw the game's open timed rows (game locked). A row whose
    player's vacation ended in the past resumes from the vacation's end, so
    the arithmetic does not depend on when the sweeper noticed."""
    now = now or timezone.now()
    changed = 0
    seats = {s.index: s for s in game.seats.all()}
    for d in Deadline.objects.filter(game=game, status=OPEN, seconds__isnull=False):
        seat = seats.get(d.seat)
        if seat is None:
            continue
        want = _freeze_reason(game, seat, now)
        if want and not d.frozen:
            d.remaining = max(0.0, (d.due_at - now).total_seconds()) if d.due_at else float(d.seconds or 0)
            d.frozen, d.frozen_at, d.due_at, d.remind_at = want, now, None, None
        elif want and d.frozen != want:
            d.frozen = want
        elif not want and d.frozen:
            base = now
            if d.frozen == Deadline.Frozen.VACATION:
                until = _vacation_until(game, d.seat)
                if until is not None and d.frozen_at and d.frozen_at <= until <= now:
                    base = until
            _run_from(d, base, d.remaining if d.remaining is not None else float(d.seconds or 0))
        else:
            continue
        d.save(update_fields=["frozen", "frozen_at", "remaining", "due_at", "remind_at"])
        changed += 1
    return changed


def vacation_changed(user: User, now: datetime | None = None) -> None:
    """The user's vacation started, changed or ended: freeze/thaw their rows."""
    now = now or timezone.now()
    game_ids = set(
        Deadline.objects.filter(
            status=OPEN, seconds__isnull=False, game__status=Game.Status.RUNNING, game__seats__user=user
        ).values_list("game_id", flat=True)
    )
    for gid in sorted(game_ids, key=str):
        game = Game.objects.select_for_update().get(id=gid)
        refresh_freeze(game, now)


def _thaw_vacations(now: datetime) -> None:
    """Rows frozen by a vacation that has ended since."""
    frozen = Deadline.objects.filter(status=OPEN, frozen=Deadline.Frozen.VACATION)
    for gid, seat_index in frozen.values_list("game_id", "seat").distinct():
        user_id = Seat.objects.filter(game_id=gid, index=seat_index).values_list("user_id", flat=True).first()
        until = (
            Profile.objects.filter(user_id=user_id).values_list("vacation_until", flat=True).first()
            if user_id is not None
            else None
        )
        if until is None or until <= now:
            with transaction.atomic():
                refresh_freeze(Game.objects.select_for_update().get(id=gid), now)


# ---------------------------------------------------------------------------------------------
# The sweep


def sweep(now: datetime | None = None, limit: int = SWEEP_BATCH) -> dict[str, Any]:
    """One pass of the beat-driven sweeper. Safe to run concurrently."""
    now = now or timezone.now()
    outage = outage_guard(now)
    _thaw_vacations(now)
    reminded = send_reminders(now)
    fired = _fire(now, limit)
    caught_up = requeued = 0
    try:  # repairs: a failure is logged and the next sweep tries again
        caught_up = catch_up(now)
    except Exception:
        log.exception("catch_up failed")
    try:
        requeued = notify.requeue_stale(now)
    except Exception:
        log.exception("requeue_stale failed")
    return {
        "outage_seconds": outage,
        "reminded": reminded,
        "fired": fired,
        "caught_up": caught_up,
        "requeued": requeued,
    }


def fire_due(now: datetime | None = None, limit: int = SWEEP_BATCH) -> int:
    """Only the clocks: the beat entry of its own (every DEADLINE_FIRE_SECONDS)
    that keeps deadlines on time whatever else the sweep has to do. The outage
    guard runs first, so a sweeper back from downtime extends before it fires."""
    now = now or timezone.now()
    outage_guard(now)
    return _fire(now, limit)


def _fire(now: datetime, limit: int) -> int:
    fired = 0
    for did in due_ids(now, limit):
        try:
            fired += fire_one(did, now)
        except Exception:  # one broken game must not stop the others' clocks
            log.exception("firing deadline %s failed", did)
    return fired


def outage_guard(now: datetime) -> float:
    """Record this run; if the previous one is older than DEADLINE_OUTAGE_SECONDS,
    extend every running deadline by the downtime first. Returns the extension."""
    threshold = settings.DEADLINE_OUTAGE_SECONDS
    with transaction.atomic():
        state, _ = SweeperState.objects.select_for_update().get_or_create(id=1)
        gap = (now - state.last_run_at).total_seconds() if state.last_run_at else 0.0
        extended = 0.0
        if gap > threshold:
            delta = timedelta(seconds=gap)
            n = Deadline.objects.filter(status=OPEN, due_at__isnull=False).update(due_at=F("due_at") + delta)
            Deadline.objects.filter(status=OPEN, remind_at__isnull=False, reminded_at__isnull=True).update(
                remind_at=F("remind_at") + delta
            )
            state.last_outage_at, state.last_outage_seconds, extended = now, gap, gap
            log.warning("sweeper was down for %.0f s: extended %d open deadlines by that much", gap, n)
        if state.last_run_at is None or now > state.last_run_at:
            state.last_run_at = now
        state.save()
    return extended


def due_ids(now: datetime, limit: int = SWEEP_BATCH) -> list[int]:
    """Ids of open deadlines due by `now` in running, unpaused games, oldest first."""
    return list(
        Deadline.objects.filter(
            status=OPEN, due_at__lte=now, game__status=Game.Status.RUNNING, game__paused=False
        )
        .order_by("due_at")
        .values_list("id", flat=True)[:limit]
    )


def fire_one(deadline_id: int, now: datetime | None = None) -> bool:
    """Apply the default for one due row, at most once whoever calls it."""
    now = now or timezone.now()
    game_id = Deadline.objects.filter(id=deadline_id, status=OPEN).values_list("game_id", flat=True).first()
    if game_id is None:
        return False
    with transaction.atomic():
        game = Game.objects.select_for_update().get(id=game_id)
        sync_locked(game, now)  # the row may lag if an after-commit sync never ran
        d = Deadline.objects.filter(id=deadline_id).first()
        if (
            d is None
            or d.status != OPEN
            or d.due_at is None
            or d.due_at > now
            or game.status != Game.Status.RUNNING
            or game.paused
            or d.version != game.version
        ):
            return False
        # The claim: a conditional update inside the transaction that applies the default.
        if not Deadline.objects.filter(id=d.id, status=OPEN).update(
            status=Deadline.Status.FIRED, closed_at=now
        ):
            return False
        apply_default(game, d)
        observe.deadline_fired(d)  # counted on commit
    return True


def played_a_secret(rows: list[Recorded]) -> bool:
    """Whether a default's events hold a seat's secret, which makes its record secret
    too. A secret of the game itself (visible to no seat: the cubes inside Shogun's
    tower after a defaulted attack) is nobody's choice and does not: the record of a
    public default stays public."""
    return any(r.visible_to for r in rows)


def apply_default(game: Game, d: Deadline) -> None:
    """The missed decision: the rules' default (or, if the engine refuses its
    own default, a bot's legal choice), a counted miss, maybe a zombie."""
    seat = Seat.objects.select_for_update().get(game=game, index=d.seat)
    rules = rules_for(game)
    state = load_state(game)
    actor = {"seat": d.seat, "system": "deadline"}
    cmd, source, rows = rules.default_command(state, d.seat), "default", None
    if cmd is not None:
        try:
            with transaction.atomic():
                rows = play.apply(game, seat, cmd, d.version, actor, {"default": True, "deadline": d.id})
        except ServiceError as exc:
            log.error(
                "game %s: the engine refused its own default %r for seat %s: %s", game.id, cmd, d.seat, exc
            )
            game.refresh_from_db()
    if rows is None:
        rnd = random.Random(f"{game.seed}:{game.version}:{d.seat}")
        parts = plugins.bots_of(game.ruleset)
        cmd = bots.play(rules, state, d.seat, bots.ZOMBIE, rnd, game.players, parts=parts)
        source = "bot"
        if cmd is None:
            log.error("game %s: seat %s has no legal command to play for it", game.id, d.seat)
            return
        rows = play.apply(game, seat, cmd, d.version, actor, {"default": True, "deadline": d.id, "bot": True})
    seat.misses += 1
    limit = excused_misses(game)
    zombie = seat.misses > limit and game.status == Game.Status.RUNNING
    secret = played_a_secret(rows)
    missed = DeadlineMissed(
        seat=d.seat,
        kind=d.kind,
        default_command=dict(cmd or {}),
        source=source,
        misses=seat.misses,
        excused_misses=limit,
        zombie=zombie,
        deadline=iso(d.due_at),
        version=d.version,
    )
    # A default built from private state (a secret plan, a hidden bid) stays as
    # secret as the events it produced: then only the seat sees this record.
    events = [
        new_event(
            missed,
            visible_to=(d.seat,) if secret else None,
            actor={"system": "deadline"},
        )
    ]
    fields = ["misses"]
    if zombie:
        seat.zombie = True
        fields.append("zombie")
        events.append(
            new_event(
                SeatZombified(
                    seat=d.seat, misses=seat.misses, user=seat.user.username if seat.user else None
                ),
                actor={"system": "deadline"},
            )
        )
    seat.save(update_fields=fields)
    play.append_core(game, events)


def send_reminders(now: datetime) -> int:
    """Remind the seats whose deadline is near (once per deadline); returns how many were sent."""
    sent = 0
    due = Deadline.objects.filter(status=OPEN, remind_at__lte=now, reminded_at__isnull=True, due_at__gt=now)
    for did, game_id in due.values_list("id", "game_id")[:SWEEP_BATCH]:
        with transaction.atomic():
            game = Game.objects.select_for_update().get(id=game_id)  # lock order: the game first
            if not Deadline.objects.filter(id=did, status=OPEN, reminded_at__isnull=True).update(
                reminded_at=now
            ):
                continue
            notify.reminder(game, Deadline.objects.get(id=did), now)
            sent += 1
    return sent


def catch_up(now: datetime, limit: int = 20) -> int:
    """Games whose after-commit hooks never ran (a process died right after a
    commit): sync and notify them now."""
    lagging = Game.objects.filter(status=Game.Status.RUNNING).filter(
        Q(pbem_cursor__isnull=True) | Q(pbem_cursor__synced_version__lt=F("version"))
    )
    n = 0
    for gid in lagging.values_list("id", flat=True)[:limit]:
        with transaction.atomic():
            game = Game.objects.select_for_update().get(id=gid)
            sync_locked(game, now, catch_up=True)
        n += 1
    behind = Game.objects.filter(pbem_cursor__notified_version__lt=F("version")).exclude(
        status=Game.Status.OPEN
    )
    for gid, version in behind.values_list("id", "version")[:limit]:
        notify.game_changed(gid, version)
        n += 1
    # a background task that was queued and lost (its flag is stale): queue it again
    lost = Game.objects.filter(
        status=Game.Status.RUNNING, work_queued_at__lt=now - timedelta(seconds=commit.STALE_QUEUED_SECONDS)
    )
    for gid in lost.values_list("id", flat=True)[:limit]:
        n += commit.request_work(gid)
    return n
