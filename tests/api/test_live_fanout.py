"""A game's live streams in a process are fed by one fan-out (api/live/fanout.py):
one read per round for all streams of a group, every stream gets every event once
and in order whether it joined late, lagged or read slowly, and a commit announced
while a read runs is never lost."""

from __future__ import annotations

import asyncio

import pytest

from api.live import fanout
from api.live import hub as live_hub
from api.live.fanout import Fanout
from events import feed
from games.services import stream_reads


class Log:
    """A game's events (seq 1..n); a fetch per viewer reads from it."""

    def __init__(self, n: int = 0):
        self.n = n
        self.finished = False
        self.calls: list[tuple[str, int]] = []

    def fetch(self, viewer: str = "spectator", fail: bool = False) -> Fetch:
        return Fetch(self, viewer, fail)


class Fetch:
    def __init__(self, log: Log, viewer: str, fail: bool):
        self.log, self.viewer, self.fail = log, viewer, fail

    def group_key(self, after: int) -> tuple:
        return (after, self.viewer, "en")

    def __call__(self, after: int) -> feed.Batch:
        self.log.calls.append((self.viewer, after))
        if self.fail:
            raise LookupError("the game is gone")
        upto = min(self.log.n, after + stream_reads.MAX_ROWS)
        items = [(seq, "e", {"seq": seq, "for": self.viewer}) for seq in range(after + 1, upto + 1)]
        return feed.batch(items, self.log.finished and upto == self.log.n)


async def inline(fn, *args):
    return fn(*args)


def received(sub) -> list[int]:
    out = []
    while sub.out:
        got = sub.out.popleft()
        out += [seq for seq, _, _ in got.items]
    return out


async def settle(fan: Fanout) -> None:
    while fan.task is not None and not fan.task.done():
        await asyncio.sleep(0)


def test_streams_of_one_group_share_one_fetch_and_one_batch():
    async def run():
        log = Log(3)
        fan = Fanout("g", inline)
        subs = [fan.join(log.fetch(), 0) for _ in range(5)]
        other = fan.join(log.fetch("seat 0"), 0)
        await settle(fan)
        assert sorted(log.calls) == [("seat 0", 0), ("spectator", 0)]  # one fetch per group
        assert len({id(s.out[0]) for s in subs}) == 1 and other.out[0] is not subs[0].out[0]
        assert all(s.event.is_set() and s.after == 3 for s in [*subs, other])
        assert [received(s) for s in subs] == [[1, 2, 3]] * 5

        log.n = 5
        log.calls.clear()
        fan.kick()
        await settle(fan)
        assert sorted(log.calls) == [("seat 0", 3), ("spectator", 3)]
        assert received(subs[0]) == [4, 5] and received(other) == [1, 2, 3, 4, 5]
        assert fan.rounds == 2

    asyncio.run(run())


def test_a_late_stream_catches_up_from_its_own_position_and_nothing_is_sent_twice():
    async def run():
        log = Log(4)
        fan = Fanout("g", inline)
        early = fan.join(log.fetch(), 4)
        await settle(fan)
        assert not early.out and not early.event.is_set()  # nothing new for it
        late = fan.join(log.fetch(), 1)
        await settle(fan)
        assert received(late) == [2, 3, 4] and not early.out
        log.n = 6
        log.calls.clear()
        fan.kick()
        await settle(fan)
        assert received(early) == [5, 6] and received(late) == [5, 6]
        assert log.calls == [("spectator", 4)]  # the two are one group again

    asyncio.run(run())


def test_a_commit_announced_during_a_read_makes_another_round():
    async def run():
        log = Log(1)
        gate = asyncio.Event()

        async def slow(fn, *args):
            await gate.wait()
            return fn(*args)

        fan = Fanout("g", slow)
        sub = fan.join(log.fetch(), 0)
        await asyncio.sleep(0)
        log.n = 2  # committed while the first round waits for its read...
        fan.kick()  # ...and announced
        gate.set()
        await settle(fan)
        assert fan.rounds == 2 and received(sub) == [1, 2]

    asyncio.run(run())


def test_a_slow_reader_is_left_behind_then_catches_up_without_a_gap(monkeypatch):
    monkeypatch.setattr(fanout, "MAX_QUEUED", 2)

    async def run():
        log = Log(0)
        fan = Fanout("g", inline)
        slow, quick = fan.join(log.fetch(), 0), fan.join(log.fetch(), 0)
        got = []
        for n in range(1, 6):
            log.n = n
            fan.kick()
            await settle(fan)
            got += received(quick)
        assert got == [1, 2, 3, 4, 5]
        assert len(slow.out) == 2 and slow.after == 2  # queued for up to MAX_QUEUED, then skipped
        early = received(slow)
        fan.kick()  # what push_body does once it drained a full outbox
        await settle(fan)
        assert early + received(slow) == [1, 2, 3, 4, 5]

    asyncio.run(run())


def test_a_failed_read_ends_its_group_only_and_a_long_backlog_comes_in_pages(monkeypatch):
    monkeypatch.setattr(stream_reads, "MAX_ROWS", 2)

    async def run():
        log = Log(5)
        fan = Fanout("g", inline)
        broken = fan.join(log.fetch("seat 1", fail=True), 0)
        fine = fan.join(log.fetch(), 0)
        await settle(fan)
        assert isinstance(broken.out[0], LookupError)
        assert received(fine) == [1, 2, 3, 4, 5]  # three pages, three rounds
        log.finished = True
        fan.kick()
        await settle(fan)
        assert fine.out[-1].finished and not fine.out[-1].items

    asyncio.run(run())


@pytest.mark.parametrize("leave_first", [True, False])
def test_the_last_stream_to_leave_stops_the_round(leave_first):
    async def run():
        log = Log(1)
        gate = asyncio.Event()

        async def slow(fn, *args):
            await gate.wait()
            return fn(*args)

        fan = Fanout("g", slow if leave_first else inline)
        sub = fan.join(log.fetch(), 0)
        await asyncio.sleep(0)
        fan.leave(sub)
        await asyncio.sleep(0)
        assert not fan.subs and (fan.task.cancelled() if leave_first else fan.task.done())

    asyncio.run(run())


def test_the_hub_drops_a_wake_for_a_version_it_already_announced():
    """With Redis a commit of this process arrives twice (local listener, then pub/sub):
    one round of reads, not two. Wakes without a version (reconnects) always go."""

    class Counting:
        subs = {object()}
        kicks = 0

        def kick(self):
            Counting.kicks += 1

    async def run():
        hub = live_hub.Hub(asyncio.get_running_loop())
        hub.fanouts["g"] = Counting()
        for version in (5, 5, 4, 6):
            hub.wake("g", version)
        assert Counting.kicks == 2
        hub.wake("g")
        hub.wake_all()
        assert Counting.kicks == 4

    asyncio.run(run())


def test_the_hub_parses_only_messages_for_games_it_watches_and_versions_it_lacks():
    """Every process hears every game's pub/sub messages: one it does not watch, or
    its own commit coming back, is dropped before its rows are parsed or opened."""

    async def run():
        hub = live_hub.Hub(asyncio.get_running_loop())
        hub.fanouts["g"] = type("Watching", (), {"subs": {object()}, "kick": lambda self: None})()
        hub.wake("g", 5)  # the local listener delivered version 5
        assert not hub._wanted("other", b"9")  # nobody here watches that game
        assert not hub._wanted("g", b"5") and not hub._wanted("g", b'{"v":5,"s":"running","r":[]}')
        assert hub._wanted("g", b"6") and hub._wanted("g", b"{not json")  # unreadable: let announced() decide

    asyncio.run(run())


class MemoryFetch(Fetch):
    """A fetch that can make its batch on the loop (api/live/sse.py's EventFetch)."""

    def __init__(self, log: Log, viewer: str, memory: str):
        super().__init__(log, viewer, False)
        self.memory = memory

    def from_memory(self, after: int):
        if self.memory == "raise":
            raise RuntimeError("a bug on the loop")
        if self.memory == "none":
            return None
        return self(after)


@pytest.mark.parametrize("memory, pool_calls", [("ok", 0), ("none", 1), ("raise", 1)])
def test_a_batch_made_in_memory_skips_the_pool(memory, pool_calls):
    async def run():
        log = Log(2)
        calls = []

        async def pool(fn, *args):
            calls.append(args)
            return fn(*args)

        fan = Fanout("g", pool)
        sub = fan.join(MemoryFetch(log, "spectator", memory), 0)
        await settle(fan)
        assert received(sub) == [1, 2] and len(calls) == pool_calls

    asyncio.run(run())
