"""Sessions a user controls (issue 10 item 5): logout, logout-all, sliding token
expiry, password change revoking the other tokens, and the token listing in
/accounts/me (client name, created, last used; never the secret or its hash)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from knox.models import AuthToken

from tests.conftest import Api, register

pytestmark = pytest.mark.django_db
ME = "/api/v1/accounts/me"


def login(who, client_name=None) -> str:
    body = {"username": who.name, "password": who.password}
    if client_name is not None:
        body["client_name"] = client_name
    r = Api().post("/api/v1/accounts/token", body)
    assert r.status_code == 200, r.content
    return r.json()["token"]


def as_token(token: str) -> Api:
    return Api(token)


def test_logout_revokes_only_the_token_used(host):
    phone, laptop = login(host, "phone"), login(host, "laptop")
    r = as_token(phone).post("/api/v1/accounts/logout")
    assert r.status_code == 200 and r.json() == {"revoked": 1}
    gone = as_token(phone).get(ME)
    assert gone.status_code == 401 and gone.json()["code"] == "invalid_token"
    assert as_token(laptop).get(ME).status_code == 200
    assert as_token(host.token).get(ME).status_code == 200


def test_logout_all_revokes_every_token(host, player):
    extra = login(host)
    r = as_token(extra).post("/api/v1/accounts/logout-all")
    assert r.status_code == 200 and r.json() == {"revoked": 2}
    assert as_token(extra).get(ME).status_code == 401
    assert as_token(host.token).get(ME).status_code == 401
    assert as_token(player.token).get(ME).status_code == 200  # other users untouched
    assert Api().post("/api/v1/accounts/logout").status_code == 401


def test_tokens_expire_30_days_after_their_last_use(host, time_machine):
    row = AuthToken.objects.get(user_id=host.id)
    assert abs((row.expiry - timezone.now()) - dt.timedelta(days=30)) < dt.timedelta(minutes=1)
    time_machine.move_to(timezone.now() + dt.timedelta(days=20), tick=False)
    assert as_token(host.token).get(ME).status_code == 200  # used on day 20: slides to day 50
    row.refresh_from_db()
    assert row.expiry > timezone.now() + dt.timedelta(days=29)
    time_machine.move_to(timezone.now() + dt.timedelta(days=29), tick=False)
    assert as_token(host.token).get(ME).status_code == 200  # day 49: still alive
    time_machine.move_to(timezone.now() + dt.timedelta(days=31), tick=False)
    r = as_token(host.token).get(ME)
    assert r.status_code == 401 and r.json()["code"] == "invalid_token"
    assert not AuthToken.objects.filter(user_id=host.id).exists()


def test_the_ttl_is_a_setting(db, settings):
    settings.REST_KNOX = {**settings.REST_KNOX, "TOKEN_TTL": dt.timedelta(days=2)}
    who = register("shortlived")
    row = AuthToken.objects.get(user_id=who.id)
    assert abs((row.expiry - timezone.now()) - dt.timedelta(days=2)) < dt.timedelta(minutes=1)


def test_me_lists_tokens_without_secrets(host, time_machine):
    cli = login(host, "sengoku-cli 1.0")
    time_machine.move_to(timezone.now() + dt.timedelta(minutes=5), tick=False)
    r = as_token(cli).get(ME)
    assert r.status_code == 200
    tokens = r.json()["tokens"]
    assert [t["client_name"] for t in tokens] == ["sengoku-cli 1.0", ""]
    assert [t["current"] for t in tokens] == [True, False]
    assert set(tokens[0]) == {"id", "client_name", "created_at", "last_used_at", "expires_at", "current"}
    assert tokens[0]["last_used_at"] is not None and tokens[1]["last_used_at"] is None
    text = r.content.decode()
    for row in AuthToken.objects.filter(user_id=host.id):
        assert row.digest not in text and row.token_key not in text
    assert cli not in text and host.token not in text and cli[:8] not in text


def test_register_accepts_a_client_name(db):
    r = Api().post(
        "/api/v1/accounts/register",
        {"username": "named", "password": "Xq9!mountain-river", "client_name": "web"},
    )
    assert r.status_code == 201
    me = as_token(r.json()["token"]).get(ME).json()
    assert me["tokens"][0]["client_name"] == "web"
    long = Api().post(
        "/api/v1/accounts/token",
        {"username": "named", "password": "Xq9!mountain-river", "client_name": "x" * 101},
    )
    assert long.status_code == 400 and "client_name" in long.json()["fields"]


def test_revoke_one_token_by_id(host, player):
    other = login(host, "old tablet")
    tokens = as_token(host.token).get(ME).json()["tokens"]
    tablet = next(t for t in tokens if t["client_name"] == "old tablet")
    assert as_token(player.token).delete(f"{ME}/tokens/{tablet['id']}").status_code == 404  # not theirs
    assert as_token(other).get(ME).status_code == 200
    assert as_token(host.token).delete(f"{ME}/tokens/{tablet['id']}").status_code == 204
    assert as_token(other).get(ME).status_code == 401
    r = as_token(host.token).delete(f"{ME}/tokens/{tablet['id']}")
    assert r.status_code == 404 and r.json()["code"] == "token_not_found"


def test_password_change_revokes_the_other_tokens(host):
    other = login(host, "phone")
    api = as_token(host.token)
    bad = api.post(f"{ME}/password", {"current_password": "nope", "new_password": "An0ther!long-phrase"})
    assert bad.status_code == 400 and bad.json()["code"] == "wrong_password"
    weak = api.post(f"{ME}/password", {"current_password": host.password, "new_password": "password"})
    assert weak.status_code == 400 and weak.json()["code"] == "weak_password"
    assert as_token(other).get(ME).status_code == 200  # failures changed nothing
    ok = api.post(
        f"{ME}/password", {"current_password": host.password, "new_password": "An0ther!long-phrase"}
    )
    assert ok.status_code == 200 and ok.json() == {"revoked": 1}
    assert as_token(other).get(ME).status_code == 401
    assert api.get(ME).status_code == 200
    old = Api().post("/api/v1/accounts/token", {"username": "hana", "password": host.password})
    assert old.status_code == 401
    new = Api().post("/api/v1/accounts/token", {"username": "hana", "password": "An0ther!long-phrase"})
    assert new.status_code == 200


def test_password_change_bad_bodies_are_400(host):
    api = as_token(host.token)
    for body in ({}, {"current_password": host.password}, {"current_password": 1.5, "new_password": ["x"]}):
        r = api.post(f"{ME}/password", body)
        assert r.status_code == 400 and r.json()["code"] == "invalid"
