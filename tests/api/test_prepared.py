"""games/services/prepared.py: the hot reads, compiled once, give exactly what
the ORM gives (fields, types, related objects), one query each, in the open
transaction; a shape whose parameters are not its values runs through the ORM."""

import uuid

import psycopg
import pytest
from django.db import connection, transaction

from accounts.models import Profile
from events import store as events_store
from events.models import StoredEvent
from games.models import Game, Seat
from games.services import prepared
from games.services.prepared import Prepared

pytestmark = pytest.mark.django_db


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_game_and_seats_equal_the_orm(running_game, django_assert_num_queries):
    gid = uuid.UUID(running_game["id"])
    orm = Game.objects.get(id=gid)
    for _ in range(2):  # compiled on the first call, bound on the second
        with django_assert_num_queries(1):
            got = prepared.game(gid)
        assert type(got) is Game and _fields(got) == _fields(orm) and not got._state.adding
        with django_assert_num_queries(1):
            seats = prepared.seats(orm)
        assert [_fields(s) for s in seats] == [_fields(s) for s in Seat.objects.filter(game_id=gid)]
        assert all(s.game is orm for s in seats)
    assert prepared.game(uuid.uuid4()) is None


def test_seats_with_users_and_profiles_equal_select_related(running_game, django_assert_num_queries):
    gid = uuid.UUID(running_game["id"])
    game = Game.objects.get(id=gid)
    first, second = Seat.objects.filter(game_id=gid)[:2]
    Profile.objects.update_or_create(user_id=first.user_id, defaults={"is_bot": True})
    Profile.objects.filter(user_id=second.user_id).delete()
    orm = list(Seat.objects.filter(game_id=gid).select_related("user__profile"))
    for _ in range(2):
        with django_assert_num_queries(1):
            got = prepared.seats(game, with_users=True)
            users = [(s.user.username, getattr(s.user, "profile", None)) for s in got]
        assert users == [(s.user.username, getattr(s.user, "profile", None)) for s in orm]
        assert any(p is not None and p.is_bot for _, p in users)
        assert any(p is None for _, p in users)  # an account that never saved settings


def test_a_locked_read_joins_the_transaction(running_game):
    gid = uuid.UUID(running_game["id"])
    with transaction.atomic():
        locked = prepared.game(gid, lock=True)
        Game.objects.filter(id=gid).update(version=locked.version + 7)
        assert prepared.game(gid).version == locked.version + 7  # same connection, same transaction


def test_a_shape_whose_parameters_are_not_its_values_runs_through_the_orm(running_game):
    gid = uuid.UUID(running_game["id"])
    shifted = Prepared(lambda n: Seat.objects.filter(game_id=gid, index__gte=n + 1))
    assert [s.index for s in shifted(0)] == [1] and [s.index for s in shifted(-1)] == [0, 1]
    assert set(shifted._plans.values()) == {None}


def test_parameters_are_bound_in_the_sqls_order_not_the_values(running_game, django_assert_num_queries):
    """The ORM orders a WHERE clause its own way (here seq before stream)."""
    gid = uuid.UUID(running_game["id"])
    shape = Prepared(
        lambda stream, after: StoredEvent.objects.filter(stream=stream, seq__gt=after).order_by("seq")
    )
    for after in (0, 1, 2):
        with django_assert_num_queries(1):
            got = [e.seq for e in shape(gid, after)]
        assert got == [e.seq for e in StoredEvent.objects.filter(stream=gid, seq__gt=after).order_by("seq")]
    assert all(p is not None and p is not False for p in shape._plans.values())
    assert [e.seq for e in events_store.load(gid, after=1, limit=2)] == [2, 3]


def test_equal_values_wait_for_a_call_that_tells_them_apart(running_game):
    between = Prepared(lambda lo, hi: Seat.objects.filter(index__gte=lo, index__lte=hi))  # one game here
    assert [s.index for s in between(0, 0)] == [0]
    assert list(between._plans.values()) == []  # ambiguous: not compiled
    assert [s.index for s in between(1, 1)] == [1]
    assert [s.index for s in between(0, 1)] == [0, 1]
    assert [s.index for s in between(1, 1)] == [1]  # compiled now: the right value in each slot
    assert list(between._plans.values())[0] is not None


def test_the_game_read_with_its_seats_equals_two_reads(running_game, django_assert_num_queries):
    """prepared.game(..., seats=...): the same rows as the two reads, and later
    seats(game) calls answer from them without a query."""
    gid = uuid.UUID(running_game["id"])
    for kind in ("plain", "users", "plain"):
        got = prepared.game(gid, seats=kind)
        assert _fields(got) == _fields(Game.objects.get(id=gid))
        with django_assert_num_queries(0):
            seats = prepared.seats(got, with_users=kind == "users")
            assert all(s.game is got for s in seats)
            names = [s.user.username for s in seats] if kind == "users" else None
        if names is not None:
            assert names == [s.user.username for s in Seat.objects.filter(game_id=gid).select_related("user")]
        assert [_fields(s) for s in seats] == [_fields(s) for s in Seat.objects.filter(game_id=gid)]
    plain = prepared.game(gid, seats="plain")
    with django_assert_num_queries(1):  # plain seats do not answer for seats with users
        prepared.seats(plain, with_users=True)
    assert prepared.game(uuid.uuid4(), seats="users") is None


def test_reads_together_go_to_postgresql_in_one_pipeline(running_game):
    """events.prepared.together: both statements are sent in one pipeline (so
    the request waits for the server once), and give what the reads give apart."""
    if connection.vendor != "postgresql":
        pytest.skip("a pipeline is PostgreSQL's")
    gid = uuid.UUID(running_game["id"])
    reads = ((prepared._game, (gid,)), (prepared._seats, (gid,)))
    piped = []

    def record(execute, sql, params, many, context):
        piped.append(connection.connection.pgconn.pipeline_status == psycopg.pq.PipelineStatus.ON)
        return execute(sql, params, many, context)

    apart = [query(*values) for query, values in reads]  # compiled, too
    with connection.execute_wrapper(record):
        apart = [query(*values) for query, values in reads]
        assert piped == [False, False]
        piped.clear()
        together = prepared.together(*reads)
    assert piped == [True, True]
    assert [[_fields(x) for x in rows] for rows in together] == [[_fields(x) for x in rows] for rows in apart]
