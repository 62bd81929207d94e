import pytest

from tests.conftest import register

pytestmark = pytest.mark.django_db
REG = "/api/v1/accounts/register"


def test_register_returns_token_that_authenticates(api):
    r = api.post(REG, {"username": "akiko", "password": "Xq9!mountain-river"})
    assert r.status_code == 201
    body = r.json()
    assert set(body) == {"id", "username", "token"}
    me = api.as_(type("P", (), {"token": body["token"]})).get("/api/v1/accounts/me")
    assert me.status_code == 200 and me.json()["username"] == "akiko"


def test_token_is_stored_hashed(api):
    from knox.models import AuthToken

    token = api.post(REG, {"username": "hashme", "password": "Xq9!mountain-river"}).json()["token"]
    row = AuthToken.objects.get()
    assert token not in (row.digest, row.token_key) and len(row.token_key) < len(token)


@pytest.mark.parametrize(
    "password,code",
    [
        ("short", "weak_password"),
        ("password123", "weak_password"),
        ("12345678901", "weak_password"),
        ("akikoakiko1", "weak_password"),
    ],
)
def test_weak_passwords_are_refused_by_django_validators(api, password, code):
    r = api.post(REG, {"username": "akikoakiko", "password": password})
    assert r.status_code == 400 and r.json()["code"] == code


def test_duplicate_username_is_409(api, host):
    r = api.post(REG, {"username": "HANA", "password": "Xq9!mountain-river"})
    assert r.status_code == 409 and r.json()["code"] == "username_taken"


@pytest.mark.parametrize(
    "body",
    [{}, {"username": "a"}, {"username": "ok-name"}, {"username": "bad name!", "password": "Xq9!mountain"}],
)
def test_invalid_registration_fields_are_400(api, body):
    r = api.post(REG, body)
    assert r.status_code == 400 and r.json()["code"] == "invalid" and "fields" in r.json()


def test_malformed_json_is_400(api):
    r = api.client.post(REG, "{not json", content_type="application/json")
    assert r.status_code == 400 and r.json()["code"] == "malformed_json"


def test_token_endpoint(api, host):
    r = api.post("/api/v1/accounts/token", {"username": "hana", "password": host.password})
    assert r.status_code == 200 and r.json()["token"]
    bad = api.post("/api/v1/accounts/token", {"username": "hana", "password": "wrong-password"})
    assert bad.status_code == 401 and bad.json()["code"] == "invalid_credentials"


def test_me_requires_a_valid_token(api):
    assert api.get("/api/v1/accounts/me").status_code == 401
    r = api.client.get("/api/v1/accounts/me", HTTP_AUTHORIZATION="Bearer nope")
    assert r.status_code == 401 and r.json()["code"] == "invalid_token"
    assert r.headers["WWW-Authenticate"].startswith("Bearer")


def test_me_patch_settings_and_secret_is_write_only(api, host):
    r = api.as_(host).patch(
        "/api/v1/accounts/me",
        {
            "email_notifications": False,
            "webhook_url": "https://example.org/hook",
            "webhook_secret": "s3cret-value",
        },
    )
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["email_notifications"] is False and body["webhook_url"] == "https://example.org/hook"
    assert "webhook_secret" not in body and body["has_webhook_secret"] is True
    assert api.as_(host).patch("/api/v1/accounts/me", {"webhook_url": "not a url"}).status_code == 400


def test_register_is_throttled(api, settings):
    # A private cache: under xdist with REDIS_URL the workers would share throttle counters.
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "throttle-test"},
        "throttle": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "sengoku_cache"},
    }
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "register": "2/hour"},
    }
    from rest_framework.throttling import ScopedRateThrottle

    old = ScopedRateThrottle.THROTTLE_RATES
    ScopedRateThrottle.THROTTLE_RATES = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    try:
        codes = [api.post(REG, {"username": f"t{i}user", "password": "Xq9!mountain-river"}) for i in range(3)]
    finally:
        ScopedRateThrottle.THROTTLE_RATES = old
    assert [c.status_code for c in codes] == [201, 201, 429]
    assert codes[2].json()["code"] == "rate_limited" and int(codes[2].headers["Retry-After"]) > 0


def test_personas_are_distinct(host, player):
    assert host.id != player.id and register("third").id not in (host.id, player.id)
