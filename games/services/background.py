"""A game's background work after its events commit: deadline rows follow the
engine's pending decisions, notifications go out, and a bot (or zombie seat)
whose turn it is plays one move.

Why, with the measurements and history: docs/modules.md, `games/services/background.py`.
"""

from __future__ import annotations

import logging
import random
import threading
from typing import Any

from django.conf import settings
from django.db import transaction

from games import bots, plugins
from games.bots.base import Command
from games.rules.base import Ruleset

from ..models import Game, Seat
from . import commit, deadlines, notify
from .play import apply
from .state import load_state, rules_for

log = logging.getLogger(__name__)
_local = threading.local()
MAX_INLINE_BOT_MOVES = 5000


def run(game_id: str, version: int | None = None) -> int:
    """The worker's coalesced task for one game: release the game's queue slot
    first (a commit from now on queues the next run), then do everything the
    game needs up to its newest version. Returns the bot moves played."""
    Game.objects.filter(id=game_id).update(work_queued_at=None)
    return after_events(game_id, version, bots_here=False)


def after_events(
    game_id: str, version: int | None = None, bots_here: bool | None = None, bot_delay: float = 0.0
) -> int:
    """`bots_here`: play a pending bot's move in this call (None: as the inline
    settings say; inline hooks otherwise hand it to the worker, `bot_delay`
    seconds later)."""
    deadlines.sync(game_id)
    notify.game_changed(game_id, version)
    if getattr(_local, "playing", False):
        return 0  # the bot loop running in this thread continues by itself
    if not bot_pending(game_id):
        return 0
    inline = commit.bots_inline() if bots_here is None else bots_here
    if inline:
        return play_bots(game_id)
    if bots_here is None and commit.hooks_inline():
        commit.request_work(game_id, bot_delay)  # inline hooks hand the bot's move to the worker
        return 0
    return int(play_one_bot_move(game_id))


def bot_pending(game_id: str) -> bool:
    """Whether a bot seat of this running, unpaused game must act now (its turn,
    or an offer waiting for its answer)."""
    game = Game.objects.filter(id=game_id, status=Game.Status.RUNNING, paused=False).first()
    if game is None:
        return False
    robots = {s.index for s in game.seats.all() if s.is_bot}
    if not robots:
        return False
    rules, state = rules_for(game), load_state(game)
    if any(p.seat in robots for p in rules.pending(state)):
        return True
    return _answer(game, rules, state, robots) is not None


def _answer(game: Game, rules: Ruleset, state: Any, robots: set[int]) -> tuple[int, Command] | None:
    """A bot seat's answer to an offer waiting for it (Rising Sun: an alliance
    proposal made after it said tea_done, so it is not pending): without this the
    proposer never heard back. Every bot kind answers by the ruleset's hook."""
    parts = plugins.bots_of(game.ruleset)
    if parts.answer is None:
        return None
    for seat in sorted(robots):
        rnd = random.Random(f"{game.seed}:{game.version}:{seat}:answer")
        cmd = bots.answer(rules, state, seat, rnd, parts=parts)
        if cmd is not None:
            return seat, cmd
    return None


def play_one_bot_move(game_id: str) -> bool:
    """One bot decision in its own transaction; False when no bot is pending.
    Answers to offers come first: the proposer waits for them, and a bot whose
    turn it is would otherwise decide with the offer still open."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(id=game_id).first()
        if game is None or game.status != Game.Status.RUNNING or game.paused:
            return False
        seats = {s.index: s for s in game.seats.all()}
        rules = rules_for(game)
        state = load_state(game)
        waiting = _answer(game, rules, state, {i for i, s in seats.items() if s.is_bot})
        if waiting is not None:
            answering = seats[waiting[0]]
            _apply(game, answering, waiting[1], policy_of(answering))
            return True
        for p in rules.pending(state):
            seat = seats.get(p.seat)
            if seat is None or not seat.is_bot:
                continue
            rnd = random.Random(f"{game.seed}:{game.version}:{seat.index}")
            name = policy_of(seat)
            seconds = settings.SENGOKU["BOT_MCTS_SECONDS"]
            parts = plugins.bots_of(game.ruleset)
            cmd = bots.play(rules, state, seat.index, name, rnd, game.players, seconds, parts=parts)
            if cmd is None:
                continue
            _apply(game, seat, cmd, name)
            return True
    return False


def _apply(game: Game, seat: Seat, cmd: Command, name: str) -> None:
    """The bot's command through the same path as a person's (play.apply)."""
    kind = "zombie" if seat.zombie else "bot"
    apply(game, seat, cmd, game.version, actor={"seat": seat.index, kind: name})


def policy_of(seat: Seat) -> str:
    """A bot seat plays its own bot; a zombie seat (missed deadlines) the heuristic."""
    return seat.bot if seat.bot in bots.POLICIES else bots.ZOMBIE


def play_bots(game_id: str) -> int:
    """Inline: bots play until none is pending (their commits' hooks see the
    flag and leave the loop to this one)."""
    _local.playing = True
    steps = 0
    try:
        while steps < MAX_INLINE_BOT_MOVES and play_one_bot_move(game_id):
            steps += 1
    finally:
        _local.playing = False
    return steps
