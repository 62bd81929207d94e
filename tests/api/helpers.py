"""Helpers for API tests: play a toy game to its end through the API."""


def play_to_end(api, game, personas, pick=lambda legal: legal["commands"][0], max_steps=200):
    gid = game["id"]
    for _ in range(max_steps):
        meta = api.as_(personas[0]).get(f"/api/v1/games/{gid}").json()
        if meta["status"] != "running":
            return meta
        for who in personas:
            legal = api.as_(who).get(f"/api/v1/games/{gid}/legal-commands").json()
            if legal["commands"]:
                r = api.as_(who).post(f"/api/v1/games/{gid}/commands", {"command": pick(legal)})
                assert r.status_code == 201, r.content
                break
    raise AssertionError("game did not finish")
