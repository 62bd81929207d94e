"""data/schemas/events.json: a JSON Schema (draft 2020-12) for the payload of
every event type Rising Sun emits at rules versions 4-6 (the API serves stored
games of each), checked against every event of random games of versions 5 and 6
(so the schemas cannot drift from the engine)."""

import dataclasses

import jsonschema
import pytest

from games.rules.rising_sun import events as ev
from games.rules.rising_sun import named
from games.rules.rising_sun.rules import RULES
from games.rules.testing import play_random_game

SCHEMAS = RULES.event_schemas
GAMES = [
    (3, {}, 31),
    (4, {"season_set": "horseman"}, 32),
    (5, {"season_set": "teapot", "shrines": "first_game"}, 33),
    (5, {"season_set": "random"}, 34),
]


@pytest.fixture(scope="module")
def random_events():
    return [
        e
        for engine in (RULES, RULES.for_rules_version(5))
        for n, opts, seed in GAMES
        for e in play_random_game(
            engine, [None] * n, opts, seed=seed, check_every=10000, check_views=False
        ).events
    ]


def test_every_schema_is_a_valid_draft_2020_12_object_schema():
    for name, schema in SCHEMAS.items():
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object" and schema["$schema"].endswith("2020-12/schema"), name


def test_every_event_of_random_games_matches_its_schema(random_events):
    seen = set()
    for e in random_events:
        assert e.type in SCHEMAS, f"no schema for {e.type}"
        jsonschema.Draft202012Validator(SCHEMAS[e.type]).validate(dict(e.payload))
        seen.add(e.type)
    # the schemas cover exactly what the engine emits (MandatesShuffled is v2/v3 only)
    assert seen == set(SCHEMAS), set(SCHEMAS) ^ seen
    assert ev.MANDATES_SHUFFLED not in SCHEMAS


def test_a_schema_rejects_a_payload_the_engine_would_not_make():
    bad = {"seat": 0, "cmd": {"type": "done"}, "outcome": {"players": {"0": {"coins": "two"}}}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, SCHEMAS[ev.COMMAND_APPLIED])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"outcome": {}, "salt": "short"}, SCHEMAS[ev.HIDDEN_CHANGED])


def test_the_event_dataclasses_match_their_schemas():
    """Versions 4-5 (`events.py`) and 6 (`named.py`) share the public events'
    types: a schema's properties are both versions' fields, it requires what both require."""
    classes = [*ev.FACTS.values(), ev.HiddenStateChanged, *named.NAMED, *named.HEADERS.values()]
    fields: dict[str, set[str]] = {}
    for cls in classes + [named.PositionChanged]:
        schema = SCHEMAS[cls.TYPE]
        names = {f.name for f in dataclasses.fields(cls)}
        fields.setdefault(cls.TYPE, set()).update(names)
        required = {f.name for f in dataclasses.fields(cls) if f.default is dataclasses.MISSING}
        assert set(schema["required"]) <= required, cls.TYPE
    for event_type, names in fields.items():
        assert names == set(SCHEMAS[event_type]["properties"]), event_type
    assert ev.VERSIONS[ev.COMMAND_APPLIED] == 2 and named.CommandApplied.VERSION == 3
