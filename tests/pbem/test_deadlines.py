"""Deadlines: due times shown, defaults fired exactly once by the sweeper
(however many sweepers, whatever crashes), rows following `pending`."""

from __future__ import annotations

import pytest

from events.codec import platform_salt
from games.models import Deadline, Game, Seat

from .conftest import T0, events_of, feed, iso, meta, start_game, sweep

pytestmark = pytest.mark.django_db(transaction=True)
TC = {"seconds_per_decision": 60}


def test_pending_decisions_show_their_deadline(api, clock, host, player):
    g = start_game(api, host, [player], TC)
    m = meta(api, host, g["id"])
    due = iso(T0.replace(minute=1))
    assert [(p["seat"], p["kind"], p["deadline"]) for p in m["pending"]] == [(0, "bid", due), (1, "bid", due)]
    legal = api.as_(player).get(f"/api/v1/games/{g['id']}/legal-commands").json()
    assert legal["deadline"] == due


def test_untimed_games_have_no_deadline(api, clock, host, player):
    g = start_game(api, host, [player])
    assert {p["deadline"] for p in meta(api, host, g["id"])["pending"]} == {None}
    clock.shift(10**6)
    assert sweep()["fired"] == 0


def test_a_missed_deadline_applies_the_default_once(api, clock, host, player):
    g = start_game(api, host, [player], TC)
    v = g["version"]
    clock.shift(59)
    assert sweep()["fired"] == 0
    clock.shift(2)
    assert sweep()["fired"] == 2
    assert sweep()["fired"] == 0  # a second pass finds nothing to do
    missed = events_of(g["id"], "core.DeadlineMissed")
    assert [e.payload["seat"] for e in missed] == [0, 1]
    # A bid is a secret choice: its record is visible to its seat only.
    assert missed[0].visible_to == [0] and missed[0].payload["default_command"] == {
        "type": "bid",
        "amount": 0,
    }
    # ...and, being private, salted from the seed for its seq (its hash is public: docs/audit.md)
    assert missed[0].payload["salt"] == platform_salt(Game.objects.get(id=g["id"]).seed, missed[0].seq)
    assert missed[0].payload["misses"] == 1 and missed[0].payload["source"] == "default"
    bids = [e for e in events_of(g["id"], "toy.BidPlaced")]
    assert len(bids) == 2 and all(e.actor == {"seat": e.payload["seat"], "system": "deadline"} for e in bids)
    assert all(e.cause["default"] is True for e in bids)
    m = meta(api, host, g["id"])
    assert m["version"] > v and [s["misses"] for s in m["seats"]] == [1, 1]
    # the award decision that followed got a fresh full minute
    assert [(p["seat"], p["kind"], p["deadline"]) for p in m["pending"]] == [
        (0, "award", iso(T0.replace(minute=2, second=1)))
    ]
    # the other seat sees that seat 0 missed (type, seq) but not what was played for it
    seen = {e["seq"]: e for e in feed(api, player, g["id"])}
    assert seen[missed[0].seq]["redacted"] is True and "payload" in seen[missed[1].seq]


def test_deciding_in_time_closes_the_row_and_keeps_the_others_clock(api, clock, host, player):
    g = start_game(api, host, [player], TC)
    clock.shift(30)
    r = api.as_(host).post(f"/api/v1/games/{g['id']}/commands", {"command": {"type": "bid", "amount": 3}})
    assert r.status_code == 201
    rows = {d.seat: d for d in Deadline.objects.filter(game_id=g["id"])}
    assert rows[0].status == "done" and rows[1].status == "open"
    assert rows[1].version == r.json()["version"]  # V follows the game while the seat stays pending
    assert meta(api, host, g["id"])["pending"][0]["deadline"] == iso(T0.replace(minute=1))
    clock.shift(31)
    assert sweep()["fired"] == 1
    assert [e.payload["seat"] for e in events_of(g["id"], "core.DeadlineMissed")] == [1]


def test_two_sweepers_with_the_same_due_list_fire_once(api, clock, host, player):
    """Both sweepers read the due rows before either fires (the race window)."""
    from games.services import deadlines

    g = start_game(api, host, [player], TC)
    clock.shift(61)
    now = clock.now()
    first, second = deadlines.due_ids(now), deadlines.due_ids(now)
    assert len(first) == 2 and first == second
    results = [deadlines.fire_one(i, now) for i in first] + [deadlines.fire_one(i, now) for i in second]
    assert results == [True, True, False, False]
    assert len(events_of(g["id"], "core.DeadlineMissed")) == 2
    assert len(events_of(g["id"], "toy.BidPlaced")) == 2


def test_concurrent_sweeper_threads_fire_once(api, clock, host, player, django_db_blocker):
    """Two threads sweeping at once. On PostgreSQL (DATABASE_URL=postgres://…)
    they really race on the row locks; on SQLite writers serialize."""
    import threading

    from django.db import connection, connections

    g = start_game(api, host, [player], TC)
    clock.shift(61)
    barrier = threading.Barrier(2)
    out, errors = [], []

    def run():
        try:
            barrier.wait(5)
            out.append(sweep()["fired"])
        except Exception as exc:  # SQLite's shared in-memory test DB may refuse a concurrent writer
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    if connection.vendor == "postgresql":  # real row locks: the two racing sweepers fire both, once
        assert not errors, errors
        assert sorted(out) in ([0, 2], [1, 1]), out
    # SQLite may refuse the concurrent writer, raising or inside the sweep (which logs a
    # deadline that failed and goes on): beat simply sweeps again.
    for _ in range(3):
        out.append(sweep()["fired"])
    assert sum(out) == 2, (out, errors)
    assert len(events_of(g["id"], "core.DeadlineMissed")) == 2
    assert len(events_of(g["id"], "toy.BidPlaced")) == 2


def test_crash_between_claim_and_apply_leaves_nothing_and_retries_once(api, clock, host, player, monkeypatch):
    from games.services import deadlines, play

    g = start_game(api, host, [player], TC)
    v = Game.objects.get(id=g["id"]).version
    clock.shift(61)
    real_apply = play.apply
    claimed = []

    def crash(game, seat, *a, **kw):
        claimed.append(
            Deadline.objects.filter(game=game, seat=seat.index).values_list("status", flat=True)[0]
        )
        raise SystemExit("worker killed")  # not an Exception: nothing may swallow it

    monkeypatch.setattr(play, "apply", crash)
    did = deadlines.due_ids(clock.now())[0]
    with pytest.raises(SystemExit):
        deadlines.fire_one(did, clock.now())
    assert claimed == ["fired"]  # the claim had happened inside the transaction…
    assert Deadline.objects.get(id=did).status == "open"  # …and rolled back with it
    assert Game.objects.get(id=g["id"]).version == v and not events_of(g["id"], "core.DeadlineMissed")
    monkeypatch.setattr(play, "apply", real_apply)
    assert sweep()["fired"] == 2
    assert sweep()["fired"] == 0
    assert len(events_of(g["id"], "toy.BidPlaced")) == 2


def test_a_redelivered_sweep_task_has_no_double_effect(api, clock, host, player):
    """acks_late: a worker killed after the commit but before the ack gets the
    same message again; running the task twice changes nothing the second time."""
    from games.tasks import sweep as sweep_task

    g = start_game(api, host, [player], TC)
    clock.shift(61)
    assert sweep_task.apply().get()["fired"] == 2
    version = Game.objects.get(id=g["id"]).version
    assert sweep_task.apply().get()["fired"] == 0
    assert Game.objects.get(id=g["id"]).version == version


def test_lost_after_commit_hook_is_caught_up_by_the_sweep(api, clock, host, player, monkeypatch):
    """A process that dies right after a commit never runs on_commit: the
    sweep notices the lag and opens the new decision's deadline."""
    from games.services import background

    g = start_game(api, host, [player], TC)
    monkeypatch.setattr(background, "after_events", lambda *a, **k: 0)
    for who, amount in ((host, 5), (player, 1)):
        assert (
            api.as_(who)
            .post(f"/api/v1/games/{g['id']}/commands", {"command": {"type": "bid", "amount": amount}})
            .status_code
            == 201
        )
    assert not Deadline.objects.filter(game_id=g["id"], kind="award").exists()
    sweep()
    d = Deadline.objects.get(game_id=g["id"], kind="award")
    assert d.seat == 0 and d.status == "open" and d.due_at == T0.replace(minute=1)


def test_excused_misses_then_zombie_then_reclaim(api, clock, host, player):
    g = start_game(api, host, [player], {"seconds_per_decision": 60, "excused_misses": 1})
    gid = g["id"]

    def host_plays_round():
        r = api.as_(host).post(f"/api/v1/games/{gid}/commands", {"command": {"type": "bid", "amount": 1}})
        assert r.status_code == 201, r.content
        clock.shift(61)
        assert sweep()["fired"] == 1  # the player's bid
        assert (
            api.as_(host).post(f"/api/v1/games/{gid}/commands", {"command": {"type": "keep"}}).status_code
            == 201
        )

    host_plays_round()
    seat = Seat.objects.get(game_id=gid, index=1)
    assert seat.misses == 1 and not seat.zombie  # excused
    host_plays_round()
    seat.refresh_from_db()
    assert seat.misses == 2 and seat.zombie
    z = events_of(gid, "core.SeatZombified")
    assert len(z) == 1 and z[0].payload == {"seat": 1, "misses": 2, "user": "kenji"}
    assert [s["is_bot"] for s in meta(api, host, gid)["seats"]] == [False, True]
    # the zombie bot bids for seat 1 at once (bots run inline in tests); no deadline for it
    assert not Deadline.objects.filter(game_id=gid, seat=1, status="open").exists()
    assert not any(p["seat"] == 1 for p in meta(api, host, gid)["pending"])
    # only the seat's player may reclaim it
    url = f"/api/v1/games/{gid}/seats/1/reclaim"
    assert api.as_(host).post(url).json()["code"] == "not_your_seat"
    r = api.as_(player).post(url)
    assert r.status_code == 200, r.content
    assert r.json()["seats"][1]["zombie"] is False and r.json()["seats"][1]["misses"] == 0
    assert api.as_(player).post(url).status_code == 409  # not a zombie any more
    assert [e.payload["seat"] for e in events_of(gid, "core.SeatReclaimed")] == [1]
    assert api.as_(player).post(f"/api/v1/games/{gid}/seats/9/reclaim").status_code == 404


def test_the_players_own_command_reclaims_a_zombie_seat(api, clock, host, player, monkeypatch):
    from games.services import background

    monkeypatch.setattr(background, "bot_pending", lambda game_id: False)  # keep the bot away from seat 1
    g = start_game(api, host, [player], {"seconds_per_decision": 60, "excused_misses": 0})
    gid = g["id"]
    clock.shift(61)
    assert sweep()["fired"] == 2  # both bids default; no excused misses: both seats become zombies
    assert all(Seat.objects.filter(game_id=gid).values_list("zombie", flat=True))
    pending = meta(api, host, gid)["pending"]
    assert [(p["seat"], p["kind"], p["deadline"]) for p in pending] == [(0, "award", None)]
    assert pending[0]["is_bot"] is True and pending[0]["user"] == "hana"  # a zombie seat: its bot acts
    r = api.as_(host).post(f"/api/v1/games/{gid}/commands", {"command": {"type": "keep"}})
    assert r.status_code == 201, r.content
    assert not Seat.objects.get(game_id=gid, index=0).zombie
    assert events_of(gid, "core.SeatReclaimed")[-1].payload == {"seat": 0, "user": "hana"}
    # the reclaimed seat is timed again; the zombie seat is not
    assert [(p["seat"], p["deadline"] is not None) for p in meta(api, host, gid)["pending"]] == [
        (0, True),
        (1, False),
    ]
    # a message is not a move: it does not reclaim
    assert api.as_(player).post(f"/api/v1/games/{gid}/messages", {"text": "back soon"}).status_code == 201
    assert Seat.objects.get(game_id=gid, index=1).zombie


def test_finished_games_close_their_rows(api, clock, host, player):
    from tests.api.helpers import play_to_end

    g = start_game(api, host, [player], TC)
    play_to_end(api, g, [host, player])
    assert not Deadline.objects.filter(game_id=g["id"], status="open").exists()
    clock.shift(10**5)
    assert sweep()["fired"] == 0


def test_only_a_seats_secret_makes_a_default_secret():
    from types import SimpleNamespace as Row

    from games.services.deadlines import played_a_secret

    public, nobodys, seats = Row(visible_to=None), Row(visible_to=[]), Row(visible_to=[0])
    assert not played_a_secret([public, nobodys])  # e.g. a defaulted attack that throws the tower
    assert played_a_secret([public, nobodys, seats])
    assert not played_a_secret([public])
