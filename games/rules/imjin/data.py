"""Loads the YAML data files once (map, deployment, generals, events, rule numbers)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml

_DIR = Path(__file__).parent / "data"


def _load(name: str) -> dict[str, Any]:
    with open(_DIR / name, encoding="utf-8") as f:
        loaded: dict[str, Any] = yaml.safe_load(f)
        return loaded


@cache
def rules() -> dict[str, Any]:
    return _load("rules.yaml")


@cache
def areas() -> dict[str, dict[str, Any]]:
    return {a["id"]: a for a in _load("map.yaml")["map"]["areas"]}


@cache
def adjacency() -> dict[str, frozenset[str]]:
    adj: dict[str, set[str]] = {a: set() for a in areas()}
    for kind, edges in _load("map.yaml")["map"]["adjacency"].items():
        if kind == "must_not_be_adjacent":  # a check list, not edges
            continue
        for a, b in edges:
            adj[a].add(b)
            adj[b].add(a)
    return {a: frozenset(s) for a, s in adj.items()}


@cache
def deployment() -> dict[str, Any]:
    start: dict[str, Any] = _load("deployment.yaml")["start_units"]
    return start


@cache
def generals() -> dict[str, dict[str, Any]]:
    return {g["id"]: g for g in _load("generals.yaml")["generals"]}


@cache
def events() -> dict[str, dict[str, Any]]:
    return {e["id"]: e for e in _load("events.yaml")["events"]}


def is_land(area: str) -> bool:
    return bool(areas()[area]["type"] == "land")


def lands() -> list[str]:
    return [a for a, d in areas().items() if d["type"] == "land"]


def home_seas(side: str) -> list[str]:
    tag = "japan_home" if side == "japan" else "allied_home"
    return [a for a, d in areas().items() if d.get("special") == tag]
