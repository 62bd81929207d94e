"""Run in subprocesses by test_celery_e2e.py against a throwaway SQLite file:

    python -m tests.pbem.e2e_helper setup    -> prints the new game's id
    python -m tests.pbem.e2e_helper worker   -> a Celery worker that knows the toy ruleset
"""

from __future__ import annotations

import os
import sys


def _django():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from games.rules import registry

    registry.register("toy-auction", "tests.support.toy:RULES")
    import django

    django.setup()


def setup() -> None:
    _django()
    from django.contrib.auth import get_user_model

    from games.services import lobby

    User = get_user_model()
    a = User.objects.create_user("e2e-a", "a@example.org", "pw-e2e-a-123456")
    b = User.objects.create_user("e2e-b", "b@example.org", "pw-e2e-b-123456")
    game = lobby.create_game(a, "toy-auction", 2, {}, {"seconds_per_decision": 5})
    lobby.join(game.id, b)
    lobby.start(game.id, a)  # after commit: deadline rows (due in 5 s) and notices queued to the broker
    print(game.id, flush=True)


def worker() -> None:
    _django()
    from config.celery import app

    app.worker_main(["worker", "--pool", "solo", "--loglevel", "INFO", "--without-mingle", "--without-gossip",
                     "--hostname", f"e2e-{os.getpid()}@localhost"])


if __name__ == "__main__":
    {"setup": setup, "worker": worker}[sys.argv[1]]()
