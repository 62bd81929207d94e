"""The live streams of a process read each announced commit once between them
(games/services/stream_reads.py): no query while nothing is announced, one after,
and a stream that lags or resumes still gets every event in order."""

import asyncio
import random
import uuid

import pytest
from django.contrib.auth import get_user_model

from api.live.sse import event_fetch
from events import feed, sealed, store
from games.models import Game
from games.services import stream_reads, summaries
from games.services.stream_reads import SharedReads
from tests.audit import driver

pytestmark = pytest.mark.django_db


def bid(api, persona, game_id, amount):
    r = api.as_(persona).post(
        f"/api/v1/games/{game_id}/commands", {"command": {"type": "bid", "amount": amount}}
    )
    assert r.status_code in (200, 201), r.content


def seqs(head):
    return [r.seq for r in head.rows]


def test_one_read_per_announcement_and_nothing_new_costs_no_query(
    api, host, running_game, django_assert_num_queries
):
    gid = uuid.UUID(running_game["id"])
    reads = SharedReads()
    first = reads.read(gid, 0)
    assert seqs(first) == [r.seq for r in store.load(gid)] and first.version == running_game["version"]
    with django_assert_num_queries(0):
        for _ in range(10):  # ten streams of the same game, up to date or from the start
            assert reads.read(gid, first.version).rows == []
            assert seqs(reads.read(gid, 0)) == seqs(first)
    assert reads.reads == 1

    bid(api, host, gid, 3)
    assert reads.read(gid, first.version).rows == []  # not announced yet: the hub announces commits
    reads.changed(str(gid))
    with django_assert_num_queries(2):  # the head, then only the new rows
        after = reads.read(gid, first.version)
    assert seqs(after) == list(range(first.version + 1, after.version + 1)) and after.rows
    with django_assert_num_queries(0):
        assert seqs(reads.read(gid, first.version)) == seqs(after)
        assert seqs(reads.read(gid, 0)) == seqs(first) + seqs(after)  # a lagging stream: from memory
    assert reads.reads == 2


def test_a_long_backlog_comes_in_pages_and_forget_drops_the_rows(api, host, running_game, monkeypatch):
    gid = uuid.UUID(running_game["id"])
    bid(api, host, gid, 3)
    monkeypatch.setattr(stream_reads, "MAX_ROWS", 2)
    reads = SharedReads()
    got, after = [], 0
    while True:
        head = reads.read(gid, after)
        if not head.rows:
            break
        assert len(head.rows) <= 2
        got += seqs(head)
        after = head.rows[-1].seq
    assert got == [r.seq for r in store.load(gid)] and after == head.version
    reads.forget(str(gid))
    before = reads.reads
    reads.read(gid, after)
    assert reads.reads == before + 1


def test_an_entry_read_before_an_announcement_is_never_served(api, host, running_game, monkeypatch):
    """The generation is taken before the read: a commit announced while a read runs
    makes the next fetch read again, even though the entry is newer than the call."""
    gid = uuid.UUID(running_game["id"])
    reads = SharedReads()
    real = store.load

    def load_then_commit(*args, **kwargs):
        rows = real(*args, **kwargs)
        if not getattr(load_then_commit, "done", False):
            load_then_commit.done = True
            bid(api, host, gid, 4)
            reads.changed(str(gid))
        return rows

    monkeypatch.setattr(stream_reads.store, "load", load_then_commit)
    first = reads.read(gid, 0)
    second = reads.read(gid, first.version)
    assert second.rows and second.version > first.version


def test_streams_of_one_viewer_share_the_encoded_batch(
    api, host, player, running_game, django_assert_num_queries, monkeypatch
):
    monkeypatch.setattr(stream_reads, "reads", SharedReads())
    game = Game.objects.get(id=running_game["id"])
    users = get_user_model().objects
    mine = [event_fetch(game, users.get(username="hana"), shared=True) for _ in range(3)]
    theirs = event_fetch(game, users.get(username="kenji"), shared=True)
    assert len({f.group_key(0) for f in mine}) == 1 and theirs.group_key(0) != mine[0].group_key(0)
    first = mine[0](0)
    assert first.items and first.text.count("\nevent: ") == len(first.items)
    assert first.data == first.text.encode()
    with django_assert_num_queries(0):
        assert all(f(0) is first for f in mine)  # same viewer: the same encoded batch, from memory
    assert theirs(0) is not first  # another seat: its own redaction
    stream_reads.reads.changed(running_game["id"])
    with django_assert_num_queries(2):  # a commit was announced: the head, and what follows the rows held
        assert mine[1](0).items == first.items


def test_a_commit_announced_with_its_rows_needs_no_read(api, host, running_game, django_assert_num_queries):
    gid = uuid.UUID(running_game["id"])
    reads = SharedReads()
    first = reads.read(gid, 0)
    bid(api, host, gid, 3)
    new = store.load(gid, after=first.version)
    game = Game.objects.get(id=gid)
    assert reads.pushed(str(gid), game.version, game.status, new)
    with django_assert_num_queries(0):
        got = reads.read(gid, first.version)
        assert seqs(got) == [r.seq for r in new] and got.version == game.version
        assert seqs(reads.read(gid, 0)) == seqs(first) + seqs(got)
    assert reads.reads == 1 and reads.pushes == 1


def test_announced_rows_that_do_not_follow_what_is_held_make_the_next_fetch_read(
    api, host, player, running_game
):
    gid = uuid.UUID(running_game["id"])
    reads = SharedReads()
    first = reads.read(gid, 0)
    bid(api, host, gid, 3)
    bid(api, player, gid, 4)
    game = Game.objects.get(id=gid)
    later = store.load(gid, after=first.version + 1)  # the first of the two commits' rows is missed
    assert not reads.pushed(str(gid), game.version, game.status, later)
    assert seqs(reads.read(gid, first.version)) == list(range(first.version + 1, game.version + 1))
    assert reads.reads == 2
    lock = reads._game_locks[str(gid)]
    with lock:  # a read in progress: never extended under it
        assert not reads.pushed(str(gid), game.version + 1, game.status, [])
    assert not SharedReads().pushed(str(gid), game.version, game.status, later)  # nothing held yet


def test_a_private_commit_from_another_process_arrives_sealed_and_needs_no_read(django_assert_num_queries):
    """A commit with private rows written by another web process: its pub/sub
    message (sealed, events/sealed.py) gives this process the rows, secrets
    included, so its streams read nothing (each stream then redacts them for its
    viewer, as it does the rows of a local commit)."""
    game = driver.new_game("shogun", 3, names=("hana", "kenji", "mitsu"))
    rnd = random.Random(4)
    reads = SharedReads()
    for _ in range(400):
        held = reads.read(game.id, 0)
        assert driver.step(game, rnd)
        game.refresh_from_db()
        new = store.load(game.id, after=held.version)
        if any(r.visible_to is not None for r in new):
            break
    else:
        raise AssertionError("no private commit in 400 steps")
    message = feed.announcement(game.version, (game.status, new), str(game.id))
    assert sealed.is_sealed(message)
    version, news = feed.announced(str(game.id), message)  # what the other process's hub does
    assert reads.pushed(str(game.id), version, *news)
    with django_assert_num_queries(0):
        got = reads.read(game.id, held.version)
    assert [(r.seq, r.payload, r.visible_to, r.hash) for r in got.rows] == [
        (r.seq, r.payload, r.visible_to, r.hash) for r in new
    ]


def test_from_memory_makes_the_batch_on_an_event_loop_only_without_the_database(
    api, host, player, running_game, monkeypatch
):
    """api/live/fanout.py calls `from_memory` on the event loop: it gives the batch a
    call would give when the announced rows and the cached state suffice, and None
    (the pool then reads) when nothing is held, when a read is in progress, or when
    it would need the database, which Django refuses on a thread running a loop."""

    monkeypatch.setattr(stream_reads, "reads", SharedReads())
    game = Game.objects.get(id=running_game["id"])
    hana = get_user_model().objects.get(username="hana")
    fetch = event_fetch(game, hana, shared=True)
    assert fetch.from_memory(0) is None  # nothing held yet: the pool reads
    first = fetch(0)

    async def on_loop(after):
        return fetch.from_memory(after)

    assert asyncio.run(on_loop(0)) is first  # held and presented: the same batch

    bid(api, host, game.id, 3)
    fresh = Game.objects.get(id=game.id)
    new = store.load(game.id, after=first.items[-1][0])
    assert stream_reads.reads.pushed(str(game.id), fresh.version, fresh.status, new)
    made = asyncio.run(on_loop(first.items[-1][0]))
    assert made is not None and [i[0] for i in made.items] == [r.seq for r in new]
    assert made.items == fetch(first.items[-1][0]).items  # what the pool would have made

    bid(api, player, game.id, 2)
    fresh = Game.objects.get(id=game.id)
    newer = store.load(game.id, after=new[-1].seq)
    assert stream_reads.reads.pushed(str(game.id), fresh.version, fresh.status, newer)
    # a summary whose state is not in memory reads it (this toy ruleset has no
    # summaries: stand in for that read)
    monkeypatch.setattr(summaries, "annotate", lambda game, *rest: Game.objects.filter(id=game.id).count())
    assert asyncio.run(on_loop(new[-1].seq)) is None
    got = fetch(new[-1].seq)  # the pool's way
    assert [i[0] for i in got.items] == [r.seq for r in newer]

    lock = stream_reads.reads._game_locks[str(game.id)]
    with lock:  # a read in progress: no waiting on the loop
        assert stream_reads.reads.peek(game.id, new[-1].seq) is None
