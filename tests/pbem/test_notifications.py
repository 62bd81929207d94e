"""Notifications: sent after commit, once per (event, user, channel), by email
(locmem backend here) with one-click unsubscribe, and by signed webhooks with
retries and a delivery log."""

from __future__ import annotations

import pytest
from django.core import mail

from games.models import Game, Notification, PbemCursor, WebhookDelivery
from games.pbem import webhooks

from .conftest import start_game, sweep

pytestmark = pytest.mark.django_db(transaction=True)
TC = {"seconds_per_decision": 60}


def kinds(user_id, channel="stream"):
    """The notices of a user, but the `inbox` change announcements (tests/api/test_inbox.py)."""
    return [
        n.kind
        for n in Notification.objects.filter(user_id=user_id, channel=channel)
        .exclude(kind="inbox")
        .order_by("id")
    ]


def test_game_start_sends_started_and_your_turn_with_the_chain_head(api, clock, host, player):
    g = start_game(api, host, [player], TC)
    game = Game.objects.get(id=g["id"])
    assert kinds(host.id) == ["your_turn", "game_started"] and kinds(player.id) == [
        "your_turn",
        "game_started",
    ]
    assert sorted((m.to[0], m.subject) for m in mail.outbox) == sorted(
        (f"{who}@example.org", subject)
        for who in ("hana", "kenji")
        for subject in (
            f"[Sengoku] Your turn in toy-auction {str(game.id)[:8]}",
            f"[Sengoku] toy-auction {str(game.id)[:8]} has started",
        )
    )
    n = Notification.objects.get(user_id=player.id, kind="your_turn", channel="email")
    assert n.status == "sent" and n.payload["game"]["chain_head"] == game.chain_head
    assert n.payload["game"]["version"] == game.version and n.payload["deadline"] == "2026-03-02T12:01:00Z"
    turn = next(m for m in mail.outbox if m.to == ["kenji@example.org"] and "Your turn" in m.subject)
    assert game.chain_head in turn.body and "2026-03-02T12:01:00Z" in turn.body
    token = turn.extra_headers["List-Unsubscribe"].split("token=")[1].rstrip(">")
    assert f"accounts/unsubscribe?token={token}" in turn.body
    assert turn.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_one_click_unsubscribe_stops_emails_but_not_the_stream(api, clock, host, player):
    start_game(api, host, [player], TC)
    turn = next(m for m in mail.outbox if m.to == ["kenji@example.org"])
    token = turn.extra_headers["List-Unsubscribe"].split("token=")[1].rstrip(">")
    r = api.get(f"/api/v1/accounts/unsubscribe?token={token}")  # no login needed
    assert r.status_code == 200 and r.json() == {"unsubscribed": True, "username": "kenji"}
    assert api.as_(player).get("/api/v1/accounts/me").json()["email_notifications"] is False
    assert api.get("/api/v1/accounts/unsubscribe?token=nope").status_code == 404
    assert api.get("/api/v1/accounts/unsubscribe").json()["code"] == "invalid"
    assert api.post(f"/api/v1/accounts/unsubscribe?token={token}").status_code == 200  # RFC 8058 POST
    mail.outbox.clear()
    clock.shift(61)
    sweep()  # both defaults: "default applied" notices
    assert [m.to for m in mail.outbox if "Deadline missed" in m.subject] == [["hana@example.org"]]
    assert "default_applied" in kinds(player.id)


def test_default_applied_and_message_notices(api, clock, host, player, third):
    g = start_game(api, host, [player, third], {"seconds_per_decision": 60, "excused_misses": 0})
    gid = g["id"]
    api.as_(host).post(f"/api/v1/games/{gid}/messages", {"text": "psst", "to": [1]})
    api.as_(player).post(f"/api/v1/games/{gid}/messages", {"text": "hello all"})
    assert kinds(player.id).count("message") == 0 + 1  # the private one; not its own public one
    assert kinds(third.id).count("message") == 1  # only the public one
    assert kinds(host.id).count("message") == 1
    msg = Notification.objects.get(user_id=third.id, kind="message", channel="stream").payload["message"]
    assert msg == {"from": 1, "from_name": "kenji", "to": None, "private": False, "text": "hello all"}
    mail.outbox.clear()
    clock.shift(61)
    sweep()
    n = Notification.objects.get(user_id=player.id, kind="default_applied", channel="stream")
    assert n.payload["default_command"] == {"type": "bid", "amount": 0} and n.payload["zombie"] is True
    body = next(m.body for m in mail.outbox if m.to == ["kenji@example.org"])
    assert "type=bid, amount=0" in body and "reclaim" in body


def test_game_finished_notice(api, clock, host, player):
    from tests.api.helpers import play_to_end

    g = start_game(api, host, [player])
    play_to_end(api, g, [host, player])
    n = Notification.objects.get(user_id=player.id, kind="game_finished", channel="email")
    game = Game.objects.get(id=g["id"])
    assert n.payload["outcome"] == game.outcome and n.payload["game"]["chain_head"] == game.chain_head
    assert n.payload["game"]["status"] == "finished"


def test_an_aborted_game_is_announced_as_over(api, clock, host, player):
    g = start_game(api, host, [player], TC)
    r = api.as_(host).post(f"/api/v1/games/{g['id']}/abort", {"reason": "real life"})
    assert r.status_code == 200, r.content
    n = Notification.objects.get(user_id=player.id, kind="game_finished", channel="stream")
    assert n.payload["aborted"] is True and "real life" in n.payload["outcome"]["reason"]
    clock.shift(10**5)
    assert sweep()["fired"] == 0


def test_each_notice_goes_out_at_most_once(api, clock, host, player):
    from games.services import notify

    g = start_game(api, host, [player], TC)
    sent, rows = len(mail.outbox), Notification.objects.count()
    PbemCursor.objects.filter(game_id=g["id"]).update(notified_version=0)  # as if the hook ran again
    notify.game_changed(g["id"], g["version"])
    sweep()  # the catch-up pass too
    assert len(mail.outbox) == sent and Notification.objects.count() == rows


def test_email_opt_out_in_settings(api, clock, host, player):
    assert api.as_(player).patch("/api/v1/accounts/me", {"email_notifications": False}).status_code == 200
    start_game(api, host, [player], TC)
    assert {m.to[0] for m in mail.outbox} == {"hana@example.org"}
    assert not Notification.objects.filter(user_id=player.id, channel="email").exists()


def test_nothing_is_sent_for_a_rolled_back_write(api, clock, host, player):
    from django.db import transaction

    from games.services import notify

    g = start_game(api, host, [player], TC)
    mail.outbox.clear()
    game = Game.objects.get(id=g["id"])
    with pytest.raises(RuntimeError), transaction.atomic():
        notify.notify_user(game, game.creator, "message", "seq:999", {"seat": 0}, clock.now())
        raise RuntimeError("rollback")
    assert mail.outbox == [] and not Notification.objects.filter(event_key="seq:999").exists()


# -- webhooks -------------------------------------------------------------------------------------


def set_hook(api, who, url, secret="s3cret-key"):
    r = api.as_(who).patch("/api/v1/accounts/me", {"webhook_url": url, "webhook_secret": secret})
    assert r.status_code == 200, r.content


def test_webhooks_are_signed_and_retried_with_backoff(api, clock, host, player, receiver, settings):
    settings.WEBHOOK_BACKOFF_SECONDS = 10
    hook = receiver([500, 503, 500])
    set_hook(api, player, hook.url)
    g = start_game(api, host, [player])  # untimed: "your turn" + "game started"
    assert len(hook.requests) == 2  # both failed once
    assert sweep()["requeued"] == 0  # not due yet (10 s backoff)
    clock.shift(10)
    sweep()
    assert len(hook.requests) == 4  # second attempts: one more 503, then a 200
    clock.shift(10)
    sweep()
    assert len(hook.requests) == 4  # the failing one waits 20 s now
    clock.shift(10)
    sweep()
    assert len(hook.requests) == 5
    assert set(
        Notification.objects.filter(user_id=player.id, channel="webhook").values_list("status", flat=True)
    ) == {"sent"}
    game = Game.objects.get(id=g["id"])
    for req in hook.requests:
        h = req["headers"]
        assert webhooks.verify(
            "s3cret-key", h["X-Sengoku-Signature"], req["body"], now=clock.now().timestamp()
        )
        assert not webhooks.verify(
            "wrong", h["X-Sengoku-Signature"], req["body"], now=clock.now().timestamp()
        )
        assert not webhooks.verify(
            "s3cret-key", h["X-Sengoku-Signature"], req["body"] + b" ", now=clock.now().timestamp()
        )
        body = hook.json(hook.requests.index(req))
        assert body["game"]["chain_head"] == game.chain_head and body["game"]["version"] == game.version
        assert h["X-Sengoku-Delivery"] == str(body["notification_id"])
    log = api.as_(player).get("/api/v1/accounts/me/webhook-deliveries").json()["results"]
    assert sorted((d["attempt"], d["status_code"], d["ok"]) for d in log) == [
        (1, 500, False),
        (1, 503, False),
        (2, 200, True),
        (2, 500, False),
        (3, 200, True),
    ]
    assert [d["id"] for d in log] == sorted((d["id"] for d in log), reverse=True)  # newest first
    retried = [d for d in log if not d["ok"]]
    assert all(d["next_retry_at"] for d in retried)
    assert api.as_(host).get("/api/v1/accounts/me/webhook-deliveries").json()["results"] == []
    assert api.as_(player).get("/api/v1/accounts/me/webhook-deliveries?limit=0").status_code == 400


def test_signature_header_format_matches_the_documented_one(clock):
    import hashlib
    import hmac

    body = webhooks.body_bytes({"b": 1, "a": "é"})
    header = webhooks.signature_header("k", 1700000000, body)
    expected = hmac.new(b"k", b"1700000000." + body, hashlib.sha256).hexdigest()
    assert header == f"t=1700000000,v1={expected}"
    assert webhooks.verify("k", header, body, now=1700000100)
    assert not webhooks.verify("k", header, body, now=1700001000)  # too old: a replay
    assert not webhooks.verify("k", "garbage", body)


def test_webhook_gives_up_after_the_last_attempt_and_not_on_4xx(api, clock, host, player, receiver, settings):
    settings.WEBHOOK_MAX_ATTEMPTS = 2
    settings.WEBHOOK_BACKOFF_SECONDS = 5
    hook = receiver([500, 404, 500])  # your_turn: 500 then 500; game_started: 404 (final)
    set_hook(api, player, hook.url)
    start_game(api, host, [player])
    clock.shift(5)
    sweep()
    clock.shift(3600)
    sweep()
    statuses = sorted(
        Notification.objects.filter(user_id=player.id, channel="webhook").values_list("status", "attempts")
    )
    assert statuses == [("failed", 1), ("failed", 2)] and len(hook.requests) == 3


def test_the_celery_task_retries_a_failing_webhook(api, clock, host, player, receiver, monkeypatch):
    """The worker path: `deliver` raises Celery's retry with the backoff
    countdown (executed at once here: eager mode)."""
    from games.services import notify
    from games.tasks import deliver

    set_hook(api, player, "http://127.0.0.1:9/nothing-listens-here")
    monkeypatch.setattr(notify, "enqueue", lambda nid, attempt: None)  # queue nothing at start
    start_game(api, host, [player])
    hook = receiver([502, 502])
    set_hook(api, player, hook.url)
    n = Notification.objects.filter(user_id=player.id, channel="webhook", kind="your_turn").get()
    deliver.apply(args=[n.id, 0])
    n.refresh_from_db()
    assert n.status == "sent" and n.attempts == 3 and len(hook.requests) == 3
    assert list(
        WebhookDelivery.objects.filter(notification=n).order_by("id").values_list("status_code", flat=True)
    ) == [502, 502, 200]
    deliver.apply(args=[n.id, 0])  # a duplicate message: nothing more
    assert len(hook.requests) == 3


def test_private_webhook_targets_are_refused_when_not_allowed(api, clock, host, player, receiver, settings):
    hook = receiver()
    set_hook(api, player, hook.url)  # saved while allowed; delivery checks the address again
    settings.WEBHOOK_ALLOW_PRIVATE = False
    settings.WEBHOOK_ALLOW_LOOPBACK = False
    start_game(api, host, [player])
    assert hook.requests == []
    assert set(
        Notification.objects.filter(user_id=player.id, channel="webhook").values_list("status", flat=True)
    ) == {"failed"}
