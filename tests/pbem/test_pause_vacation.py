"""Pause votes, vacation and the outage guard: clocks stop and resume with
the time they had left."""

from __future__ import annotations

import datetime as dt

import pytest

from accounts.models import Profile
from games.models import Deadline, Game, Notification

from .conftest import T0, events_of, iso, meta, start_game, sweep

pytestmark = pytest.mark.django_db(transaction=True)
TC = {"seconds_per_decision": 100}


def due(api, who, gid) -> dict:
    return {p["seat"]: p["deadline"] for p in meta(api, who, gid)["pending"]}


def at(seconds: float) -> str:
    return iso(T0 + dt.timedelta(seconds=seconds))


def test_pause_needs_every_player_or_the_creator_and_keeps_the_remaining_time(
    api, clock, host, player, third
):
    g = start_game(api, host, [player, third], TC)
    gid = g["id"]
    clock.shift(30)
    r = api.as_(player).post(f"/api/v1/games/{gid}/pause")
    assert r.status_code == 200 and r.json()["paused"] is False
    assert r.json()["votes"] == ["kenji"] and r.json()["waiting_for"] == ["hana", "mitsu"]
    r = api.as_(third).post(f"/api/v1/games/{gid}/pause")
    assert r.json()["paused"] is False and r.json()["waiting_for"] == ["hana"]
    r = api.as_(host).post(f"/api/v1/games/{gid}/pause")  # the last vote (and the creator's)
    assert r.json()["paused"] is True and r.json()["switched"] is True
    assert meta(api, host, gid)["paused"] is True and due(api, host, gid) == {0: None, 1: None, 2: None}
    # while paused: no moves, no defaults, no ticking; press still works
    r = api.as_(host).post(f"/api/v1/games/{gid}/commands", {"command": {"type": "bid", "amount": 1}})
    assert r.status_code == 409 and r.json()["code"] == "game_paused"
    assert api.as_(host).post(f"/api/v1/games/{gid}/pause").json()["code"] == "already_paused"
    clock.shift(10_000)
    assert sweep()["fired"] == 0
    r = api.as_(player).post(f"/api/v1/games/{gid}/resume")
    assert r.json()["paused"] is True and r.json()["waiting_for"] == ["hana", "mitsu"]
    r = api.as_(host).post(f"/api/v1/games/{gid}/resume")  # the creator alone suffices
    assert r.json()["paused"] is False and r.json()["switched"] is True
    assert due(api, host, gid) == {s: at(10_030 + 70) for s in range(3)}
    assert [e.type for e in events_of(gid) if e.type in ("core.GamePaused", "core.GameResumed")] == [
        "core.GamePaused",
        "core.GameResumed",
    ]
    assert events_of(gid, "core.GamePaused")[0].payload == {"by": ["hana", "kenji", "mitsu"], "creator": True}
    clock.shift(69)
    assert sweep()["fired"] == 0
    clock.shift(2)
    assert sweep()["fired"] == 3


def test_creator_alone_pauses_and_others_are_checked(api, clock, host, player, outsider):
    g = start_game(api, host, [player], TC)
    gid = g["id"]
    assert api.as_(outsider).post(f"/api/v1/games/{gid}/pause").json()["code"] == "not_seated"
    assert api.as_(player).post(f"/api/v1/games/{gid}/resume").json()["code"] == "not_paused"
    assert api.as_(host).post(f"/api/v1/games/{gid}/pause").json()["paused"] is True
    assert api.as_(host).post("/api/v1/games/not-a-game/pause").status_code == 404
    assert api.post(f"/api/v1/games/{gid}/resume").status_code == 401


def test_vacation_freezes_the_players_clock_and_resumes_it_after(api, clock, host, player):
    g = start_game(api, host, [player], {"seconds_per_decision": 3600})
    gid = g["id"]
    clock.shift(600)
    until = T0 + dt.timedelta(seconds=600 + 7200)
    r = api.as_(player).patch("/api/v1/accounts/me", {"vacation_until": iso(until)})
    assert r.status_code == 200, r.content
    assert abs(r.json()["vacation_days_left"] - (30 - 2 / 24)) < 1e-6
    d = Deadline.objects.get(game_id=gid, seat=1, status="open")
    assert d.frozen == "vacation" and d.remaining == 3000 and d.due_at is None
    # shown as when it will be due: the vacation's end plus what was left
    assert due(api, host, gid) == {0: at(3600), 1: at(600 + 7200 + 3000)}
    clock.shift(3000 + 1)  # the host's deadline passes, the player's clock stands still
    assert sweep()["fired"] == 1
    assert [e.payload["seat"] for e in events_of(gid, "core.DeadlineMissed")] == [0]
    clock.shift(7200 + 600 - 3601 + 60)  # a minute after the vacation ended
    sweep()
    assert Deadline.objects.get(id=d.id).due_at == until + dt.timedelta(seconds=3000)
    clock.shift(3000 - 60 - 1)
    assert sweep()["fired"] == 0
    clock.shift(2)
    assert sweep()["fired"] == 1


def test_ending_a_vacation_early_refunds_days_and_restarts_the_clock_now(api, clock, host, player):
    g = start_game(api, host, [player], {"seconds_per_decision": 3600})
    gid = g["id"]
    clock.shift(100)
    r = api.as_(player).patch("/api/v1/accounts/me", {"vacation_until": iso(T0 + dt.timedelta(days=10))})
    assert r.status_code == 200
    clock.shift(86400)  # one day later the player is back
    r = api.as_(player).patch("/api/v1/accounts/me", {"vacation_until": None})
    assert r.status_code == 200 and r.json()["vacation_until"] is None
    assert abs(r.json()["vacation_days_left"] - (30 - 1)) < 1e-6
    assert due(api, host, gid)[1] == at(100 + 86400 + 3500)


def test_vacation_allowance_is_enforced(api, clock, player, settings):
    settings.VACATION_DAYS_PER_YEAR = 20
    r = api.as_(player).patch("/api/v1/accounts/me", {"vacation_until": iso(T0 + dt.timedelta(days=21))})
    assert r.status_code == 400 and r.json()["code"] == "vacation_exhausted"
    r = api.as_(player).patch("/api/v1/accounts/me", {"vacation_until": iso(T0 + dt.timedelta(days=15))})
    assert r.status_code == 200 and abs(r.json()["vacation_days_left"] - 5) < 1e-6
    # moving an active vacation re-plans it: the unused part is refunded first
    r = api.as_(player).patch("/api/v1/accounts/me", {"vacation_until": iso(T0 + dt.timedelta(days=20))})
    assert r.status_code == 200 and r.json()["vacation_days_left"] < 1e-6
    clock.shift(86400 * 20 + 1)
    r = api.as_(player).patch("/api/v1/accounts/me", {"vacation_until": iso(T0 + dt.timedelta(days=22))})
    assert r.json()["code"] == "vacation_exhausted"
    p = Profile.objects.get(user_id=player.id)
    assert p.vacation_days_used == {"2026": 20.0}
    r = api.as_(player).patch("/api/v1/accounts/me", {"vacation_until": "not a date"})
    assert r.status_code == 400


def test_outage_guard_extends_open_deadlines_by_the_downtime(api, clock, host, player, settings):
    settings.DEADLINE_OUTAGE_SECONDS = 60
    g = start_game(api, host, [player], {"seconds_per_decision": 300})
    gid = g["id"]
    for _ in range(5):  # the sweeper runs normally for a while
        clock.shift(2)
        assert sweep()["outage_seconds"] == 0
    clock.shift(1000)  # beat and workers were down; the deadline (T0+300) passed meanwhile
    out = sweep()
    assert out["outage_seconds"] == 1000 and out["fired"] == 0
    assert due(api, host, gid) == {0: at(1300), 1: at(1300)}
    for _ in range(5):  # sweeping normally again (steps below the threshold)
        clock.shift(57)
        assert sweep() == {**sweep(), "fired": 0, "outage_seconds": 0}
    clock.shift(1300 - 1010 - 285 - 1)
    assert sweep()["fired"] == 0
    clock.shift(2)
    assert sweep()["fired"] == 2


def test_without_an_outage_deadlines_fire_on_time(api, clock, host, player, settings):
    settings.DEADLINE_OUTAGE_SECONDS = 60
    start_game(api, host, [player], {"seconds_per_decision": 10})
    fired_at = []
    for i in range(10):
        clock.shift(2)
        if sweep()["fired"]:
            fired_at.append((i + 1) * 2)
    assert fired_at == [10, 20]  # the bids, then the award decision that followed (a fresh 10 s)


def test_reminder_before_the_deadline_is_sent_once(api, clock, host, player):
    from django.core import mail

    g = start_game(api, host, [player], {"seconds_per_decision": 3600, "reminder_before_seconds": 600})
    api.as_(host).post(f"/api/v1/games/{g['id']}/commands", {"command": {"type": "bid", "amount": 1}})
    mail.outbox.clear()
    clock.shift(2999)
    assert sweep()["reminded"] == 0
    clock.shift(2)
    assert sweep()["reminded"] == 1
    assert sweep()["reminded"] == 0
    reminders = Notification.objects.filter(kind="reminder")
    assert {(n.user.username, n.channel) for n in reminders} == {("kenji", "stream"), ("kenji", "email")}
    assert [m.to for m in mail.outbox] == [["kenji@example.org"]]
    assert "due soon" in mail.outbox[0].subject and at(3600) in mail.outbox[0].body


def test_reminder_time_moves_with_a_pause(api, clock, host, player):
    g = start_game(api, host, [player], {"seconds_per_decision": 1000, "reminder_before_seconds": 100})
    gid = g["id"]
    clock.shift(500)
    api.as_(host).post(f"/api/v1/games/{gid}/pause")
    clock.shift(5000)
    assert sweep()["reminded"] == 0
    api.as_(host).post(f"/api/v1/games/{gid}/resume")
    clock.shift(399)
    assert sweep()["reminded"] == 0
    clock.shift(2)
    assert sweep()["reminded"] == 2
    assert Game.objects.get(id=gid).paused is False
