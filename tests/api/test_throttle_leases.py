"""The per-user / per-address limits count hits ahead (api.throttles, leases):
far fewer round trips to the shared counter, never more hits let through than
the limit, however many processes share it."""

from __future__ import annotations

import random
import uuid
from types import SimpleNamespace

import pytest
import time_machine
from rest_framework.throttling import SimpleRateThrottle

from api import throttles
from tests.conftest import register

pytestmark = pytest.mark.django_db
T0 = 1_800_000_000.0 + 5  # 5 s into a minute


@pytest.fixture
def counted(monkeypatch):
    """Round trips to the shared counter."""
    calls = []
    real = throttles._count

    def counting(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(throttles, "_count", counting)
    return calls


@pytest.fixture
def limit(monkeypatch, settings):
    settings.CACHES = {
        **settings.CACHES,
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": uuid.uuid4().hex},
    }

    def set_(rate: str) -> None:
        monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "user", rate)

    return set_


def test_one_process_lets_exactly_the_limit_through_in_few_round_trips(api, limit, counted):
    limit("100/min")
    with time_machine.travel(T0, tick=False):
        who = api.as_(register("leased"))
        codes = [who.get("/api/v1/accounts/me").status_code for _ in range(101)]
    assert codes == [200] * 100 + [429]
    assert len(counted) < 40, f"{len(counted)} round trips for 101 requests"


def test_small_limits_count_every_hit(api, limit, counted):
    limit("5/min")
    with time_machine.travel(T0, tick=False):
        who = api.as_(register("exact"))
        codes = [who.get("/api/v1/accounts/me").status_code for _ in range(6)]
    assert codes == [200] * 5 + [429]
    assert len(counted) == 6  # an eighth of what is left is less than one hit: no lease


def _throttle() -> throttles.UserRateThrottle:
    return throttles.UserRateThrottle()


def test_processes_sharing_the_counter_never_let_more_than_the_limit_through(limit, monkeypatch):
    limit("200/min")
    processes = [throttles._Leases() for _ in range(3)]
    request = SimpleNamespace(user=SimpleNamespace(is_authenticated=True, pk=41))
    rng = random.Random(7)
    allowed = 0
    with time_machine.travel(T0, tick=False):
        for _ in range(400):  # the client's requests land on any of the processes
            monkeypatch.setattr(throttles, "_leases", rng.choice(processes))
            allowed += _throttle().allow_request(request, None)
    assert allowed <= 200
    # hits counted ahead and then unused (the client went elsewhere) count against it
    assert allowed >= 200 - 3 * throttles.LEASE_MAX


def test_a_lease_ends_with_its_window(limit, monkeypatch, counted):
    limit("1000/min")
    request = SimpleNamespace(user=SimpleNamespace(is_authenticated=True, pk=42))
    with time_machine.travel(T0, tick=False) as clock:
        for _ in range(3):
            assert _throttle().allow_request(request, None)
        trips = len(counted)
        assert _throttle().allow_request(request, None) and len(counted) == trips  # from the lease
        clock.move_to(T0 + 60)  # the next window: whatever was held is not used
        assert _throttle().allow_request(request, None) and len(counted) == trips + 1
