"""An external bot for Sengoku, written against the typed client generated from
the server's OpenAPI document (nothing else from this repository):

    openapi-python-client generate --path schema.yml --meta none         --config openapi-python-client.yml --output-path gen/sengoku_client
    PYTHONPATH=gen python examples/bot_client.py --url http://127.0.0.1:8000         --username kenji-bot --password 'a-l0ng-passphrase!' --games 1

Why, with the measurements and history: docs/modules.md, `examples/bot_client.py`.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

import httpx
from sengoku_client import AuthenticatedClient, Client
from sengoku_client.api.accounts import me_update, my_games, my_invitations, register, token
from sengoku_client.api.lobby import get_game, join_game
from sengoku_client.api.play import legal_commands, submit_command
from sengoku_client.models import (
    CredentialsRequest,
    JoinRequest,
    MyGamesAwaiting,
    PatchedMeRequest,
    RegisterRequest,
    SubmitCommandRequest,
)

PASSIVE = {"pass", "done", "decline", "waive", "tea_done", "skip", "end", "stop"}
GIVING = {"gift"}  # giving coins away never scores
PATIENCE = 3  # moves in one open decision (a ceremony, a march) before it passes
OVER = {"finished", "aborted"}


def connect(url: str, username: str, password: str) -> AuthenticatedClient:
    anon = Client(base_url=url, raise_on_unexpected_status=True)
    got = token.sync(client=anon, body=CredentialsRequest(username=username, password=password))
    key = getattr(got, "token", None)
    if not key:
        reg = register.sync(client=anon, body=RegisterRequest(username=username, password=password))
        key = getattr(reg, "token", None)
        if not key:
            raise SystemExit(f"cannot log in or register {username}: {reg}")
    client = AuthenticatedClient(base_url=url, token=key, raise_on_unexpected_status=True)
    me_update.sync(client=client, body=PatchedMeRequest(is_bot=True))
    return client


def score(cmd: Any, rnd: random.Random, restless: bool) -> float:
    """Higher is better: acting beats passing (until it has acted PATIENCE times in
    the same open decision), never giving things away."""
    d = cmd.to_dict()
    words = {str(v).lower() for v in d.values() if isinstance(v, str)}
    value = rnd.random()
    passive = bool(words & PASSIVE) or str(d.get("type", "")).lower() in PASSIVE
    if passive:
        value += 10 if restless else -10
    if str(d.get("type", "")).lower() in GIVING:
        value -= 20
    return value


def play_turn(client: AuthenticatedClient, entry: Any, rnd: random.Random, streak: dict) -> bool:
    legal = legal_commands.sync(game_id=entry.id, client=client)
    options = list(getattr(legal, "commands", None) or []) + list(getattr(legal, "samples", None) or [])
    if not getattr(legal, "pending", False) or not options:
        return False
    key = (entry.id, entry.decision)
    restless = streak.get(key, 0) >= PATIENCE
    for cmd in sorted(options, key=lambda c: score(c, rnd, restless), reverse=True):
        body = SubmitCommandRequest(command=cmd, expected_version=legal.version)
        res = submit_command.sync_detailed(game_id=entry.id, client=client, body=body)
        if res.status_code == 201:
            streak.clear() if restless else streak.update({key: streak.get(key, 0) + 1})
            return True
        if res.status_code == 409:  # the game moved on (another seat, a bot): look again
            return False
    return False


def wait_for_notice(client: AuthenticatedClient, seconds: float, after: int) -> int:
    """Block until a notice newer than `after` arrives on the live stream (or
    `seconds` pass); returns the newest notice id seen."""
    params = {"after": after}
    try:
        with client.get_httpx_client().stream(
            "GET", "/api/v1/accounts/me/stream", params=params, timeout=seconds
        ) as s:
            for line in s.iter_lines():
                if line.startswith("id:"):
                    after = max(after, int(line[3:].strip()))
                elif line.startswith("data:"):
                    return after
    except httpx.TimeoutException:
        pass
    return after


def run(url: str, username: str, password: str, games: int = 1, idle: float = 120.0, seed: int = 0) -> int:
    client = connect(url, username, password)
    rnd = random.Random(seed)
    mine: set[Any] = set()
    ended: set[Any] = set()
    quiet_since = time.monotonic()
    notice = 0
    streak: dict = {}
    while len(ended) < games and time.monotonic() - quiet_since < idle:
        busy = False
        for inv in my_invitations.sync(client=client).results:
            seat = join_game.sync(game_id=inv.game, client=client, body=JoinRequest())
            print(f"joined {inv.ruleset} game {inv.game} (invited by {inv.invited_by}) as seat {seat.index}")
            mine.add(inv.game)
            busy = True
        for entry in my_games.sync(client=client, awaiting=MyGamesAwaiting.ME, limit=200).results:
            mine.add(entry.id)
            busy = play_turn(client, entry, rnd, streak) or busy
        for gid in mine - ended:
            if get_game.sync(game_id=gid, client=client).status.value in OVER:
                ended.add(gid)
                print(f"game {gid} is over")
        if busy:
            quiet_since = time.monotonic()
        else:
            notice = wait_for_notice(client, 2.0, notice)
    return len(ended)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", required=True)
    ap.add_argument("--username", required=True)
    ap.add_argument("--password", required=True)
    ap.add_argument("--games", type=int, default=1, help="stop after this many of its games ended")
    ap.add_argument(
        "--idle", type=float, default=120.0, help="stop after this many seconds with nothing to do"
    )
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    done = run(a.url, a.username, a.password, a.games, a.idle, a.seed)
    return 0 if done >= a.games else 1


if __name__ == "__main__":
    sys.exit(main())
