"""A third-party client generated from the committed OpenAPI document
(openapi-python-client, with the repository's openapi-python-client.yml)
registers, creates, joins, starts and plays a short game of every ruleset
against a live server with typed models only: the legal command objects it is
given are the very objects it submits (no to_dict/from_dict, no raw dicts);
views and events come back as the ruleset's typed models; the export is read as
NDJSON and the SSE stream is consumed."""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from api.live import slots
from games.rules import registry

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "Qz8#harbour-lights"


@pytest.fixture(scope="module")
def client_pkg(tmp_path_factory):
    out = tmp_path_factory.mktemp("gen") / "sengoku_client"
    exe = Path(sys.executable).with_name("openapi-python-client")
    if not exe.exists():
        exe = Path(shutil.which("openapi-python-client") or "openapi-python-client")
    r = subprocess.run(
        [
            str(exe),
            "generate",
            "--path",
            str(ROOT / "schema.yml"),
            "--meta",
            "none",
            "--config",
            str(ROOT / "openapi-python-client.yml"),
            "--output-path",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.exists(), r.stdout[-2000:] + r.stderr[-2000:]
    assert "Unable to process schema" not in r.stdout + r.stderr, (r.stdout + r.stderr)[-3000:]
    sys.path.insert(0, str(out.parent))
    try:
        yield importlib.import_module("sengoku_client")
    finally:
        sys.path.remove(str(out.parent))
        for name in [m for m in sys.modules if m == "sengoku_client" or m.startswith("sengoku_client.")]:
            del sys.modules[name]


def _pascal(rid: str) -> str:
    return "".join(p.capitalize() for p in rid.split("-"))


def _wait_until_streams_end(user_id: int, timeout: float) -> None:
    """The live server's thread shares the in-memory SQLite connection with the test
    (Django's rule for a live server on :memory:), and a stream the client left is still
    polling the database until its next keep-alive fails to write: the next test must
    not start before it ends ("cannot start a transaction within a transaction")."""
    end = time.monotonic() + timeout
    while any(slot.user_id == user_id for slot in list(slots._open)):
        assert time.monotonic() < end, "the server kept a stream open after the client left"
        time.sleep(0.05)


@pytest.mark.parametrize("ruleset", list(registry.PRODUCTION))
def test_generated_client_plays_every_ruleset_typed(client_pkg, live_server, ruleset, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # a left stream notices at its next keep-alive: soon
    settings.SENGOKU = {**settings.SENGOKU, "SSE_KEEPALIVE_SECONDS": 1}
    c = client_pkg
    models = importlib.import_module("sengoku_client.models")
    from sengoku_client.api.accounts import register
    from sengoku_client.api.audit import export
    from sengoku_client.api.lobby import create_game, get_game, join_game, start_game
    from sengoku_client.api.play import get_view, legal_commands, list_events, submit_command
    from sengoku_client.models import CreateGameRequest, JoinRequest, RegisterRequest, SubmitCommandRequest

    prefix = _pascal(ruleset)
    rules = registry.load_strict(ruleset)
    anon = c.Client(base_url=live_server.url)
    players = []
    for i in range(rules.min_players):
        reg = register.sync(
            client=anon, body=RegisterRequest(username=f"gen-{ruleset}-{i}", password=PASSWORD)
        )
        assert reg.token, reg
        players.append(c.AuthenticatedClient(base_url=live_server.url, token=reg.token))
    game = create_game.sync(client=players[0], body=CreateGameRequest(ruleset=ruleset, players=len(players)))
    gid = game.id  # a UUID, as the path parameters are
    for p in players[1:]:
        assert join_game.sync(game_id=gid, client=p, body=JoinRequest()).index >= 1
    assert start_game.sync(game_id=gid, client=players[0]).status.value == "running"

    command_union = tuple(
        getattr(models, n) for n in dir(models) if n.startswith(prefix) and n.endswith("Command")
    )
    played = 0
    for _ in range(8):
        meta = get_game.sync(game_id=gid, client=players[0])
        if meta.status.value != "running":
            break
        who = players[meta.pending[0].seat]
        legal = legal_commands.sync(game_id=gid, client=who)
        assert isinstance(legal, getattr(models, f"{prefix}LegalCommands")), type(legal)
        assert legal.pending
        cmd = (legal.commands or legal.samples)[0]
        assert isinstance(cmd, command_union), type(cmd)
        res = submit_command.sync(
            game_id=gid, client=who, body=SubmitCommandRequest(command=cmd, expected_version=legal.version)
        )
        assert res.version > legal.version, res
        played += 1
    assert played >= 3

    view = get_view.sync(game_id=gid, client=players[0])
    assert isinstance(view, getattr(models, f"{prefix}View")) and isinstance(
        view.state, getattr(models, f"{prefix}SeatView")
    )
    page = list_events.sync(game_id=gid, client=players[0], limit=1000)
    kinds = {type(e).__name__ for e in page.results}
    assert "CoreGameStartedEvent" in kinds and any(k.startswith(prefix) for k in kinds), kinds

    # Export: NDJSON, one event per line, the same log the feed pages through.
    resp = export.sync_detailed(game_id=gid, client=players[0])
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in resp.content.decode().splitlines() if line]
    assert [e["seq"] for e in lines] == [e.seq for e in page.results]

    # SSE: the stream replays the log from `after` and then follows it.
    first_user = User.objects.get(username=f"gen-{ruleset}-0").id
    seen = []
    with (
        players[0]
        .get_httpx_client()
        .stream("GET", f"/api/v1/games/{gid}/events", params={"stream": "true", "after": 0}, timeout=30) as s
    ):
        assert s.headers["content-type"].startswith("text/event-stream")
        for line in s.iter_lines():
            if line.startswith("data:"):
                seen.append(json.loads(line[5:])["seq"])
                if len(seen) == len(lines):
                    break
    _wait_until_streams_end(first_user, timeout=30)
    assert seen == [e["seq"] for e in lines]
