"""Every union of object shapes in schema.yml says how to tell its branches apart
(issue 32): a discriminator whose mapping names each branch once, on a property
that each branch requires and pins to exactly the values mapped to it. A
generated client (openapi-python-client, docs/api.md) tries a union's branches
in order; when the per-ruleset views' `ruleset` was a plain string, an Imjin
view parsed as the first branch, Rising Sun's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
REF = "#/components/schemas/"

# Unions whose branches share no property to discriminate on, with the reason a
# client still parses them right. Nothing else may go without a discriminator.
UNDISCRIMINATED = {
    # A request body: the server knows the game's ruleset, and the three rulesets
    # share command types (`done`, `pass`), so no property of the command alone
    # names its ruleset. A client builds it from the legal commands it was given.
    "/components/schemas/SubmitCommandRequest/properties/command",
    # One view (discriminated on `ruleset` itself) or a range of versions: only
    # the range has `from`, `to` and `patches`, which it requires.
    "/components/schemas/Replay",
}


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    with open(ROOT / "schema.yml", encoding="utf-8") as handle:
        loaded: dict[str, Any] = yaml.safe_load(handle)
    return loaded


def _unions(document: dict[str, Any], node: Any, path: str) -> list[tuple[str, dict[str, Any]]]:
    """(path, schema) of every oneOf/anyOf of object shapes (references to
    components with properties or to other such unions; a union of string enums,
    `language` = LanguageEnum | BlankEnum, has nothing to discriminate on)."""
    found: list[tuple[str, dict[str, Any]]] = []
    if isinstance(node, dict):
        for key in ("oneOf", "anyOf"):
            branches = node.get(key)
            if isinstance(branches, list) and branches and all(_is_shape(document, b) for b in branches):
                found.append((path, node))
        for name, child in node.items():
            found += _unions(document, child, f"{path}/{name}")
    elif isinstance(node, list):
        for index, child in enumerate(node):
            found += _unions(document, child, f"{path}[{index}]")
    return found


def _is_shape(document: dict[str, Any], branch: Any) -> bool:
    if not isinstance(branch, dict) or "$ref" not in branch:
        return False
    target = _component(document, branch["$ref"])
    return "properties" in target or "oneOf" in target


def _component(document: dict[str, Any], ref: str) -> dict[str, Any]:
    assert ref.startswith(REF), ref
    component: dict[str, Any] = document["components"]["schemas"][ref.removeprefix(REF)]
    return component


def test_the_per_ruleset_unions_are_found(document):
    paths = {path for path, _ in _unions(document, document, "")}
    for name in ("View", "LegalCommands", "Event", "RisingSunCommand", "ImjinCommand", "ShogunCommand"):
        assert f"/components/schemas/{name}" in paths
    assert UNDISCRIMINATED <= paths, "an exemption names a union that is gone: drop it"


def test_every_union_has_a_discriminator_covering_each_branch(document):
    for path, union in _unions(document, document, ""):
        if path in UNDISCRIMINATED:
            continue
        branches = [b["$ref"] for b in union.get("oneOf") or union["anyOf"]]
        discriminator = union.get("discriminator")
        assert discriminator, f"{path}: a union of {len(branches)} shapes without a discriminator"
        mapping = discriminator["mapping"]
        assert sorted(mapping.values()) == sorted(branches), f"{path}: the mapping and the branches differ"
        prop = discriminator["propertyName"]
        for branch in branches:
            shape = _component(document, branch)
            values = sorted(value for value, target in mapping.items() if target == branch)
            assert prop in shape.get("required", []), f"{path}: {branch} does not require {prop!r}"
            pinned = shape["properties"][prop].get("enum")
            assert sorted(pinned or []) == values, (
                f"{path}: {branch}'s {prop!r} allows {pinned}, the mapping sends it {values}"
            )
