"""Issue 31: a revoked token answers 401 on the very next request, on every
process. Another process is simulated by warming this process's caches and
then revoking behind its back (a raw SQL delete, as another process's delete
would look from here: no signal reaches this process)."""

from __future__ import annotations

import pytest
from django.db import connection
from knox.models import AuthToken

from tests.conftest import Api, register

pytestmark = pytest.mark.django_db
ME = "/api/v1/accounts/me"


def warm(api: Api) -> None:
    for _ in range(3):
        assert api.get(ME).status_code == 200


def delete_behind_our_back(sql: str, *params) -> None:
    with connection.cursor() as cur:
        cur.execute(sql, params)


def test_a_token_revoked_by_another_process_is_refused_at_once():
    user = register("warmcache")
    api = Api(user.token)
    warm(api)
    digest = AuthToken.objects.get(user_id=user.id).digest
    delete_behind_our_back("DELETE FROM accounts_tokeninfo WHERE token_id = %s", digest)
    delete_behind_our_back("DELETE FROM knox_authtoken WHERE digest = %s", digest)
    r = api.get(ME)
    assert r.status_code == 401 and r.json()["code"] == "invalid_token"


def test_logout_all_elsewhere_is_refused_at_once():
    user = register("logoutall")
    api = Api(user.token)
    warm(api)
    delete_behind_our_back(
        "DELETE FROM accounts_tokeninfo WHERE token_id IN (SELECT digest FROM knox_authtoken WHERE user_id = %s)",
        user.id,
    )
    delete_behind_our_back("DELETE FROM knox_authtoken WHERE user_id = %s", user.id)
    assert api.get(ME).status_code == 401


def test_a_deactivated_account_is_refused_at_once():
    user = register("deactivated")
    api = Api(user.token)
    warm(api)
    delete_behind_our_back("UPDATE auth_user SET is_active = %s WHERE id = %s", False, user.id)
    assert api.get(ME).status_code == 401


@pytest.mark.parametrize("how", ["logout", "logout-all", "revoke", "password"])
def test_every_revocation_path_answers_401_on_the_next_request(how):
    user = register(f"rev{how.replace('-', '')}")
    api = Api(user.token)
    warm(api)
    if how == "logout":
        assert api.post("/api/v1/accounts/logout").status_code == 200
    elif how == "logout-all":
        assert api.post("/api/v1/accounts/logout-all").status_code == 200
    else:
        second = (
            Api()
            .post("/api/v1/accounts/token", {"username": user.name, "password": user.password})
            .json()["token"]
        )
        other = Api(second)
        if how == "revoke":
            token_id = next(t["id"] for t in api.get(ME).json()["tokens"] if t["current"])
            assert other.delete(f"/api/v1/accounts/me/tokens/{token_id}").status_code == 204
        else:
            r = other.post(
                "/api/v1/accounts/me/password",
                {"current_password": user.password, "new_password": "An0ther-passphrase!"},
            )
            assert r.status_code == 200
    assert api.get(ME).status_code == 401


def test_a_renamed_user_is_seen_at_once():
    user = register("beforerename")
    api = Api(user.token)
    warm(api)
    delete_behind_our_back("UPDATE auth_user SET username = %s WHERE id = %s", "afterrename", user.id)
    assert api.get(ME).json()["username"] == "afterrename"
