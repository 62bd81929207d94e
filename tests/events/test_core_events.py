"""The platform's event types (games/core_events.py): the published JSON Schemas
agree with the dataclasses, recorded games read back into them unchanged, and
the upcaster convention (upcast_vN_vN+1 beside the class) is enforced."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from games import core_events
from games.core_events import BadCoreEvent, CoreEvent, MessageSent, read, upcasters_of
from games.rules import base, schemas

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "games"


def _keys(cls: type[CoreEvent]) -> dict[str, bool]:
    """payload key -> required, as the dataclass declares it."""
    return {f.metadata.get("key", f.name): not f.metadata.get("optional") for f in dataclasses.fields(cls)}


def test_every_declared_schema_has_a_type_and_every_type_a_schema():
    assert set(core_events.TYPES) == set(schemas.core_events())


@pytest.mark.parametrize("type_", sorted(core_events.TYPES))
def test_schema_properties_are_the_dataclass_fields(type_):
    schema, keys = schemas.core_events()[type_], _keys(core_events.TYPES[type_])
    assert set(schema["properties"]) == set(keys)
    assert set(schema["required"]) == {k for k, required in keys.items() if required}
    assert schema["additionalProperties"] is False


def test_engines_commit_with_the_platform_type():
    assert base.COMMITTED == core_events.ChoiceCommitted.TYPE


def _recorded_core_rows() -> list[dict]:
    rows = []
    for path in sorted(FIXTURES.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if core_events.is_core(row["type"]):
                rows.append(row)
    return rows


def test_recorded_platform_events_read_back_unchanged():
    rows = _recorded_core_rows()
    assert {r["type"] for r in rows} >= {"core.GameStarted", "core.GameFinished", "core.TakebackAccepted"}
    for row in rows:
        event = read(row["type"], row["version"], row["payload"])
        assert event.payload() == row["payload"], row["seq"]


def test_renamed_and_optional_fields():
    public = MessageSent(sender=1, to=None, text="hi")
    assert public.payload() == {"from": 1, "to": None, "text": "hi"}
    private = read("core.MessageSent", 1, {"from": 0, "to": [2], "text": "x", "salt": "ab" * 16})
    assert private.sender == 0 and private.to == (2,) and private.salt == "ab" * 16


@pytest.mark.parametrize(
    "type_,version,payload,why",
    [
        ("core.Nope", 1, {}, "unknown platform event type"),
        ("core.SeedRevealed", 2, {"seed": "s"}, "version 2"),
        ("core.SeedRevealed", 1, {"seed": "s", "extra": 1}, "unknown payload keys"),
        ("core.SeatReclaimed", 1, {"seat": 0}, "missing payload keys ['user']"),
        ("core.GameFinished", 1, {"outcome": {"winners": [0]}}, "outcome needs exactly"),
        ("core.SeedRevealed", 1, None, "not an object"),
    ],
)
def test_payloads_that_do_not_fit_are_refused(type_, version, payload, why):
    with pytest.raises(BadCoreEvent, match=why.replace("[", r"\[").replace("]", r"\]")):
        read(type_, version, payload)


@dataclass(frozen=True, kw_only=True)
class _Renamed(CoreEvent):
    """v1 {name}, v2 {title}, v3 {title, lang}."""

    TYPE: ClassVar[str] = "core.TestRenamed"
    VERSION: ClassVar[int] = 3
    title: str
    lang: str

    @staticmethod
    def upcast_v1_v2(payload: dict[str, Any]) -> dict[str, Any]:
        return {"title": payload.pop("name"), **payload}

    @staticmethod
    def upcast_v2_v3(payload: dict[str, Any]) -> dict[str, Any]:
        return {**payload, "lang": "en"}


def test_upcasters_are_collected_by_name_and_chained(monkeypatch):
    ups = upcasters_of(_Renamed)
    assert set(ups) == {("core.TestRenamed", 1), ("core.TestRenamed", 2)}
    monkeypatch.setitem(core_events.TYPES, _Renamed.TYPE, _Renamed)
    monkeypatch.setattr(core_events, "UPCASTERS", {**core_events.UPCASTERS, **ups})
    assert read(_Renamed.TYPE, 1, {"name": "x"}) == _Renamed(title="x", lang="en")
    assert read(_Renamed.TYPE, 3, {"title": "y", "lang": "ja"}) == _Renamed(title="y", lang="ja")


def test_a_version_without_its_upcaster_fails_loudly():
    @dataclass(frozen=True, kw_only=True)
    class Gap(CoreEvent):
        TYPE: ClassVar[str] = "core.TestGap"
        VERSION: ClassVar[int] = 2

    with pytest.raises(TypeError, match="upcast_v1_v2"):
        upcasters_of(Gap)


def test_the_platform_registry_holds_only_its_own_module():
    assert "core.TestRenamed" not in core_events._all_types()
