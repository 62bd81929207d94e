"""Read queries compiled once instead of per request (`Prepared`).

Building and compiling a queryset is most of what a simple ORM read costs:
`Game.objects.get(id=...)` measured ~580 us of CPU, the same SELECT through a
cursor ~105 us, and the seats with their users and profiles ~1 ms against
~60 us (PostgreSQL, 2026-11-26). Every API request makes two to six such reads,
so they were about 40% of the server's CPU per request (docs/benchmarks.md).

Why, with the measurements and history: docs/modules.md, `events/prepared.py`.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from typing import Any, Literal

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.query import get_related_populators
from django.db.models.sql.compiler import SQLCompiler

_UUID = models.UUIDField()


def _prep(value: Any, connection: BaseDatabaseWrapper) -> Any:
    """A parameter as the ORM binds it (a UUID is text on SQLite)."""
    if isinstance(value, uuid.UUID):
        return _UUID.get_db_prep_value(value, connection)
    return value


class _Plan:
    """A compiled shape: its SQL and what turns its rows into model instances. One
    per database connection (so per thread): Django's converters are bound to the
    connection the query was compiled on."""

    def __init__(
        self,
        compiler: SQLCompiler,
        sql: str,
        connection: BaseDatabaseWrapper,
        slots: list[tuple[int, type[int] | None]],
    ) -> None:
        self.sql = sql
        # per parameter of the SQL: which value it is, and the int type the ORM
        # wrapped it in (psycopg's Int4 & co.), so it binds exactly as the ORM's
        self.slots = slots
        self.connection = connection  # held: its converters belong to it
        select, klass_info = compiler.select, compiler.klass_info
        self.model = klass_info["model"]
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.init_list = [f[0].target.attname for f in select[self.start : self.end]]
        self.converters = compiler.get_converters([s[0] for s in select])
        # django-stubs 6 describe Django 6's signature (a fetch_mode more); this is Django 5.2's
        self.populators = get_related_populators(klass_info, select, connection.alias)  # type: ignore[call-arg]

    def bind(self, prepped: list[Any]) -> list[Any]:
        return [wrap(prepped[j]) if wrap is not None else prepped[j] for j, wrap in self.slots]

    def instances(self, rows: list[Any], connection: BaseDatabaseWrapper) -> list[Any]:
        db = connection.alias
        populators = self.populators
        out = []
        for row in rows:
            if self.converters:
                row = list(row)
                for pos, (convs, expression) in self.converters.items():
                    value = row[pos]
                    for convert in convs:
                        value = convert(value, expression, connection)
                    row[pos] = value
            obj = self.model.from_db(db, self.init_list, row[self.start : self.end])
            for populator in populators:
                populator.populate(row, obj)
            out.append(obj)
        return out


class Prepared:
    """`Prepared(lambda a, b: Model.objects.filter(x=a, y=b))(a, b) -> [instances]`."""

    def __init__(self, build: Callable[..., models.QuerySet[Any]]) -> None:
        self.build = build
        self._plans: dict[int, _Plan | None] = {}
        self._lock = threading.Lock()

    def __call__(self, *values: Any) -> list[Any]:
        """The instances the queryset built from `values` would give, in its order."""
        connection = connections[DEFAULT_DB_ALIAS]
        plan = self.plan(values, connection)
        if plan is None:  # not compiled (yet): the ORM's way
            return list(self.build(*values))
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, plan.bind([_prep(v, connection) for v in values]))
            rows = cursor.fetchall()
        return plan.instances(rows, connection)

    def plan(self, values: tuple[Any, ...], connection: BaseDatabaseWrapper) -> _Plan | None:
        """The compiled shape for this connection, or None where the ORM must run it."""
        if id(connection) in self._plans:
            return self._plans[id(connection)]
        plan = self._compile(values, connection)
        return plan or None

    def _compile(
        self, values: tuple[Any, ...], connection: BaseDatabaseWrapper
    ) -> _Plan | None | Literal[False]:
        """Compile the shape, or None when its parameters cannot be told from its
        values (never again), or False when two equal values make the order
        ambiguous this time (try again with the next call's values)."""
        qs = self.build(*values)
        compiler = qs.query.get_compiler(using=qs.db)
        sql, params = compiler.as_sql()
        prepped = [_prep(v, connection) for v in values]
        slots: list[tuple[int, type[int] | None]] = []
        plan: _Plan | None = None
        for param in params:  # the ORM may order the WHERE clause unlike the values
            found = [j for j, v in enumerate(prepped) if v == param and type(v) is not bool]
            if not found:
                break
            if len(found) > 1:
                return False
            slots.append((found[0], type(param) if isinstance(param, int) else None))
        else:
            plan = _Plan(compiler, sql, connection, slots)
        with self._lock:
            self._plans[id(connection)] = plan  # the plan holds the connection: ids stay unique
        return plan


def together(*reads: tuple[Prepared, tuple[Any, ...]]) -> list[list[Any]]:
    """Several reads, `(prepared, values)` each, in one round trip: on PostgreSQL
    their statements go out in one pipeline and the rows of all come back at once
    (a request that needs the game and its seats waits for the database once, not
    twice). Elsewhere, or while a shape is not compiled, one after the other."""
    connection = connections[DEFAULT_DB_ALIAS]
    found = [query.plan(values, connection) for query, values in reads]
    plans = [plan for plan in found if plan is not None]
    if connection.vendor != "postgresql" or len(plans) < len(found):
        return [query(*values) for query, values in reads]
    connection.ensure_connection()
    cursors = [connection.cursor() for _ in reads]
    try:
        with connection.wrap_database_errors, connection.connection.pipeline():
            for cursor, plan, (_query, values) in zip(cursors, plans, reads, strict=True):
                cursor.execute(plan.sql, plan.bind([_prep(v, connection) for v in values]))
        return [
            plan.instances(cursor.fetchall(), connection) for cursor, plan in zip(cursors, plans, strict=True)
        ]
    finally:
        for cursor in cursors:
            cursor.close()
