import dataclasses
import uuid

import pytest
from django.db import connection, transaction

from events import store
from events.codec import GENESIS_HASH, chain_hash, upcast
from events.models import AppendOnlyError, Snapshot, StoredEvent
from games.verify import Report, check_chain

pytestmark = pytest.mark.django_db


SALT = "0123456789abcdef" * 2


def ev(i=0, **kw):
    return store.NewEvent("test.Happened", {"i": i, "text": "ümlaut"}, **kw)


def test_append_numbers_and_chains_events():
    s = uuid.uuid4()
    rows = store.append(s, 0, [ev(1), ev(2)])
    more = store.append(s, 2, [store.NewEvent("test.Happened", {"i": 3, "salt": SALT}, visible_to=(1,))])
    assert [r.seq for r in rows + more] == [1, 2, 3]
    assert rows[0].prev_hash == GENESIS_HASH and more[0].prev_hash == rows[1].hash
    assert rows[0].hash == chain_hash(GENESIS_HASH, 1, "test.Happened", 1, {"i": 1, "text": "ümlaut"})
    assert more[0].visible_to == [1]
    assert store.head(s) == (3, more[0].hash)
    loaded = [
        dict(seq=r.seq, type=r.type, version=r.version, payload=r.payload, prev_hash=r.prev_hash, hash=r.hash)
        for r in store.load(s)
    ]
    report = Report()
    check_chain(loaded, report)
    assert report.chain_ok and report.chain_head == more[0].hash


@pytest.mark.parametrize(
    "payload, problem",
    [
        ({"i": 1}, "without payload.salt"),
        ({"i": 1, "salt": None}, "without payload.salt"),
        ({"i": 1, "salt": "0123456789ABCDEF" * 2}, "32 lowercase hex"),
        ({"i": 1, "salt": "0123456789abcdef"}, "32 lowercase hex"),
        ({"i": 1, "salt": 12345}, "32 lowercase hex"),
        ({"i": 1, "salt": SALT + "\n"}, "32 lowercase hex"),
    ],
)
def test_a_private_event_without_a_valid_salt_is_refused_and_nothing_is_written(payload, problem):
    s = uuid.uuid4()
    store.append(s, 0, [ev(0)])
    with pytest.raises(store.UnsaltedPrivateEvent, match=problem) as exc:
        store.append(s, 1, [ev(1), store.NewEvent("test.Secret", payload, visible_to=(0,))])
    assert (exc.value.seq, exc.value.type) == (3, "test.Secret")
    assert StoredEvent.objects.filter(stream=s).count() == 1 and store.head(s)[0] == 1


def test_a_salt_repeated_within_a_batch_is_refused():
    s = uuid.uuid4()
    twice = [store.NewEvent("test.Secret", {"i": i, "salt": SALT}, visible_to=(i,)) for i in (0, 1)]
    with pytest.raises(store.UnsaltedPrivateEvent, match="repeats"):
        store.append(s, 0, twice)
    assert not StoredEvent.objects.filter(stream=s).exists()


def test_public_events_need_no_salt():
    s = uuid.uuid4()
    assert len(store.append(s, 0, [ev(1), store.NewEvent("test.Public", {"salt": "not hex"})])) == 2


def test_stale_expected_version_conflicts_and_writes_nothing():
    s = uuid.uuid4()
    store.append(s, 0, [ev()])
    with pytest.raises(store.VersionConflict) as exc:
        store.append(s, 0, [ev(), ev()])
    assert exc.value.current == 1 and StoredEvent.objects.filter(stream=s).count() == 1


def test_streams_are_independent():
    a, b = uuid.uuid4(), uuid.uuid4()
    store.append(a, 0, [ev()])
    store.append(b, 0, [ev()])
    assert store.head(a)[0] == store.head(b)[0] == 1


def test_model_refuses_update_and_delete():
    s = uuid.uuid4()
    recorded = store.append(s, 0, [ev()])[0]
    with pytest.raises(dataclasses.FrozenInstanceError):  # what append returns is a value, not a row
        recorded.payload = {"i": 99}
    row = store.load(s)[0]
    assert (row.seq, row.hash, row.payload) == (recorded.seq, recorded.hash, recorded.payload)
    row.payload = {"i": 99}
    with pytest.raises(AppendOnlyError):
        row.save()
    with pytest.raises(AppendOnlyError):
        row.delete()
    with pytest.raises(AppendOnlyError):
        StoredEvent.objects.filter(stream=s).update(type="x")
    with pytest.raises(AppendOnlyError):
        StoredEvent.objects.filter(stream=s).delete()


@pytest.mark.postgres
def test_postgres_trigger_refuses_update_and_delete():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL=postgres://...)")
    from django.db import DatabaseError, transaction

    s = uuid.uuid4()
    store.append(s, 0, [ev()])
    for sql in (
        "UPDATE events_storedevent SET type = 'x' WHERE stream = %s",
        "DELETE FROM events_storedevent WHERE stream = %s",
    ):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            with connection.cursor() as c:
                c.execute(sql, [s])
    assert StoredEvent.objects.filter(stream=s, type="test.Happened").count() == 1


def test_tampering_breaks_the_chain():
    rows = [dict(seq=1, type="a", version=1, payload={"x": 1}, prev_hash=GENESIS_HASH)]
    rows[0]["hash"] = chain_hash(GENESIS_HASH, 1, "a", 1, {"x": 1})
    good, bad = Report(), Report()
    check_chain(rows, good)
    assert good.chain_ok and good.chain_head == rows[0]["hash"] and good.first_bad_seq is None
    check_chain([dict(rows[0], payload={"x": 2})], bad)
    assert bad.chain_ok is False and bad.first_bad_seq == 1


def test_upcasters_chain_versions():
    ups = {("t", 1): lambda p: {**p, "b": 0}, ("t", 2): lambda p: {"c": p["a"] + p["b"]}}
    assert upcast("t", 1, {"a": 5}, ups) == (3, {"c": 5})
    assert upcast("t", 3, {"c": 1}, ups) == (3, {"c": 1})


def test_snapshots_roundtrip_and_pick_latest_below_target():
    s = uuid.uuid4()
    store.save_snapshot(s, 10, 1, {"v": 10})
    store.save_snapshot(s, 20, 1, {"v": 20})
    store.save_snapshot(s, 20, 1, {"v": 20})  # a racing twin is ignored
    assert store.latest_snapshot(s, 1) == (20, {"v": 20})
    assert store.latest_snapshot(s, 1, upto=15) == (10, {"v": 10})
    assert store.latest_snapshot(s, 2) is None and Snapshot.objects.count() == 2


def _batch(stream, expected_version, events, prev_hash=None, last_write=False) -> store.Batch:
    """A batch with a row of the caller's that depends on the events (as the game
    row's version and chain head do): a snapshot row at the batch's version."""
    batch = store.Batch.after(stream, expected_version, events, prev_hash)
    batch.inserts.append(Snapshot(stream=stream, version=batch.version, rules_version=7, state=b""))
    batch.last_write = last_write
    return batch


def test_a_batch_writes_its_rows_update_and_snapshot_with_the_events():
    s = uuid.uuid4()
    batch = _batch(s, 0, [ev(), ev(1)])
    assert [row.seq for row in batch.rows] == [1, 2] and batch.version == 2  # hashed before any write
    assert not StoredEvent.objects.filter(stream=s).exists()
    assert store.write(batch) == batch.rows
    assert list(Snapshot.objects.filter(stream=s).values_list("version", "rules_version")) == [(2, 7)]
    assert [(r.seq, r.hash) for r in store.load(s)] == [(r.seq, r.hash) for r in batch.rows]

    row = Snapshot.objects.get(stream=s)
    row.rules_version = 8
    later = store.Batch.after(s, 2, [ev(2)], prev_hash=batch.head)
    later.update = store.RowUpdate(row, ["rules_version"])
    later.snapshot = store.SnapshotOf(9, {"folded": 3})
    store.write(later)
    assert store.latest_snapshot(s, 9) == (3, {"folded": 3})
    assert Snapshot.objects.get(id=row.id).rules_version == 8


def test_a_snapshot_written_twice_is_kept_once():
    """Another process may have written the same snapshot (it is the same state)."""
    s = uuid.uuid4()
    store.save_snapshot(s, 1, 9, {"v": 1})
    batch = store.Batch.after(s, 0, [ev()])
    batch.snapshot = store.SnapshotOf(9, {"v": "twin"})
    store.write(batch)
    assert store.latest_snapshot(s, 9) == (1, {"v": 1}) and store.head(s)[0] == 1


@pytest.mark.django_db(transaction=True)
def test_a_conflict_stops_the_rest_of_the_batch_with_the_events():
    s = uuid.uuid4()
    store.append(s, 0, [ev()])
    stale = _batch(s, 0, [ev()], prev_hash=GENESIS_HASH)  # a writer that read version 0
    with pytest.raises(store.VersionConflict), transaction.atomic():
        store.write(stale)
    with pytest.raises(store.VersionConflict):  # one that reads the head is refused before any write
        store.Batch.after(s, 0, [ev()])
    assert StoredEvent.objects.filter(stream=s).count() == 1
    assert not Snapshot.objects.filter(stream=s).exists()
