"""20 threads posting to one game at the same version: exactly one wins, the
others get 409, no seq is lost or duplicated. Real PostgreSQL only (SQLite
serializes writers, so the race cannot happen there)."""

import json
import threading

import pytest
from django.db import connection, connections

from events.models import StoredEvent
from tests.conftest import Api, create, register

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_twenty_threads_same_version_one_wins():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL=postgres://...)")
    api = Api()
    host, guest = register("host20"), register("guest20")
    g = create(api, host, options={"coins": 30})
    api.as_(guest).post(f"/api/v1/games/{g['id']}/seats", {})
    g = api.as_(host).post(f"/api/v1/games/{g['id']}/start").json()
    version = g["version"]
    barrier = threading.Barrier(20)
    results: list[int] = []
    lock = threading.Lock()

    def worker(i: int) -> None:
        try:
            who = host if i % 2 == 0 else guest
            barrier.wait()
            r = (
                Api()
                .as_(who)
                .post(
                    f"/api/v1/games/{g['id']}/commands",
                    {"command": {"type": "bid", "amount": i % 5}, "expected_version": version},
                )
            )
            with lock:
                results.append(r.status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results).count(201) == 1 and results.count(409) == 19, results
    seqs = list(StoredEvent.objects.filter(stream=g["id"]).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))


def test_idempotent_retries_racing_append_once():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL=postgres://...)")
    api = Api()
    host, guest = register("hostidem"), register("guestidem")
    g = create(api, host)
    api.as_(guest).post(f"/api/v1/games/{g['id']}/seats", {})
    api.as_(host).post(f"/api/v1/games/{g['id']}/start")
    barrier = threading.Barrier(8)
    bodies: list = []

    def worker() -> None:
        try:
            barrier.wait()
            r = (
                Api()
                .as_(host)
                .post(
                    f"/api/v1/games/{g['id']}/commands",
                    {"command": {"type": "bid", "amount": 1}},
                    HTTP_IDEMPOTENCY_KEY="same-key",
                )
            )
            bodies.append((r.status_code, r.json()))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # the same answer (PostgreSQL's jsonb may reorder keys of the stored copy)
    assert {s for s, _ in bodies} == {201} and len({json.dumps(b, sort_keys=True) for _, b in bodies}) == 1
    assert StoredEvent.objects.filter(stream=g["id"], type="toy.BidPlaced").count() == 1
