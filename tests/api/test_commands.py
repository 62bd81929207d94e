import pytest

from events.models import StoredEvent

pytestmark = pytest.mark.django_db


def url(g, tail="commands"):
    return f"/api/v1/games/{g['id']}/{tail}"


def count(g):
    return StoredEvent.objects.filter(stream=g["id"]).count()


def test_player_bids_and_gets_own_private_event(api, host, running_game):
    v = running_game["version"]
    r = api.as_(host).post(
        url(running_game), {"command": {"type": "bid", "amount": 3}, "expected_version": v}
    )
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["version"] == v + 2
    private, public = body["events"]
    assert private["payload"]["choice"] == {"amount": 3} and private["visibility"] == "private"
    assert public["type"] == "core.ChoiceCommitted" and "choice" not in public["payload"]
    assert private["cause"]["command"] == {"type": "bid", "amount": 3}


def test_outsider_cannot_submit(api, outsider, running_game):
    r = api.as_(outsider).post(url(running_game), {"command": {"type": "bid", "amount": 1}})
    assert r.status_code == 403 and r.json()["code"] == "not_seated"


def test_no_token_is_401(api, running_game):
    assert api.post(url(running_game), {"command": {"type": "bid", "amount": 1}}).status_code == 401


def test_unknown_game_is_404(api, host):
    r = api.as_(host).post(
        "/api/v1/games/0f0f0f0f-0000-0000-0000-000000000000/commands",
        {"command": {"type": "bid", "amount": 1}},
    )
    assert r.status_code == 404


def test_stale_version_is_409_with_current_version(api, host, running_game):
    before = count(running_game)
    r = api.as_(host).post(
        url(running_game), {"command": {"type": "bid", "amount": 1}, "expected_version": 1}
    )
    assert r.status_code == 409
    assert r.json() == {
        "code": "version_conflict",
        "detail": r.json()["detail"],
        "current_version": running_game["version"],
    }
    assert count(running_game) == before


@pytest.mark.parametrize(
    "body,status,code",
    [
        ({"command": {"type": "bid", "amount": 99}}, 422, "illegal_command"),
        ({"command": {"type": "keep"}}, 422, "illegal_command"),
        ({"command": {"type": "teleport"}}, 400, "invalid_command"),
        ({"command": {"type": "bid"}}, 400, "invalid_command"),
        ({"command": {"amount": 1}}, 400, "invalid_command"),
        ({"command": "bid"}, 400, "invalid_command"),
        ({}, 400, "invalid_command"),
        ({"command": {"type": "bid", "amount": 1}, "expected_version": "x"}, 400, "invalid"),
        ({"command": {"type": "bid", "amount": 1}, "extra": 1}, 400, "invalid"),
    ],
)
def test_bad_commands_are_4xx_and_write_nothing(api, host, running_game, body, status, code):
    before = count(running_game)
    r = api.as_(host).post(url(running_game), body)
    assert r.status_code == status and r.json()["code"] == code, r.content
    assert r.json()["detail"]
    assert count(running_game) == before


def test_malformed_json_and_non_object_bodies(api, host, running_game):
    r = api.as_(host).client.post(
        url(running_game), "{oops", content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {host.token}"
    )
    assert r.status_code == 400 and r.json()["code"] == "malformed_json"
    r = api.as_(host).post(url(running_game), [1, 2])
    assert r.status_code == 400


def test_oversize_body_is_413(api, host, running_game, settings):
    big = {"command": {"type": "bid", "amount": 1, "pad": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10)}}
    before = count(running_game)
    r = api.as_(host).post(url(running_game), big)
    assert r.status_code == 413 and r.json()["code"] == "request_too_large"
    assert count(running_game) == before


def test_idempotent_retry_returns_first_answer_and_appends_nothing(api, host, running_game):
    body = {"command": {"type": "bid", "amount": 2}}
    first = api.as_(host).post(url(running_game), body, HTTP_IDEMPOTENCY_KEY="k-1")
    n = count(running_game)
    again = api.as_(host).post(url(running_game), body, HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    assert count(running_game) == n
    other = api.as_(host).post(
        url(running_game), {"command": {"type": "bid", "amount": 1}}, HTTP_IDEMPOTENCY_KEY="k-1"
    )
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"


def test_finished_game_refuses_commands(api, host, player, running_game):
    from tests.api.helpers import play_to_end

    play_to_end(api, running_game, [host, player])
    r = api.as_(host).post(url(running_game), {"command": {"type": "keep"}})
    assert r.status_code == 409 and r.json()["code"] == "game_not_running"
