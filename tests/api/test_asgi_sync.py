"""Ordinary requests under ASGI (api/asgi_sync.py): one trip to the web threads
per request; the response is closed there (request_finished in the thread that
ran the view and holds its database connection) and goes out as one start and
one body message; a streaming response is still sent chunk by chunk and closed
afterwards."""

import asyncio
import json
import threading

import pytest
from asgiref.testing import ApplicationCommunicator
from django.core.signals import request_finished
from django.http import StreamingHttpResponse

from api import asgi_sync
from config.asgi import django_application

pytestmark = pytest.mark.django_db(transaction=True)


def _scope(path: str) -> dict:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 1234),
        "server": ("testserver", 80),
    }


async def _exchange(path: str) -> list[dict]:
    async def app(scope, receive, send):
        await asgi_sync.serve(django_application, scope, receive, send)

    comm = ApplicationCommunicator(app, _scope(path))
    await comm.send_input({"type": "http.request", "body": b"", "more_body": False})
    await comm.wait(10)
    out = []
    while not comm.output_queue.empty():
        out.append(await comm.receive_output(1))
    return out


@pytest.fixture
def trips(monkeypatch):
    """Calls into the web threads, and where request_finished ran."""
    seen = {"submitted": 0, "finished_in": []}
    pool = asgi_sync.pool("web")
    real = pool.submit

    def counting(fn, *args, **kwargs):
        seen["submitted"] += 1
        return real(fn, *args, **kwargs)

    def finished(**_kwargs):
        seen["finished_in"].append(threading.current_thread().name)

    monkeypatch.setattr(pool, "submit", counting)
    request_finished.connect(finished)
    yield seen
    request_finished.disconnect(finished)


def test_an_ordinary_response_takes_one_trip_and_is_closed_in_its_thread(trips):
    messages = asyncio.run(_exchange("/api/v1/rulesets"))
    start, body = messages
    assert start["type"] == "http.response.start" and start["status"] == 200
    assert (b"content-type", b"application/json") in [(k.lower(), v) for k, v in start["headers"]]
    assert body["type"] == "http.response.body" and not body.get("more_body")
    assert json.loads(body["body"])  # the whole body in one message
    assert trips["submitted"] == 1
    assert len(trips["finished_in"]) == 1 and trips["finished_in"][0].startswith("web")


def test_a_streaming_response_is_sent_in_chunks_then_closed(trips, monkeypatch):
    async def chunks():
        for chunk in (b"one,", b"two"):
            yield chunk

    def streaming(django_app, scope, body_file):
        response = StreamingHttpResponse(chunks())
        response._handler_class = type(django_app)
        return response

    monkeypatch.setattr(asgi_sync, "_respond", streaming)
    messages = asyncio.run(_exchange("/anything"))
    assert b"".join(m.get("body", b"") for m in messages[1:]) == b"one,two"
    assert trips["submitted"] == 2  # the response, then its close
    assert len(trips["finished_in"]) == 1
