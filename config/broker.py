"""The embedded broker (`make run` without Redis): kombu's SQLAlchemy transport
on its own SQLite file under var/, made safe for several processes.

Why not kombu's filesystem transport (the previous default): it writes each
message as a file that consumers list and read; a consumer can open a file the
producer has created but not yet written, gets an empty body, and the worker
dies with `Unrecoverable error: JSONDecodeError` (seen twice in 25 minutes of
ordinary play). A SQLite row is written in one transaction: a reader sees all
of it or nothing.

Why, with the measurements and history: docs/modules.md, `config/broker.py`.
"""

from __future__ import annotations

import datetime as dt
import threading
from json import loads
from os import PathLike
from queue import Empty
from typing import Any

from kombu.transport import TRANSPORT_ALIASES
from kombu.transport import sqlalchemy as sqla
from kombu.utils.encoding import bytes_to_str
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import OperationalError

ALIAS = "sengokusql"
VISIBILITY_SECONDS = 300


def url(path: str | PathLike[str]) -> str:
    return f"{ALIAS}+sqlite:///{path}"


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


class Channel(sqla.Channel):
    def __init__(self, connection: Any, **kwargs: Any) -> None:
        super().__init__(connection, **kwargs)  # type: ignore[no-untyped-call]  # kombu is unannotated
        self._taken: dict[str, int] = {}  # delivery tag -> hidden row id
        self._local = threading.local()  # this thread's session (see the module doc)

    @property
    def session(self) -> Any:  # a SQLAlchemy Session from kombu's untyped factory
        session = getattr(self._local, "session", None)
        if session is None:
            _engine, session_factory = self._open()
            session = self._local.session = session_factory()
        return session

    def _engine_from_config(self) -> Engine:
        engine = create_engine(self.connection.client.hostname, connect_args={"timeout": 30})
        if engine.dialect.name == "sqlite":

            @event.listens_for(engine, "connect")
            def _pragmas(dbapi_connection: Any, _record: object) -> None:
                cur = dbapi_connection.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.close()

        return engine

    def _open(self) -> Any:  # kombu's (engine, session factory)
        for attempt in range(5):
            try:
                return super()._open()  # type: ignore[no-untyped-call]  # kombu is unannotated
            except OperationalError:  # another process created the tables meanwhile
                self._engines.pop(self.connection.client.hostname, None)
                if attempt == 4:
                    raise
        raise AssertionError("unreachable")

    # kombu's SQLAlchemy channel, the superclass here, takes no timeout either
    def _get(self, queue: str) -> Any:  # type: ignore[override]
        obj = self._get_or_create(queue)  # type: ignore[no-untyped-call]  # kombu is unannotated
        message, s = self.message_cls, self.session
        cutoff = _utcnow() - dt.timedelta(seconds=VISIBILITY_SECONDS)
        # A read without a write lock first: most polls find nothing.
        waiting = (
            s.query(message.id)
            .filter(message.queue_id == obj.id)
            .filter((message.visible == True) | (message.sent_at < cutoff))  # noqa: E712 (SQL, not Python truth)
            .first()
        )
        s.commit()
        if waiting is None:
            raise Empty()
        if s.bind.dialect.name == "sqlite":
            s.execute(text("BEGIN IMMEDIATE TRANSACTION"))
        try:
            # hidden too long: its worker died before acking -- deliver it again
            lost = message.visible == False  # noqa: E712 (SQL, not Python truth)
            s.query(message).filter(message.queue_id == obj.id, lost, message.sent_at < cutoff).update(
                {"visible": True}, synchronize_session=False
            )
            msg = (
                s.query(message)
                .with_for_update()
                .filter(message.queue_id == obj.id)
                .filter(message.visible == True)  # noqa: E712
                .order_by(message.sent_at)
                .order_by(message.id)
                .limit(1)
                .first()
            )
            if msg is None:
                raise Empty()
            payload = loads(bytes_to_str(msg.payload))  # type: ignore[no-untyped-call]  # kombu is unannotated
            msg.visible = False
            msg.sent_at = _utcnow()
            tag = (payload.get("properties") or {}).get("delivery_tag")
            if tag is not None:
                self._taken[tag] = msg.id
            else:  # cannot be acked by tag: do not keep it
                s.delete(msg)
            return payload
        finally:
            s.commit()

    def _forget(self, delivery_tag: str) -> None:
        row = self._taken.pop(delivery_tag, None)
        if row is None:
            return
        try:
            self.session.query(self.message_cls).filter(self.message_cls.id == row).delete(
                synchronize_session=False
            )
            self.session.commit()
        except OperationalError:  # it becomes visible again later; tasks are retry-safe
            self.session.rollback()

    def basic_ack(self, delivery_tag: str, multiple: bool = False) -> None:
        self._forget(delivery_tag)
        super().basic_ack(delivery_tag, multiple=multiple)  # type: ignore[no-untyped-call]  # kombu is unannotated

    def basic_reject(self, delivery_tag: str, requeue: bool = False) -> None:
        self._forget(delivery_tag)  # a requeue is a new row (kombu's restore)
        super().basic_reject(delivery_tag, requeue=requeue)  # type: ignore[no-untyped-call]  # kombu is unannotated

    def _restore(self, message: Any) -> None:
        self._forget(message.delivery_tag)  # restored as a new row by kombu
        super()._restore(message)  # type: ignore[no-untyped-call]  # kombu is unannotated


class Transport(sqla.Transport):
    Channel = Channel
    polling_interval = 0.1  # seconds between polls of an empty queue


TRANSPORT_ALIASES[ALIAS] = "config.broker:Transport"
