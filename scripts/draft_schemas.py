"""Draft a ruleset's JSON Schemas (data/schemas/{commands,view,events}.json)
from what its engine really produces: seeded random games at every player
count, every listed and sampled command, every seat's and the spectator's view,
every event payload (genson infers; this script then tightens the result).

The drafts are a starting point, committed and then kept by hand; the
contract test (tests/contract/test_typed_schemas.py) validates random games
against them, so they cannot drift from the engines.

    .venv/bin/python scripts/draft_schemas.py shogun [--only commands,view,events] [--games 6]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

from genson import SchemaBuilder

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.rules import registry  # noqa: E402
from games.rules.base import BadCommand, canonical_json, fold, rng_factory  # noqa: E402
from games.rules.schemas import schema_dir  # noqa: E402
from games.rules.testing import pick, roundtrip  # noqa: E402


class _Draft:
    """genson builders fed from random games: one per command type, one per event
    type, one for every view."""

    def __init__(self, rules):
        self.rules = rules
        self.commands: dict[str, SchemaBuilder] = {}
        self.events: dict[str, SchemaBuilder] = {}
        self.view = SchemaBuilder()

    @staticmethod
    def _add(table: dict, key: str, obj) -> None:
        table.setdefault(key, SchemaBuilder()).add_object(obj)

    def add_views(self, state, players: int) -> None:
        for seat in [None, *range(players)]:
            self.view.add_object(json.loads(canonical_json(self.rules.view(state, seat))))

    def add_events(self, events) -> None:
        for e in events:
            self._add(self.events, e.type, dict(e.payload))

    def add_legal(self, legal, rnd: random.Random) -> None:
        for c in legal.commands[:200]:
            self._add(self.commands, c["type"], json.loads(canonical_json(dict(c))))
        if legal.sample is not None:
            for _ in range(3):
                c = json.loads(canonical_json(dict(legal.sample(rnd))))
                self._add(self.commands, c["type"], c)

    def play(self, n: int, view_every: int) -> None:
        """Game `n`: a random playout, recording what it sees."""
        rules = self.rules
        players = rules.min_players + n % (rules.max_players - rules.min_players + 1)
        rnd, seed = random.Random(9000 + n), f"draft-{n}"
        try:
            evs = [roundtrip(e) for e in rules.start([None] * players, {}, rng_factory(seed, 1))]
        except BadCommand:
            return
        state = fold(rules, evs)
        self.add_events(evs)
        self.add_views(state, players)
        steps = 0
        while rules.outcome(state) is None and steps < 20000:
            p = rnd.choice(rules.pending(state))
            legal = rules.legal_commands(state, p.seat)
            self.add_legal(legal, rnd)
            cmd = json.loads(canonical_json(dict(pick(legal, rnd))))
            new = [roundtrip(e) for e in rules.decide(state, p.seat, cmd, rng_factory(seed, len(evs) + 1))]
            self.add_events(new)
            state = fold(rules, new, state)
            evs += new
            steps += 1
            if steps % view_every == 0:
                self.add_views(state, players)
        self.add_views(state, players)


def collect(ruleset: str, games: int, view_every: int):
    """(command builders, view builder, event builders) from `games` random games."""
    draft = _Draft(registry.load_strict(ruleset))
    for n in range(games):
        draft.play(n, view_every)
    return draft.commands, draft.view, draft.events


ID = re.compile(r"^[A-Za-z_]*[0-9]+$")


def _is_map(props: dict) -> bool:
    """Keyed by seat numbers or ids (u3, s12), or many keys of one shape (areas,
    provinces, generals): a map, whose keys vary from game to game."""
    if all(ID.match(k) for k in props):
        return True
    shapes = {json.dumps(v, sort_keys=True) for v in props.values()}
    return len(props) >= 6 and len(shapes) == 1


def tighten(schema, top_command: str | None = None):
    """Objects keyed by seat numbers, ids or names (see _is_map) become maps; a command's `type` is a const
    and it takes no other keys than those seen (the engines refuse strays)."""
    if isinstance(schema, list):
        return [tighten(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    schema = {k: tighten(v) if k not in ("properties", "required") else v for k, v in schema.items()}
    schema.pop("$schema", None)
    props = schema.get("properties")
    if isinstance(props, dict):
        props = {k: tighten(v) for k, v in props.items()}
        if props and _is_map(props):
            merged = SchemaBuilder()
            for v in props.values():
                merged.add_schema(v)
            schema = {"type": "object", "additionalProperties": tighten(merged.to_schema())}
            schema["additionalProperties"].pop("$schema", None)
        else:
            schema["properties"] = props
    if top_command is not None:
        schema["properties"]["type"] = {"const": top_command}
        schema["additionalProperties"] = False
    return schema


def loosen(schema, depth: int = 0):
    """Below the top level, which keys are present varies with the game (an
    empty battle, an absent faction): keep the shapes, drop `required`."""
    if isinstance(schema, list):
        return [loosen(s, depth) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {
        k: loosen(v, depth + (k == "properties")) if k not in ("required", "properties") else v
        for k, v in schema.items()
    }
    if "properties" in out:
        out["properties"] = {k: loosen(v, depth + 1) for k, v in out["properties"].items()}
    if depth > 0:
        out.pop("required", None)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("ruleset")
    ap.add_argument("--only", default="commands,view,events")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--view-every", type=int, default=15)
    a = ap.parse_args()
    commands, view, events = collect(a.ruleset, a.games, a.view_every)
    out = schema_dir(a.ruleset)
    out.mkdir(parents=True, exist_ok=True)
    only = set(a.only.split(","))
    docs = {
        "commands": {t: tighten(b.to_schema(), t) for t, b in sorted(commands.items())},
        "view": loosen(tighten(view.to_schema())),
        "events": {
            t: loosen(tighten(b.to_schema())) for t, b in sorted(events.items()) if not t.startswith("core.")
        },
    }
    for name in sorted(only):
        (out / f"{name}.json").write_text(json.dumps(docs[name], indent=1, sort_keys=True) + "\n")
        print(f"wrote {out / (name + '.json')}")


if __name__ == "__main__":
    main()
