"""Rate limits a header cannot defeat (issue 10 item 3): X-Forwarded-For is
trusted only behind NUM_PROXIES proxies; the account-security limits count in
a cache every web process shares; failed token requests are limited per account."""

from __future__ import annotations

import os
import time
import uuid

import pytest
import time_machine
from django.core.cache import caches
from django.core.cache.backends.db import DatabaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from rest_framework.throttling import SimpleRateThrottle

from api.throttles import FailedLogins
from tests.conftest import Api, register

pytestmark = pytest.mark.django_db
REG, TOKEN = "/api/v1/accounts/register", "/api/v1/accounts/token"
PASSWORD = "Xq9!mountain-river"


def fresh_ip(i: int) -> dict:
    return {"HTTP_X_FORWARDED_FOR": f"203.0.113.{i}", "REMOTE_ADDR": "198.51.100.7"}


def test_a_fresh_forwarded_for_per_request_does_not_bypass_the_register_limit(api, rates):
    rates(register="2/hour")
    codes = [
        api.post(REG, {"username": f"xff{i}", "password": PASSWORD}, **fresh_ip(i)).status_code
        for i in range(4)
    ]
    assert codes == [201, 201, 429, 429]


def test_a_fresh_forwarded_for_per_request_does_not_bypass_the_token_limit(api, rates):
    user = register("guessed")
    rates(register="3/hour")
    codes = [
        api.post(TOKEN, {"username": user.name, "password": f"guess-{i}"}, **fresh_ip(i)).status_code
        for i in range(5)
    ]
    assert codes == [401, 401, 401, 429, 429]


def test_forwarded_for_is_trusted_only_as_many_hops_as_num_proxies(api, rates, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    rates(register="1/hour")
    # behind one proxy of ours the client is the rightmost address; what the client
    # itself wrote to the left of it changes nothing
    spoofed = [
        api.post(
            REG, {"username": f"px{i}", "password": PASSWORD}, HTTP_X_FORWARDED_FOR=f"10.0.0.{i}, 203.0.113.9"
        ).status_code
        for i in range(2)
    ]
    other = api.post(REG, {"username": "px9", "password": PASSWORD}, HTTP_X_FORWARDED_FOR="203.0.113.10")
    assert spoofed == [201, 429] and other.status_code == 201


def test_failed_logins_are_limited_per_account_whatever_the_address(api, rates):
    victim, bystander = register("victim"), register("bystander")
    rates(failures="3/hour")
    wrong = [
        api.post(TOKEN, {"username": victim.name, "password": f"nope-{i}"}, **fresh_ip(i)).status_code
        for i in range(3)
    ]
    assert wrong == [401, 401, 401]
    # now even the right password is refused for this account, from anywhere...
    r = api.post(TOKEN, {"username": victim.name.upper(), "password": victim.password}, **fresh_ip(50))
    r2 = api.post(TOKEN, {"username": victim.name, "password": victim.password}, **fresh_ip(51))
    assert r.status_code == r2.status_code == 429
    body = r2.json()
    assert body["code"] == "too_many_failed_logins" and "too many failed logins" in body["detail"]
    assert 0 < int(r2.headers["Retry-After"]) <= 3600 and body["retry_after"] == int(
        r2.headers["Retry-After"]
    )
    # ...tokens already issued still work, and other accounts are not affected
    assert Api(victim.token).get("/api/v1/accounts/me").status_code == 200
    assert api.post(TOKEN, {"username": bystander.name, "password": bystander.password}).status_code == 200
    # an hour later the failures have left the window
    with time_machine.travel(time.time() + 3601, tick=False):
        assert api.post(TOKEN, {"username": victim.name, "password": victim.password}).status_code == 200


def test_a_successful_login_clears_the_failure_count(api, rates):
    user = register("forgetful")
    rates(failures="3/hour")
    for _ in range(2):
        assert api.post(TOKEN, {"username": user.name, "password": "wrong"}).status_code == 401
    assert api.post(TOKEN, {"username": user.name, "password": user.password}).status_code == 200
    for _ in range(2):
        assert api.post(TOKEN, {"username": user.name, "password": "wrong"}).status_code == 401
    assert api.post(TOKEN, {"username": user.name, "password": user.password}).status_code == 200


def test_unknown_accounts_are_limited_like_real_ones(api, rates):
    rates(failures="2/hour")
    codes = [api.post(TOKEN, {"username": "nobody-here", "password": "x"}).status_code for _ in range(3)]
    assert codes == [401, 401, 429]


def test_the_throttle_cache_is_shared_and_survives_a_restart(api, rates, settings):
    """Another process (or this one after a restart) opens its own cache client:
    the counters are in the database (or Redis), not in process memory."""
    user = register("counted")
    rates(failures="2/hour")
    for _ in range(2):
        api.post(TOKEN, {"username": user.name, "password": "wrong"})
    other_process = caches.create_connection("throttle")
    assert other_process is not caches["throttle"]
    assert len(other_process.get(FailedLogins(user.name).key)) == 2


@pytest.mark.parametrize("redis", [False, True])
def test_the_configured_throttle_cache_is_never_per_process(redis, monkeypatch):
    """config/settings.py: a database table on the embedded default, Redis with REDIS_URL."""
    import importlib

    import config.settings as conf

    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0" if redis else "")
    try:
        fresh = importlib.reload(conf)
        backend = fresh.CACHES["throttle"]["BACKEND"]
        assert fresh.REST_FRAMEWORK["NUM_PROXIES"] == 0
    finally:
        monkeypatch.undo()
        importlib.reload(conf)
    from django.utils.module_loading import import_string

    cls = import_string(backend)  # config.cache.SharedPoolRedisCache with Redis (one pool per process)
    assert issubclass(cls, RedisCache if redis else DatabaseCache) and not issubclass(cls, LocMemCache)


@pytest.mark.parametrize("backend", ["locmem", "redis"])
def test_the_per_user_limit_counts_requests_in_a_sliding_window(api, settings, monkeypatch, backend):
    """api.throttles.UserRateThrottle: N requests a minute, then 429 + Retry-After
    until the previous minute's weight has drained; counted, not logged."""
    if backend == "redis":
        url = os.environ.get("REDIS_URL")
        if not url:
            pytest.skip("needs REDIS_URL")
        cache = {
            "BACKEND": "config.cache.SharedPoolRedisCache",
            "LOCATION": url,
            "KEY_PREFIX": uuid.uuid4().hex,
        }
    else:
        cache = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": uuid.uuid4().hex}
    settings.CACHES = {**settings.CACHES, "default": cache}
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "user", "5/min")
    with time_machine.travel(1_800_000_000.0 + 10, tick=False) as clock:  # 10 s into a minute
        who = register("counted-user")
        codes = [api.as_(who).get("/api/v1/accounts/me").status_code for _ in range(6)]
        assert codes == [200] * 5 + [429]
        refused = api.as_(who).get("/api/v1/accounts/me")
        assert refused.json()["code"] == "rate_limited" and 0 < int(refused["Retry-After"]) <= 50
        assert api.as_(register("someone-else")).get("/api/v1/accounts/me").status_code == 200
        clock.move_to(1_800_000_000.0 + 60 + 55)  # next minute, the last one mostly gone
        assert api.as_(who).get("/api/v1/accounts/me").status_code == 200
