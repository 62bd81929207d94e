"""A command is one batch (events.store.Batch): its COMMIT rides with its
INSERT when nothing follows it in the transaction (the batch's `last_write`).
An Idempotency-Key's receipt and a snapshot on the boundary ride in the same
batch. Either way the events, the game row, the receipt and the snapshot are
all there and the after-commit work is queued once."""

from __future__ import annotations

import pytest

from events import store
from events.models import Snapshot, StoredEvent
from games.models import CommandReceipt, Game
from games.services import dispatch

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def spied(settings, monkeypatch):
    """After-commit work goes to the worker (recorded); each batch's `last_write` is recorded."""
    settings.SENGOKU = {**settings.SENGOKU, "HOOKS_INLINE": False, "SNAPSHOT_EVERY": 1000}
    sent, commits = [], []
    monkeypatch.setattr(dispatch, "send", lambda name, *args, countdown=None: sent.append(name) or True)
    real = store.write

    def write(batch):
        commits.append(batch.last_write)
        return real(batch)

    monkeypatch.setattr(store, "write", write)
    return sent, commits


def _next_command(api, gid, personas, **extra):
    """The first legal command of whoever may act, posted."""
    for who in personas:
        legal = api.as_(who).get(f"/api/v1/games/{gid}/legal-commands").json()
        if legal["commands"]:
            return api.as_(who).post(
                f"/api/v1/games/{gid}/commands", {"command": legal["commands"][0]}, **extra
            )
    raise AssertionError("nobody may act")


def _someone_who_may_act(api, gid, personas):
    for who in personas:
        legal = api.as_(who).get(f"/api/v1/games/{gid}/legal-commands").json()
        if legal["commands"]:
            return who, legal["commands"][0]
    raise AssertionError("nobody may act")


def _free_work(gid):
    """As if the worker had run: the next write claims the game's work again."""
    Game.objects.filter(id=gid).update(work_queued_at=None)


def test_which_commands_send_their_commit_with_the_insert(api, host, player, running_game, spied, settings):
    sent, commits = spied
    gid, people = running_game["id"], [host, player]

    _free_work(gid)
    r = _next_command(api, gid, people)
    assert r.status_code == 201, r.content
    assert commits[-1] is True and sent[-1] == dispatch.AFTER_EVENTS  # the on-commit hooks ran
    version = r.json()["version"]
    assert Game.objects.get(id=gid).version == version == StoredEvent.objects.filter(stream=gid).count()

    # with a key, the receipt rides in the events' pipeline: the COMMIT still goes with them
    _free_work(gid)
    who, command = _someone_who_may_act(api, gid, people)
    body = {"command": command}
    r = api.as_(who).post(f"/api/v1/games/{gid}/commands", body, HTTP_IDEMPOTENCY_KEY="k-commit")
    assert r.status_code == 201 and commits[-1] is True and len(sent) == 2
    receipt = CommandReceipt.objects.get(game_id=gid, key="k-commit")
    # the receipt keeps the answer; its signed checkpoint is made from stored facts when answered
    answered = {k: v for k, v in r.json().items() if k != "checkpoint"}
    assert r.json()["checkpoint"]["version"] == r.json()["version"]
    assert receipt.response == answered and receipt.status_code == 201 and receipt.created_at is not None
    again = api.as_(who).post(f"/api/v1/games/{gid}/commands", body, HTTP_IDEMPOTENCY_KEY="k-commit")
    assert again.json() == r.json() and len(commits) == 2  # answered from the receipt, nothing appended
    assert Game.objects.get(id=gid).version == r.json()["version"]

    # a snapshot due on this commit rides in the same batch: the COMMIT still goes with it
    settings.SENGOKU = {**settings.SENGOKU, "SNAPSHOT_EVERY": r.json()["version"] + 1}
    r = _next_command(api, gid, people)
    assert r.status_code == 201 and commits[-1] is True
    assert Snapshot.objects.filter(stream=gid, version=r.json()["version"]).exists()

    # a stale command commits nothing, with or without the early COMMIT
    before = StoredEvent.objects.filter(stream=gid).count()
    for who in people:
        legal = api.as_(who).get(f"/api/v1/games/{gid}/legal-commands").json()
        if legal["commands"]:
            body = {"command": legal["commands"][0], "expected_version": before - 1}
            stale = api.as_(who).post(f"/api/v1/games/{gid}/commands", body)
            assert stale.status_code == 409
    assert StoredEvent.objects.filter(stream=gid).count() == before == Game.objects.get(id=gid).version
