"""Publishes the rulesets' JSON Schemas (games/rules/<pkg>/data/schemas/, read by
games.rules.schemas) in schema.yml, so a generated client is typed end to end
(issue 16 item 1):

Why, with the measurements and history: docs/modules.md, `api/schema_typed.py`.
"""

from __future__ import annotations

import copy
from typing import Any

from games.core_events import REDACTED_TYPE
from games.rules import registry, schemas

REF = "#/components/schemas/"


def pascal(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.replace("-", "_").replace(".", "_").split("_") if p)


def ref(name: str) -> dict[str, Any]:
    return {"$ref": REF + name}


_NESTED = ("items", "additionalProperties", "anyOf", "oneOf", "allOf", "not")


def _oas30(s: Any) -> Any:
    """JSON Schema 2020-12 -> OpenAPI 3.0 Schema Object."""
    if isinstance(s, list):
        return [_oas30(x) for x in s]
    if not isinstance(s, dict):
        return s
    out: dict[str, Any] = {}
    for k, v in s.items():
        _translate_key(out, k, v)
    t = out.get("type")
    if (t == "array" or isinstance(t, list) and "array" in t) and "items" not in out:
        out["items"] = {}  # OpenAPI 3.0 wants items; JSON Schema's default is "anything"
    _translate_type(out)
    if "anyOf" in out:
        _fold_null_alternative(out)
    return out


def _translate_key(out: dict[str, Any], k: str, v: Any) -> None:
    if k in ("$schema", "propertyNames"):
        return
    if k == "const":
        out["enum"] = [v]
    elif k == "properties":
        out[k] = {name: _oas30(p) for name, p in v.items()}
    elif k == "required":
        if v:
            out[k] = list(v)
    elif k in _NESTED:
        out[k] = _oas30(v)
    else:
        out[k] = v


def _translate_type(out: dict[str, Any]) -> None:
    """A type list (["string", "null"]) becomes nullable + one type, or anyOf."""
    t = out.get("type")
    if t == "null":
        del out["type"]
        out["nullable"] = True
    if not isinstance(t, list):
        return
    kinds = [x for x in t if x != "null"]
    if len(kinds) < len(t):
        out["nullable"] = True
    if len(kinds) == 1:
        out["type"] = kinds[0]
        return
    del out["type"]
    if kinds:
        out["anyOf"] = [{"type": x} for x in kinds]


def _fold_null_alternative(out: dict[str, Any]) -> None:
    """genson writes [{type: null}, {...}]: a nullable alternative instead."""
    alts = [a for a in out["anyOf"] if a != {"nullable": True}]
    if len(alts) < len(out["anyOf"]):
        out["nullable"] = True
        out["anyOf"] = alts
    if len(out["anyOf"]) == 1:
        out.update(out.pop("anyOf")[0])


def _union(members: dict[str, str], prop: str) -> dict[str, Any]:
    return {
        "oneOf": [ref(n) for n in members.values()],
        "discriminator": {"propertyName": prop, "mapping": {v: REF + n for v, n in members.items()}},
    }


def _ruleset_first(properties: dict[str, Any], ruleset_id: str) -> dict[str, Any]:
    """The properties with `ruleset` first, pinned to this ruleset's id: the union's
    discriminator. (The serializer's own `ruleset`, a plain string, used to win
    here, and a generated client then read an Imjin view as the first branch that
    parsed: Rising Sun's.)"""
    pinned = {**properties.get("ruleset", {}), "type": "string", "enum": [ruleset_id]}
    return {"ruleset": pinned, **{name: p for name, p in properties.items() if name != "ruleset"}}


def typed_components(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    comps = result["components"]["schemas"]
    base_event = comps["Event"]
    views: dict[str, str] = {}
    legals: dict[str, str] = {}
    commands_any: list[dict[str, Any]] = []
    events: dict[str | tuple[None, str], str] = {}  # (None, rid): a ruleset's undeclared events
    for rid in registry.PRODUCTION:
        prefix = pascal(rid)
        declared = schemas.load(rid, "commands") or {}
        members = {}
        for t, s in sorted(declared.items()):
            name = f"{prefix}{pascal(t)}Command"
            comps[name] = _oas30(s)
            members[t] = name
        comps[f"{prefix}Command"] = {
            "description": f"A {rid} command (games/rules/.../data/schemas/commands.json).",
            **_union(members, "type"),
        }
        commands_any.append(ref(f"{prefix}Command"))
        comps[f"{prefix}SeatView"] = {
            "description": f"The {rid} view a seat (or a spectator) gets.",
            **_oas30(schemas.load(rid, "view")),
        }
        view = copy.deepcopy(comps["View"])
        view["properties"] = _ruleset_first(view["properties"], rid)
        view["required"] = sorted({"ruleset", *view.get("required", [])})
        view["properties"]["state"] = {**ref(f"{prefix}SeatView"), "nullable": True}
        view["properties"]["seats"] = {
            "type": "object",
            "additionalProperties": ref(f"{prefix}SeatView"),
            "nullable": True,
            "description": view["properties"]["seats"].get("description", ""),
        }
        comps[f"{prefix}View"] = view
        views[rid] = f"{prefix}View"
        legal = copy.deepcopy(comps["LegalCommands"])
        legal["properties"] = _ruleset_first(legal["properties"], rid)
        legal["required"] = sorted({"ruleset", *legal.get("required", [])})
        legal["properties"]["commands"] = {"type": "array", "items": ref(f"{prefix}Command")}
        legal["properties"]["samples"] = {"type": "array", "items": ref(f"{prefix}Command")}
        comps[f"{prefix}LegalCommands"] = legal
        legals[rid] = f"{prefix}LegalCommands"
        declared_events = schemas.load(rid, "events")
        if declared_events is None:
            untyped = copy.deepcopy(base_event)
            untyped["description"] = (
                f"A {rid} event; its payload is not declared yet "
                "(games/rules/.../data/schemas/events.json is missing)."
            )
            comps[f"{prefix}Event"] = untyped
            events[None, rid] = f"{prefix}Event"
        else:
            _typed_events(comps, base_event, declared_events, events)
    _typed_events(comps, base_event, schemas.core_events(), events)
    redacted = copy.deepcopy(base_event)
    redacted["description"] = (
        "Another seat's private event: its seq and chain links only; its real type is not shown."
    )
    redacted["properties"]["type"] = {"type": "string", "enum": [REDACTED_TYPE]}
    comps["RedactedEvent"] = redacted
    events[REDACTED_TYPE] = "RedactedEvent"
    comps["View"] = {"description": "Your view of a game; `ruleset` says which.", **_union(views, "ruleset")}
    comps["LegalCommands"] = {
        "description": "Your legal commands; `ruleset` says which.",
        **_union(legals, "ruleset"),
    }
    typed = {k: v for k, v in events.items() if isinstance(k, str)}
    union = _union(typed, "type")
    union["oneOf"] += [ref(n) for k, n in events.items() if not isinstance(k, str)]
    comps["Event"] = {
        "description": "An event of the game's log (redacted: only seq, type and the chain links).",
        **union,
    }
    req = comps["SubmitCommandRequest"]
    req["properties"]["command"] = {
        "oneOf": commands_any,
        "description": "exactly as legal-commands lists it (one of the game's ruleset's commands)",
    }
    _uuid_paths(result)
    return result


def _typed_events(
    comps: dict[str, Any],
    base_event: dict[str, Any],
    declared: dict[str, Any],
    events: dict[str | tuple[None, str], str],
) -> None:
    for t, s in sorted(declared.items()):
        name = pascal(t)
        comps[f"{name}Payload"] = _oas30(s)
        ev = copy.deepcopy(base_event)
        ev["properties"]["type"] = {"type": "string", "enum": [t]}
        ev["properties"]["payload"] = ref(f"{name}Payload")
        comps[f"{name}Event"] = ev
        events[t] = f"{name}Event"


def _uuid_paths(result: dict[str, Any]) -> None:
    for ops in result["paths"].values():
        for op in ops.values():
            for p in op.get("parameters", []) if isinstance(op, dict) else []:
                if p.get("in") == "path" and p.get("name") == "game_id":
                    p["schema"] = {"type": "string", "format": "uuid"}
