"""Pieces every ruleset's ``catalogue.py`` shares (pure: no Django). A catalogue
is built from the engine's data files and its translations only, so a client
draws and explains a game without a table of its own."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .i18n import Texts


def geometry(data_dir: Path) -> dict[str, dict[str, Any]]:
    """``{area id: {"shape": ..., "label_at": ...}}`` from ``data/geometry/*.json``
    when the board pictures' data is present (it is drawn and kept by the board
    renderer's build script); empty otherwise, and the catalogue leaves both out."""
    out: dict[str, dict[str, Any]] = {}
    folder = data_dir / "geometry"
    if not folder.is_dir():
        return out
    for path in sorted(folder.glob("*.json")):
        loaded = json.loads(path.read_text(encoding="utf-8"))
        areas = loaded.get("provinces") or loaded.get("areas") or {}
        if isinstance(areas, list):
            areas = {a.get("id"): a for a in areas if isinstance(a, dict)}
        for area, g in areas.items():
            if isinstance(g, dict):
                picked = {k: g[k] for k in ("shape", "label_at") if k in g}
                if picked:
                    out.setdefault(str(area), {}).update(picked)
    return out


def with_geometry(entry: dict[str, Any], geo: dict[str, dict[str, Any]]) -> dict[str, Any]:
    entry.update(geo.get(entry["id"], {}))
    return entry


def commands(t: Texts, data_dir: Path) -> list[dict[str, Any]]:
    """A label and help text for every command type the engine's schema lists."""
    schemas = json.loads((data_dir / "schemas" / "commands.json").read_text(encoding="utf-8"))
    return [{"type": c, "label": t(f"command.{c}"), "help": t(f"command.{c}.help")} for c in schemas]


def prompts(t: Texts, kinds: Iterable[str]) -> list[dict[str, Any]]:
    """A label and help text for every pending kind (``pending[].kind``)."""
    return [{"kind": k, "label": t(f"prompt.{k}"), "help": t(f"prompt.{k}.help")} for k in kinds]


def command_types(data_dir: Path) -> list[str]:
    return list(json.loads((data_dir / "schemas" / "commands.json").read_text(encoding="utf-8")))
