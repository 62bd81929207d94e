"""Scraping /metrics and playing toy games for the operations tests."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families


def scrape(client=None, **extra) -> dict:
    """{(sample name, frozenset(labels)): value} from GET /metrics."""
    from django.test import Client

    r = (client or Client()).get("/metrics", **extra)
    assert r.status_code == 200, r.content[:300]
    assert r["Content-Type"].startswith("text/plain")
    out = {}
    for fam in text_string_to_metric_families(r.content.decode()):
        for s in fam.samples:
            out[(s.name, frozenset(s.labels.items()))] = s.value
    return out


def value(samples: dict, name: str, **labels) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def play_to_the_end(api, personas: dict, gid: str, max_steps: int = 200) -> int:
    """Each pending seat plays its first legal command until the game ends."""
    steps = 0
    while steps < max_steps:
        g = api.as_(next(iter(personas.values()))).get(f"/api/v1/games/{gid}").json()
        if g["status"] != "running":
            return steps
        moved = False
        for who in personas.values():
            legal = api.as_(who).get(f"/api/v1/games/{gid}/legal-commands").json()
            cmds = legal.get("commands") or []
            if cmds:
                r = api.as_(who).post(
                    f"/api/v1/games/{gid}/commands",
                    {"command": cmds[-1] if cmds[0].get("type") == "bid" else cmds[0]},
                    HTTP_IDEMPOTENCY_KEY=f"k-{gid}-{steps}",
                )
                assert r.status_code == 201, r.content
                moved, steps = True, steps + 1
                break
        assert moved, "nobody could move"
    raise AssertionError("the game did not end")
