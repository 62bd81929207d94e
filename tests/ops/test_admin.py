"""The operators' admin: a superuser opens every page; events are read-only;
users can be deactivated; games are aborted with a recorded reason."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from events.models import StoredEvent
from games.models import Deadline, Game, Notification, WebhookDelivery

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def admin_client(db):
    get_user_model().objects.create_superuser("root", "root@example.org", "Root-pass-0123456789")
    c = Client()
    assert c.login(username="root", password="Root-pass-0123456789")
    return c


@pytest.fixture
def webhook_delivery(running_game):
    n = Notification.objects.filter(game_id=running_game["id"]).first()
    from django.utils import timezone

    return WebhookDelivery.objects.create(
        notification=n,
        user=n.user,
        url="https://example.org/hook",
        attempt=1,
        timestamp=0,
        status_code=500,
        ok=False,
        error="HTTP 500",
        created_at=timezone.now(),
    )


def test_createsuperuser_then_login_page(db):
    r = Client().get("/admin/")
    assert r.status_code == 302 and "/admin/login/" in r["Location"]
    assert Client().get("/admin/login/").status_code == 200


def test_every_page_opens(admin_client, running_game, webhook_delivery):
    from django.utils import timezone

    from heartbeats.beat import beat

    beat("worker", "w@test", timezone.now())
    assert Deadline.objects.exists()  # a running game has open decisions
    assert admin_client.get("/admin/").status_code == 200
    pages = 0
    for model in (
        get_user_model(),
        Game,
        StoredEvent,
        Notification,
        WebhookDelivery,
        Deadline,
        __import__("heartbeats.models", fromlist=["Heartbeat"]).Heartbeat,
    ):
        meta = model._meta
        r = admin_client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        assert r.status_code == 200, (meta.label, r.status_code)
        obj = model.objects.first()
        assert obj is not None, meta.label
        r = admin_client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk]))
        assert r.status_code == 200, (meta.label, r.status_code)
        pages += 2
    # filters and search of the game list
    assert admin_client.get("/admin/games/game/?status__exact=running&ruleset=toy-auction").status_code == 200
    assert admin_client.get(f"/admin/games/game/?q={running_game['id']}").status_code == 200
    # the user's password reset page
    user = get_user_model().objects.get(username="hana")
    assert admin_client.get(reverse("admin:auth_user_password_change", args=[user.pk])).status_code == 200
    assert pages == 14


def test_events_are_read_only(admin_client, running_game):
    ev = StoredEvent.objects.filter(stream=running_game["id"]).first()
    assert admin_client.get("/admin/events/storedevent/add/").status_code == 403
    change = reverse("admin:events_storedevent_change", args=[ev.pk])
    before = (ev.type, ev.payload)
    assert admin_client.post(change, {"type": "forged"}).status_code == 403
    assert admin_client.get(reverse("admin:events_storedevent_delete", args=[ev.pk])).status_code == 403
    ev.refresh_from_db()
    assert (ev.type, ev.payload) == before
    page = admin_client.get(change).content.decode()
    assert 'name="_save"' not in page


def test_the_game_seed_is_not_shown_while_running(admin_client, running_game):
    game = Game.objects.get(id=running_game["id"])
    page = admin_client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert game.seed not in page


def test_abort_with_a_reason_records_an_event(admin_client, running_game):
    gid = running_game["id"]
    url = reverse("admin:games_game_changelist")
    form = admin_client.post(url, {"action": "abort_games", "_selected_action": [gid]})
    assert form.status_code == 200 and b"Reason" in form.content  # the confirmation page asks for one
    assert Game.objects.get(id=gid).status == "running"
    r = admin_client.post(
        url,
        {
            "action": "abort_games",
            "_selected_action": [gid],
            "apply": "1",
            "reason": "cheating reported by both players",
        },
    )
    assert r.status_code == 302
    game = Game.objects.get(id=gid)
    assert game.status == "aborted"
    ev = StoredEvent.objects.filter(stream=gid, type="core.GameAborted").get()
    assert ev.payload == {"by": "root", "reason": "cheating reported by both players", "operator": True}
    assert StoredEvent.objects.filter(stream=gid, type="core.SeedRevealed").exists()
    assert game.version == StoredEvent.objects.filter(stream=gid).count()


def test_deactivate_user_revokes_tokens(admin_client, api, host, running_game):
    from knox.models import AuthToken

    user = get_user_model().objects.get(username="hana")
    assert AuthToken.objects.filter(user=user).exists()
    r = admin_client.post(
        reverse("admin:auth_user_changelist"), {"action": "deactivate", "_selected_action": [user.pk]}
    )
    assert r.status_code == 302
    user.refresh_from_db()
    assert not user.is_active and not AuthToken.objects.filter(user=user).exists()
    assert api.as_(host).get("/api/v1/accounts/me").status_code == 401


def test_reset_password(admin_client, host):
    user = get_user_model().objects.get(username="hana")
    r = admin_client.post(
        reverse("admin:auth_user_password_change", args=[user.pk]),
        {"password1": "A-new-pass-9876543210", "password2": "A-new-pass-9876543210"},
    )
    assert r.status_code == 302
    assert Client().login(username="hana", password="A-new-pass-9876543210")


def test_api_is_not_subject_to_csrf(host):
    """The admin's session/CSRF middleware must not touch the token-authenticated API,
    even for a client that also holds an admin session cookie."""
    import json

    c = Client(enforce_csrf_checks=True)
    get_user_model().objects.create_superuser("root2", "r2@example.org", "Root-pass-0123456789")
    assert c.login(username="root2", password="Root-pass-0123456789")
    r = c.post(
        "/api/v1/games",
        json.dumps({"ruleset": "toy-auction", "players": 2}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {host.token}",
    )
    assert r.status_code == 201, r.content
    # ...while the admin itself refuses a POST without the CSRF token
    assert c.post("/admin/auth/user/", {"action": "deactivate"}).status_code == 403
