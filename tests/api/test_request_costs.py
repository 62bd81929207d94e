"""What one request pays (issue 11.4): queries per request on the hot paths,
and the cached token lookup that must still honour a revocation at once."""

from __future__ import annotations

import pytest
from knox.models import AuthToken

from events.models import Snapshot
from games.services import dispatch

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def queued(settings, monkeypatch):
    """After-commit work goes to the worker, as in production (not measured here)."""
    settings.SENGOKU = {**settings.SENGOKU, "HOOKS_INLINE": False}
    sent = []
    monkeypatch.setattr(dispatch, "send", lambda name, *args, countdown=None: sent.append(name) or True)
    return sent


def _bid(api, who, gid, amount, **extra):
    body = {"command": {"type": "bid", "amount": amount}}
    return api.as_(who).post(f"/api/v1/games/{gid}/commands", body, **extra)


def test_queries_per_request_on_the_hot_paths(
    api, host, player, running_game, queued, django_assert_max_num_queries
):
    gid = running_game["id"]
    api.as_(host).get(f"/api/v1/games/{gid}/view")  # warms the state cache
    api.as_(player).get(f"/api/v1/games/{gid}/view")
    # each request reads its token (with its user) once: revocation is at once (issue 31, api/auth.py)
    with django_assert_max_num_queries(3):  # token, game, seats
        assert api.as_(host).get(f"/api/v1/games/{gid}/view").status_code == 200
    with django_assert_max_num_queries(3):  # token, game, seats (an untimed game reads no deadline rows)
        assert api.as_(host).get(f"/api/v1/games/{gid}/legal-commands").status_code == 200
    with django_assert_max_num_queries(3):  # token, game, seats with their users (the creator is seated)
        assert api.as_(host).get(f"/api/v1/games/{gid}").status_code == 200
    # token, BEGIN, lock the game, seats, INSERT events, UPDATE game, COMMIT: no second
    # game lookup, and deadlines and notifications are the worker's; then the mover's
    # last-seen version (a move is a look: one upsert, games/services/last_seen.py)
    with django_assert_max_num_queries(8):
        assert _bid(api, host, gid, 1).status_code == 201
    assert queued == [dispatch.AFTER_EVENTS]  # the start's task still waits: nothing more queued


def test_a_receipt_and_a_snapshot_ride_in_the_commands_batch(
    api, host, player, running_game, queued, settings, django_assert_max_num_queries
):
    """One batch (events.store.Batch) per command: the receipt and a snapshot due
    on this commit are statements of its pipeline, not writes of their own (the
    snapshot no longer pays a savepoint and its release)."""
    gid = running_game["id"]
    api.as_(host).get(f"/api/v1/games/{gid}/view")  # warms the state cache
    # token, game, receipt (before the lock), BEGIN, lock, seats, receipt (under the
    # lock), INSERT events, UPDATE game, INSERT receipt, COMMIT, last seen
    with django_assert_max_num_queries(12):
        assert _bid(api, host, gid, 1, HTTP_IDEMPOTENCY_KEY="k-costs").status_code == 201
    version = api.as_(host).get(f"/api/v1/games/{gid}").json()["version"]
    settings.SENGOKU = {**settings.SENGOKU, "SNAPSHOT_EVERY": version + 1}
    # token, BEGIN, lock, seats, INSERT, UPDATE, snapshot, COMMIT, then the mover's last
    # seen (one upsert, games/services/last_seen.py)
    with django_assert_max_num_queries(9):
        r = _bid(api, player, gid, 2)
    assert r.status_code == 201
    assert Snapshot.objects.filter(stream=gid, version=r.json()["version"]).exists()


def test_a_revoked_token_stops_working_at_once(api, host):
    assert api.as_(host).get("/api/v1/accounts/me").status_code == 200
    AuthToken.objects.filter(user_id=host.id).delete()
    r = api.as_(host).get("/api/v1/accounts/me")
    assert r.status_code == 401 and r.json()["code"] == "invalid_token"


def test_a_deactivated_user_is_refused_at_once(api, host):
    from django.contrib.auth import get_user_model

    assert api.as_(host).get("/api/v1/accounts/me").status_code == 200
    user = get_user_model().objects.get(id=host.id)
    user.is_active = False
    user.save()
    assert api.as_(host).get("/api/v1/accounts/me").status_code == 401


def test_malformed_json_is_still_400(api, host):
    r = api.as_(host).client.post("/api/v1/games", b'{"ruleset": NaN', content_type="application/json")
    assert r.status_code == 400 and r.json()["code"] == "malformed_json"
