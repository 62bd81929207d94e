"""Fair background work (issue 11.3): one queued task per game at a time, one
bot move per task, deadlines on a schedule of their own.

A fake broker records what the services send (by task name) and a worker loop
runs the queue first in, first out, as one Celery worker process does. Before,
every commit queued its own task (a bot game queued hundreds) and one
`play_bots` task played a whole bot game before anything queued behind it ran,
so another game's deadline waited for it."""

from __future__ import annotations

import pytest

from events.store import NewEvent
from games import tasks
from games.models import Game, Seat
from games.services import deadlines, dispatch
from games.services.commit import append_core

from .conftest import T0, events_of, start_game

pytestmark = pytest.mark.django_db(transaction=True)
FIRE = "games.deadlines.fire"


@pytest.fixture
def broker(settings, monkeypatch):
    """After-commit work queued, not inline; `broker.queue` is the FIFO queue."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.SENGOKU = {**settings.SENGOKU, "HOOKS_INLINE": False, "BOTS_INLINE": False}

    class Broker:
        queue: list[tuple[str, tuple]] = []

        def send(self, name, *args, countdown=None):
            self.queue.append((name, args))
            return True

        def per_game(self) -> dict[str, int]:
            out: dict[str, int] = {}
            for name, args in self.queue:
                if name == dispatch.AFTER_EVENTS:
                    out[args[0]] = out.get(args[0], 0) + 1
            return out

        def run_one(self):
            name, args = self.queue.pop(0)
            if name == dispatch.AFTER_EVENTS:
                return name, tasks.after_events_task(*args)
            if name == FIRE:
                return name, tasks.fire()
            raise AssertionError(f"unexpected task {name}")

    b = Broker()
    b.queue = []
    monkeypatch.setattr(dispatch, "send", b.send)
    return b


def _bot_game(api, host, players=3) -> str:
    """A game played by bots only: two bot seats and the host's seat a zombie."""
    from tests.conftest import create

    g = create(api, host, ruleset="toy-auction", players=players)
    for _ in range(players - 1):
        assert api.as_(host).post(f"/api/v1/games/{g['id']}/seats", {"bot": "random"}).status_code == 201
    Seat.objects.filter(game_id=g["id"], index=0).update(zombie=True)
    assert api.as_(host).post(f"/api/v1/games/{g['id']}/start").status_code == 200
    return g["id"]


def test_a_game_never_has_more_than_one_task_queued(api, clock, host, player, broker):
    g = start_game(api, host, [player])
    assert broker.per_game() == {g["id"]: 1}  # the start
    game = Game.objects.get(id=g["id"])
    from django.db import transaction

    for i in range(50):  # fifty commits (messages) while the task waits
        with transaction.atomic():
            game = Game.objects.select_for_update().get(id=g["id"])
            append_core(game, [NewEvent("core.MessageSent", {"from": 0, "to": None, "text": str(i)})])
    assert broker.per_game() == {g["id"]: 1}
    broker.run_one()  # it takes all fifty: notices for every message
    assert broker.queue == [] and Game.objects.get(id=g["id"]).work_queued_at is None
    notices = player_notices(player)
    assert {f"seq:{r.seq}" for r in events_of(g["id"], "core.MessageSent")} <= notices
    with transaction.atomic():  # the next commit queues the next run
        game = Game.objects.select_for_update().get(id=g["id"])
        append_core(game, [NewEvent("core.MessageSent", {"from": 0, "to": None, "text": "again"})])
    assert broker.per_game() == {g["id"]: 1}


def player_notices(persona) -> set[str]:
    from games.models import Notification

    return set(Notification.objects.filter(user_id=persona.id).values_list("event_key", flat=True))


def test_a_bot_game_does_not_delay_another_games_deadline(api, clock, host, player, broker):
    bot_games = [_bot_game(api, host) for _ in range(3)]
    timed = start_game(api, host, [player], {"seconds_per_decision": 60})
    assert all(n == 1 for n in broker.per_game().values())
    for _ in range(len(broker.queue)):  # each game's first run: the timed game's clocks start
        broker.run_one()
    assert len(broker.queue) == len(bot_games)  # each bot game queued its next move, once
    clock.shift(61)  # the timed game's two bids are now due; beat sends its clock task
    broker.queue.append((FIRE, ()))
    moves_before = {gid: Game.objects.get(id=gid).version for gid in bot_games}
    fired = None
    for _ in range(100):
        name, result = broker.run_one()
        assert all(n <= 1 for n in broker.per_game().values()), broker.per_game()
        if name == FIRE:
            fired = result
            break
    assert fired == 2 and len(events_of(timed["id"], "core.DeadlineMissed")) == 2
    # ahead of the clock task stood one short task per game: at most one bot move each
    for gid in bot_games:
        assert Game.objects.get(id=gid).version - moves_before[gid] <= 2, "a bot game ran ahead"
    # the bot games go on, one move per task, and finish
    for _ in range(2000):
        if not broker.queue:
            break
        name, moved = broker.run_one()
        assert name == dispatch.AFTER_EVENTS and moved <= 1
    assert {Game.objects.get(id=gid).status for gid in bot_games} == {"finished"}


def test_a_lost_task_is_queued_again_by_the_sweep(api, clock, host, player, broker):
    g = start_game(api, host, [player])
    broker.queue.clear()  # the broker lost it: the flag stays set
    assert Game.objects.get(id=g["id"]).work_queued_at == T0
    clock.shift(30)
    deadlines.sweep()
    assert broker.per_game() == {}  # not stale yet: the task may still be on its way
    clock.shift(31)
    deadlines.sweep()
    assert broker.per_game() == {g["id"]: 1}
