"""Run in subprocesses by test_backup.py against a throwaway database:

python -m tests.ops.backup_helper setup N      -> N toy games, each played a little
python -m tests.ops.backup_helper play SECONDS [STOPFILE]
                                                -> keeps playing new toy games (a live writer) until
                                                   SECONDS pass or STOPFILE exists, then plays one more
python -m tests.ops.backup_helper tamper       -> rewrites one event's payload behind the store's back
python -m tests.ops.backup_helper count        -> prints the number of stored events
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path


def _django():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("HOOKS_INLINE", "true")
    os.environ.setdefault("PBEM_INLINE", "true")
    os.environ.setdefault("PASSWORD_HASHERS", "django.contrib.auth.hashers.MD5PasswordHasher")
    from games.rules import registry

    registry.register("toy-auction", "tests.support.toy:RULES")
    import django

    django.setup()


def _users():
    from django.contrib.auth import get_user_model

    user_model = get_user_model()
    a, _ = user_model.objects.get_or_create(username="bk-a", defaults={"email": "a@example.org"})
    b, _ = user_model.objects.get_or_create(username="bk-b", defaults={"email": "b@example.org"})
    return a, b


def new_game(moves: int) -> None:
    from games.models import Game
    from games.services import lobby, play, reading

    a, b = _users()
    game = lobby.create_game(a, "toy-auction", 2, {}, None)
    lobby.join(game.id, b)
    lobby.start(game.id, a)
    for _ in range(moves):
        game = Game.objects.get(id=game.id)
        if game.status != Game.Status.RUNNING:
            return
        for user in (a, b):
            cmds = reading.legal(game, user).get("commands") or []
            if cmds:
                play.submit(game.id, user, cmds[0])
                break


def main(argv: list[str]) -> None:
    _django()
    if argv[0] == "setup":
        for i in range(int(argv[1])):
            new_game(3 + i % 5)
    elif argv[0] == "play":
        # A stop file, not only a clock: on a loaded machine the backup may start
        # later than any fixed time, and the test needs writes on both sides of it.
        end = time.monotonic() + float(argv[1])
        stop = Path(argv[2]) if len(argv) > 2 else None
        while time.monotonic() < end and not (stop and stop.exists()):
            new_game(6)
        new_game(6)
    elif argv[0] == "tamper":
        from django.db import connection

        from events.models import StoredEvent

        ev = StoredEvent.objects.filter(type="core.GameStarted").order_by("id").first()
        with connection.cursor() as c:  # below the model's refusal: what an attacker with DB access does
            c.execute("UPDATE events_storedevent SET payload = %s WHERE id = %s", ['{"forged": true}', ev.id])
        print(ev.stream)
    elif argv[0] == "count":
        from events.models import StoredEvent

        print(StoredEvent.objects.count())


if __name__ == "__main__":
    main(sys.argv[1:])
