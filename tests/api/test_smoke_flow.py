import pytest


@pytest.mark.django_db
def test_full_toy_game_over_the_api(api, host, player, running_game):
    gid = running_game["id"]
    seen = 0
    for _ in range(100):
        meta = api.as_(host).get(f"/api/v1/games/{gid}").json()
        if meta["status"] == "finished":
            break
        for who in (host, player):
            legal = api.as_(who).get(f"/api/v1/games/{gid}/legal-commands").json()
            if legal["commands"]:
                r = api.as_(who).post(
                    f"/api/v1/games/{gid}/commands",
                    {"command": legal["commands"][0], "expected_version": legal["version"]},
                )
                assert r.status_code == 201, r.content
                seen += 1
                break
    meta = api.as_(host).get(f"/api/v1/games/{gid}").json()
    assert meta["status"] == "finished" and meta["outcome"]["winners"]
    audit = api.as_(host).get(f"/api/v1/games/{gid}/audit").json()
    assert audit["chain_ok"] and audit["reveals_ok"] and audit["seed"]
    assert len(audit["commitments"]) == 6
    r = api.as_(host).get(f"/api/v1/games/{gid}/export", HTTP_ACCEPT="application/json")
    assert r.status_code == 200 and len(r.content.decode().splitlines()) == meta["version"]
    for v in (1, meta["version"] // 2, meta["version"]):
        assert api.as_(player).get(f"/api/v1/games/{gid}/replay?version={v}").status_code == 200
