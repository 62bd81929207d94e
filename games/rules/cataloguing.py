"""Pieces every ruleset's ``catalogue.py`` shares (pure: no Django). A catalogue
is built from the engine's data files and its translations only, so a client
draws and explains a game without a table of its own."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .i18n import Texts


def _geometry_files(data_dir: Path) -> list[dict[str, Any]]:
    folder = data_dir / "geometry"
    if not folder.is_dir():
        return []
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))]


def geometry(data_dir: Path) -> dict[str, dict[str, Any]]:
    """``{area id: {"shape": ..., "label_at": ...}}`` from ``data/geometry/*.json``
    when the board pictures' data is present (drawn and kept by the board
    renderer's build script, scripts/build_geometry.py); empty otherwise, and the
    catalogue leaves both out. ``shape`` is the area's SVG path data (``d`` there)
    in the file's ``viewBox`` (``map.view_box``)."""
    out: dict[str, dict[str, Any]] = {}
    for loaded in _geometry_files(data_dir):
        areas = loaded.get("provinces") or loaded.get("areas") or {}
        if isinstance(areas, list):
            areas = {a.get("id"): a for a in areas if isinstance(a, dict)}
        for area, g in areas.items():
            if not isinstance(g, dict):
                continue
            picked = {"shape": g.get("shape", g.get("d")), "label_at": g.get("label_at")}
            picked = {k: v for k, v in picked.items() if v is not None}
            if picked:
                out.setdefault(str(area), {}).update(picked)
    return out


def view_box(data_dir: Path) -> list[float] | None:
    """The coordinate box the shapes are drawn in, when the geometry is present."""
    for loaded in _geometry_files(data_dir):
        if isinstance(loaded.get("viewBox"), list):
            return list(loaded["viewBox"])
    return None


def with_geometry(entry: dict[str, Any], geo: dict[str, dict[str, Any]]) -> dict[str, Any]:
    entry.update(geo.get(entry["id"], {}))
    return entry


def commands(t: Texts, data_dir: Path, kinds: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """A label and help text for every command type the engine's schema lists, and
    for each of its parameters a label (``field.<type>.<name>``, else ``field.<name>``)
    and what its value names (`kinds`: ``"<type>.<name>"`` or ``"<name>"`` -> province,
    seat, card, unit...; "number" when unlisted), so a client says "To: Kyoto"."""
    schemas = json.loads((data_dir / "schemas" / "commands.json").read_text(encoding="utf-8"))
    kinds = kinds or {}
    return [
        {
            "type": c,
            "label": t(f"command.{c}"),
            "help": t(f"command.{c}.help"),
            "fields": [
                {
                    "name": name,
                    "label": _field_label(t, c, name),
                    "of": kinds.get(f"{c}.{name}", kinds.get(name, "number")),
                }
                for name in schema["properties"]
                if name != "type"
            ],
        }
        for c, schema in schemas.items()
    ]


def _field_label(t: Texts, command: str, name: str) -> str:
    """The three rulesets label every field (tests/rules/catalogue/test_catalogues.py);
    a ruleset without labels (the test suite's toy) shows the parameter's name."""
    for key in (f"field.{command}.{name}", f"field.{name}"):
        if t.has(key):
            return t(key)
    return name.replace("_", " ")


def choices(t: Texts) -> dict[str, str]:
    """The words for the values a command may carry (``choice.<key>``): ``pass``,
    ``war_upgrade_timing.first`` (a pending kind's own), ``kobayakawa.1`` (a command's)."""
    return {k.removeprefix("choice."): t(k) for k in t.keys("choice.")}


def prompts(t: Texts, kinds: Iterable[str]) -> list[dict[str, Any]]:
    """A label and help text for every pending kind (``pending[].kind``)."""
    return [{"kind": k, "label": t(f"prompt.{k}"), "help": t(f"prompt.{k}.help")} for k in kinds]


def command_types(data_dir: Path) -> list[str]:
    return list(json.loads((data_dir / "schemas" / "commands.json").read_text(encoding="utf-8")))
