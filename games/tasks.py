"""Celery tasks of the games app: bots (and zombie seats) playing their turns.

Bots play through the same `apply` path as players. After every commit,
`after_events` queues `play_bots` when a bot seat is pending; the task plays
bot decisions one transaction at a time until no bot is pending.
"""

from __future__ import annotations

import logging
import random
import threading

from celery import shared_task
from django.db import transaction

log = logging.getLogger(__name__)
_local = threading.local()
MAX_BOT_STEPS = 5000


def after_events(game_id: str, version: int) -> None:
    from games.services import deadlines, notify

    deadlines.sync(game_id)
    notify.game_changed(game_id, version)
    if getattr(_local, "playing", False):
        return  # the running play_bots loop in this thread continues by itself
    if _bot_pending(game_id):
        from .services.hooks import bots_inline

        if bots_inline():
            play_bots(game_id)
        else:
            play_bots.delay(game_id)


@shared_task(name="games.after_events", acks_late=True, ignore_result=True)
def after_events_task(game_id: str, version: int) -> None:
    after_events(game_id, version)


def _bot_pending(game_id: str) -> bool:
    from games.models import Game
    from games.services.state import load_state, rules_for

    game = Game.objects.filter(id=game_id, status=Game.Status.RUNNING).first()
    if game is None:
        return False
    bots = {s.index for s in game.seats.all() if s.is_bot}
    if not bots:
        return False
    return any(p.seat in bots for p in rules_for(game).pending(load_state(game)))


def choose(rules, state, seat: int, rnd: random.Random):
    legal = rules.legal_commands(state, seat)
    options = list(legal.commands)
    if legal.sample is not None and (not options or rnd.random() < 0.2):
        return dict(legal.sample(rnd))
    return dict(rnd.choice(options)) if options else None


def play_one_bot_move(game_id: str) -> bool:
    """One bot decision in its own transaction; False when no bot is pending."""
    from games.models import Game
    from games.services.play import apply
    from games.services.state import load_state, rules_for

    with transaction.atomic():
        game = Game.objects.select_for_update().filter(id=game_id).first()
        if game is None or game.status != Game.Status.RUNNING or game.paused:
            return False
        seats = {s.index: s for s in game.seats.all()}
        rules = rules_for(game)
        state = load_state(game)
        for p in rules.pending(state):
            seat = seats.get(p.seat)
            if seat is None or not seat.is_bot:
                continue
            rnd = random.Random(f"{game.seed}:{game.version}:{seat.index}")
            cmd = choose(rules, state, seat.index, rnd)
            if cmd is None:
                continue
            kind = "zombie" if seat.zombie else "bot"
            apply(game, seat, cmd, game.version, actor={"seat": seat.index, kind: seat.bot or "random"})
            return True
    return False


@shared_task(name="games.play_bots", acks_late=True)
def play_bots(game_id: str) -> int:
    _local.playing = True
    steps = 0
    try:
        while steps < MAX_BOT_STEPS and play_one_bot_move(game_id):
            steps += 1
    finally:
        _local.playing = False
    return steps


from . import tasks_pbem  # noqa: E402,F401  (play-by-email tasks: sweep, deliver)
