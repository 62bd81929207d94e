"""A third-party client generated from the committed OpenAPI document
(openapi-python-client) registers, creates, joins, starts and plays a short
game against a live server — proof the schema is enough to drive the server."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def client_pkg(tmp_path_factory):
    out = tmp_path_factory.mktemp("gen") / "sengoku_client"
    exe = Path(sys.executable).with_name("openapi-python-client")
    if not exe.exists():
        exe = Path(shutil.which("openapi-python-client") or "openapi-python-client")
    r = subprocess.run([str(exe), "generate", "--path", str(ROOT / "schema.yml"), "--meta", "none",
                        "--output-path", str(out)], capture_output=True, text=True, timeout=120)
    assert out.exists(), r.stdout[-2000:] + r.stderr[-2000:]
    sys.path.insert(0, str(out.parent))
    try:
        yield importlib.import_module("sengoku_client")
    finally:
        sys.path.remove(str(out.parent))


def test_generated_client_plays_a_game(client_pkg, live_server):
    c = client_pkg
    from sengoku_client.api.accounts import register
    from sengoku_client.api.lobby import create_game, get_game, join_game, start_game
    from sengoku_client.api.play import legal_commands, submit_command
    from sengoku_client.models import (
        CommandRequestRequest,
        CommandRequestRequestCommand,
        CreateGameRequest,
        JoinRequest,
        RegisterRequest,
    )

    anon = c.Client(base_url=live_server.url)
    players = []
    for name in ("gen-one", "gen-two"):
        reg = register.sync(client=anon, body=RegisterRequest(username=name, password="Qz8#harbour-lights"))
        assert reg.token, reg
        players.append(c.AuthenticatedClient(base_url=live_server.url, token=reg.token))
    game = create_game.sync(client=players[0], body=CreateGameRequest(ruleset="toy-auction", players=2))
    gid = str(game.id)
    assert join_game.sync(game_id=gid, client=players[1], body=JoinRequest()).index == 1
    assert start_game.sync(game_id=gid, client=players[0]).status.value == "running"
    for _ in range(60):
        if get_game.sync(game_id=gid, client=players[0]).status.value == "finished":
            break
        for p in players:
            legal = legal_commands.sync(game_id=gid, client=p)
            if legal.commands:
                cmd = legal.commands[0].to_dict()
                res = submit_command.sync(game_id=gid, client=p, body=CommandRequestRequest(
                    command=CommandRequestRequestCommand.from_dict(cmd), expected_version=legal.version))
                assert res.version > legal.version, res
                break
    final = get_game.sync(game_id=gid, client=players[0])
    assert final.status.value == "finished" and final.outcome.winners
