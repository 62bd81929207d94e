"""Bad input that used to give a 500 or be misread (issue 10 item 4), one
regression test per finding; the property test (test_fuzz_schema.py) covers
the rest of the schema."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.test import RequestFactory

from api.middleware import JsonErrorsMiddleware
from api.parsers import MAX_DEPTH
from events.models import StoredEvent
from games.models import Game

pytestmark = pytest.mark.django_db
REG = "/api/v1/accounts/register"
PASSWORD = "Xq9!mountain-river"


def raw_post(client, url, body: bytes, token=None, **extra):
    if token:
        extra["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return client.generic(
        "POST", url, body, content_type=extra.pop("content_type", "application/json"), **extra
    )


def error(r, status: int, code: str | None = None) -> dict:
    assert r.status_code == status, (r.status_code, r.content[:300])
    assert r["Content-Type"].startswith("application/json")
    body = r.json()
    assert isinstance(body["detail"], str) and (code is None or body["code"] == code), body
    return body


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1000, 10000])  # 10000 objects: 60 KB, under the limit
def test_deep_json_is_400_even_unauthenticated(client, depth):
    body = error(raw_post(client, REG, b"[" * depth + b"]" * depth), 400, "malformed_json")
    assert "nested deeper than 64" in body["detail"]
    error(raw_post(client, REG, b'{"u":' * depth + b"1" + b"}" * depth), 400, "malformed_json")
    assert not get_user_model().objects.exists()


def test_json_at_the_depth_limit_is_still_read(client):
    nested = (
        b'{"username":"deep1","password":"'
        + PASSWORD.encode()
        + b'","email":"",'
        + b'"x":'
        + b"[" * (MAX_DEPTH - 1)
        + b"]" * (MAX_DEPTH - 1)
        + b"}"
    )
    body = error(raw_post(client, REG, nested), 400, "invalid")  # read, then refused as an unknown field
    assert body["fields"] == {"x": ["unknown field"]}
    # brackets inside strings do not count
    ok = raw_post(client, REG, b'{"username":"deep2","password":"' + PASSWORD.encode() + b"[[[[" * 40 + b'"}')
    assert ok.status_code == 201, ok.content


def test_a_lone_surrogate_in_a_command_is_400_and_writes_nothing(client, host, running_game):
    before = StoredEvent.objects.count()
    r = raw_post(
        client, f"/api/v1/games/{running_game['id']}/commands", b'{"command":{"type":"\\ud800"}}', host.token
    )
    assert "surrogate" in error(r, 400, "malformed_json")["detail"]
    assert StoredEvent.objects.count() == before


@pytest.mark.parametrize(
    "body",
    [
        b'{"username":"nul\\u0000x","password":"Xq9!mountain-river"}',
        b'{"\\u0000":1}',
        b'{"username":NaN}',
        b'{"username":1e400}',
        b'\xff{"username":"x"}',
    ],
)
def test_nul_non_finite_numbers_and_bad_utf8_are_400(client, body):
    error(raw_post(client, REG, body), 400, "malformed_json")


def test_a_charset_other_than_utf8_is_415(client):
    r = raw_post(client, REG, b'{"username":"latin"}', content_type="application/json; charset=latin-1")
    error(r, 415, "unsupported_media_type")


@pytest.mark.parametrize("query", ["ruleset=%00", "status=%00", "ruleset=toy%00auction", "%00=1"])
def test_nul_in_a_query_parameter_is_400(api, host, query):
    error(api.as_(host).get(f"/api/v1/games?{query}"), 400, "invalid")


def test_nul_in_a_header_is_400(api, host, running_game):
    r = api.as_(host).post(
        f"/api/v1/games/{running_game['id']}/commands",
        {"command": {"type": "bid", "amount": 1}},
        HTTP_IDEMPOTENCY_KEY="k\x00",
    )
    error(r, 400, "invalid")


@pytest.mark.parametrize(
    "body, field",
    [
        ({"username": 1.5, "password": PASSWORD}, "username"),
        ({"username": "numbers", "password": 12345678901234}, "password"),
        ({"username": ["a"], "password": PASSWORD}, "username"),
        ({"username": "typo", "password": PASSWORD, "emial": "x@example.org"}, "emial"),
    ],
)
def test_register_refuses_lenient_types_and_unknown_keys(api, body, field):
    r = api.post(REG, body)
    assert field in error(r, 400, "invalid")["fields"]
    assert not get_user_model().objects.filter(username__in=["1.5", "numbers", "typo"]).exists()


@pytest.mark.parametrize(
    "extra, field",
    [
        ({"time_control": {"a": 1}}, "time_control"),
        ({"time_control": {"seconds_per_decision": "60"}}, "time_control"),
        ({"players": "2"}, "players"),
        ({"players": 2.0}, "players"),
        ({"players": True}, "players"),
        ({"name": 7}, "name"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_create_game_refuses_lenient_types_and_unknown_keys(api, host, extra, field):
    r = api.as_(host).post("/api/v1/games", {"ruleset": "toy-auction", "players": 2, **extra})
    assert field in error(r, 400, "invalid")["fields"]
    assert not Game.objects.exists()


def test_me_patch_refuses_coercions_but_ignores_read_only_fields_sent_back(api, host):
    error(api.as_(host).patch("/api/v1/accounts/me", {"email_notifications": "yes"}), 400, "invalid")
    me = api.as_(host).get("/api/v1/accounts/me").json()
    r = api.as_(host).patch("/api/v1/accounts/me", {**me, "email_notifications": False})
    assert r.status_code == 200 and r.json()["email_notifications"] is False


def _chunked(body: bytes, terminated: bool):
    req = RequestFactory().generic(
        "POST", REG, b"", content_type="application/json", HTTP_TRANSFER_ENCODING="chunked"
    )
    req.META.pop("CONTENT_LENGTH", None)
    req.META["wsgi.input"] = io.BytesIO(body)  # what gunicorn hands over: the body, de-chunked
    if terminated:
        req.META["wsgi.input_terminated"] = True
    return req


def test_a_chunked_body_is_read_when_the_server_delimits_it():
    seen = {}

    def view(request):
        seen["body"] = request.body
        from django.http import JsonResponse

        return JsonResponse({})

    body = b'{"username":"chunky","password":"x"}'
    JsonErrorsMiddleware(view)(_chunked(body, terminated=True))
    assert seen["body"] == body


def test_a_chunked_body_nobody_delimits_is_411_not_read_as_empty():
    r = JsonErrorsMiddleware(lambda request: pytest.fail("reached the view"))(
        _chunked(b"{}", terminated=False)
    )
    assert r.status_code == 411 and b"length_required" in r.content


def test_an_oversized_chunked_body_is_413(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10
    r = JsonErrorsMiddleware(lambda request: pytest.fail("reached the view"))(
        _chunked(b"{" * 11, terminated=True)
    )
    assert r.status_code == 413


@pytest.mark.parametrize("meta", [{"CONTENT_LENGTH": "abc"}, {"CONTENT_LENGTH": "-5"}])
def test_a_malformed_content_length_is_json_400(client, meta):
    r = client.generic("POST", REG, b"{}", content_type="application/json", **meta)
    error(r, 400, "bad_request")


def test_djangos_own_400_for_a_bad_host_header_is_json(client):
    error(client.get("/api/v1/rulesets", HTTP_HOST="bad host!"), 400, "bad_request")


def test_too_many_query_parameters_is_json_400(api, host):
    error(api.as_(host).get("/api/v1/games?" + "&".join(f"p{i}=1" for i in range(1100))), 400, "bad_request")
