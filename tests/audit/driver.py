"""Play games through the real services (lobby.start, play.apply) with random
legal commands: used by the audit tests and by tests/fixtures/record.py."""

from __future__ import annotations

import json
import random

from django.contrib.auth import get_user_model
from django.db import transaction

from games.bots import choose
from games.models import Game
from games.services import audit, lobby
from games.services.play import apply
from games.services.state import load_state, rules_for


def user(name: str):
    return get_user_model().objects.get_or_create(username=name)[0]


def new_game(
    ruleset: str = "toy-auction",
    players: int = 2,
    options: dict | None = None,
    names: tuple[str, ...] = ("hana", "kenji", "mitsu", "rin", "sora"),
) -> Game:
    users = [user(n) for n in names[:players]]
    game = lobby.create_game(users[0], ruleset, players, options or {})
    for u in users[1:]:
        lobby.join(game.id, u)
    return lobby.start(game.id, users[0])


def step(game: Game, rnd: random.Random, seat_index: int | None = None) -> bool:
    """One random legal command of a pending seat (or of `seat_index`); False when over."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.RUNNING:
            return False
        rules = rules_for(game)
        state = load_state(game)
        pending = rules.pending(state)
        if seat_index is None:
            seat_index = rnd.choice(pending).seat
        seat = game.seats.select_related("user").get(index=seat_index)
        cmd = json.loads(json.dumps(choose(rules, state, seat.index, rnd)))
        apply(game, seat, cmd, game.version, actor={"seat": seat.index, "user": seat.user.username})
    return True


def play(game: Game, seat_index: int, command: dict) -> list:
    """One given command of a seat, through play.apply (as the API would)."""
    with transaction.atomic():
        g = Game.objects.select_for_update().get(pk=game.pk)
        seat = g.seats.select_related("user").get(index=seat_index)
        rows = apply(g, seat, command, g.version, actor={"seat": seat_index, "user": seat.user.username})
    game.refresh_from_db()
    return rows


def play_out(game: Game, seed: int = 0, max_steps: int = 20000) -> Game:
    rnd = random.Random(seed)
    for _ in range(max_steps):
        if not step(game, rnd):
            break
    game.refresh_from_db()
    return game


def full_export(game: Game) -> list[dict]:
    """The export an omniscient viewer gets (finished/aborted games: everyone)."""
    game.refresh_from_db()
    return [json.loads(line) for line in audit.export_lines(game, game.creator)]


def write_jsonl(rows: list[dict], path) -> None:
    from games.rules.base import canonical_json

    with open(path, "w", encoding="utf-8") as fh:
        fh.writelines(canonical_json(r) + "\n" for r in rows)


def toy_with_takeback(seed: int) -> Game:
    """A finished toy game in which seat 0 took back a secret bid (a commitment
    that nobody has acted on yet) and bid again."""
    game = new_game()
    bid_then_take_back(game, seat=0, amount=3)
    return play_out(game, seed)


def bid_then_take_back(game: Game, seat: int = 0, amount: int = 3) -> dict:
    from games.services import undo

    play(game, seat, {"type": "bid", "amount": amount})
    req = undo.request(game.id, game.seats.get(index=seat).user)
    other = game.seats.exclude(index=seat).select_related("user").first()
    return undo.answer(game.id, other.user, req["request_seq"], accept=True)


def toy_aborted(seed: int) -> Game:
    game = new_game()
    rnd = random.Random(seed)
    for _ in range(5):
        step(game, rnd)
    return audit.abort(game.id, game.creator, "recorded abort")
