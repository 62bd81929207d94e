"""Run in subprocesses by test_celery_e2e.py against a throwaway SQLite file:

python -m tests.pbem.e2e_helper setup    -> prints the new game's id
python -m tests.pbem.e2e_helper worker   -> a Celery worker that knows the toy ruleset
python -m tests.pbem.e2e_helper die GAME -> fire GAME's due deadlines, dying (os._exit)
                                             after the default's events, before the commit
python -m tests.pbem.e2e_helper sweep    -> one sweep; prints how many deadlines fired
"""

from __future__ import annotations

import os
import sys


def _django():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # deadline rows are written right after each commit in these processes, as the
    # tests' in-process assertions expect (the web default queues that work instead)
    os.environ.setdefault("HOOKS_INLINE", "true")
    from games.rules import registry

    registry.register("toy-auction", "tests.support.toy:RULES")
    import django

    django.setup()


def setup(seconds: int = 5) -> None:
    _django()
    from django.contrib.auth import get_user_model

    from games.services import lobby

    user_model = get_user_model()
    a = user_model.objects.create_user("e2e-a", "a@example.org", "pw-e2e-a-123456")
    b = user_model.objects.create_user("e2e-b", "b@example.org", "pw-e2e-b-123456")
    game = lobby.create_game(a, "toy-auction", 2, {}, {"seconds_per_decision": seconds})
    lobby.join(game.id, b)
    lobby.start(game.id, a)  # after commit: deadline rows (due in 5 s) and notices queued to the broker
    print(game.id, flush=True)


def worker() -> None:
    _django()
    from config.celery import app

    app.worker_main(
        [
            "worker",
            "--pool",
            "solo",
            "--loglevel",
            "INFO",
            "--without-mingle",
            "--without-gossip",
            "--hostname",
            f"e2e-{os.getpid()}@localhost",
        ]
    )


def die(game_id: str) -> None:
    """A worker killed mid-firing: the claim and the default's events are written
    in the open transaction, then the process vanishes without committing."""
    _django()
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Deadline
    from games.services import deadlines, play

    Deadline.objects.filter(game_id=game_id, status="open").update(
        due_at=timezone.now() - timedelta(seconds=1)
    )

    def vanish(*args, **kwargs):
        os._exit(9)

    play.append_core = vanish  # apply_default calls it right after play.apply
    for did in deadlines.due_ids(timezone.now()):
        deadlines.fire_one(did)
    print("not reached", flush=True)


def sweep() -> None:
    _django()
    from games.services import deadlines

    print(deadlines.sweep()["fired"], flush=True)


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "setup":
        setup(int(sys.argv[2]) if len(sys.argv) > 2 else 5)
    elif cmd == "die":
        die(sys.argv[2])
    else:
        {"worker": worker, "sweep": sweep}[cmd]()
