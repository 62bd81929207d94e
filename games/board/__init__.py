"""Board pictures: an SVG of the board drawn from one viewer's redacted view.

Pure (no Django): `render(ruleset, view)` takes the `state` a caller's `/view`
(or `/replay?version=N`) holds and never the engine state, so a piece the viewer
may not see cannot be drawn. The shapes are data (each ruleset's
`data/geometry/board.json`, built by `scripts/build_geometry.py`); `draw.py` is
the one drawing routine and each ruleset module only maps its view to a
`Scene` of pieces, marks and side-panel rows, and declares its `LAYER`. Callers
pass that `Layer` (the ruleset's record in games/plugins.py names it): this
package keeps no table of rulesets.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rules.i18n import Texts

from .draw import draw
from .geometry import RULES_DIR, Board, load
from .scene import Layer, word


def board(layer: Layer) -> Board:
    return load(layer.package)


def texts(layer: Layer, lang: str | None = None) -> Texts:
    """The ruleset's translation table in `lang` (default English): every word of the panel."""
    return Texts(RULES_DIR / layer.package / "data" / "i18n", lang or "en")


def render(
    layer: Layer,
    view: Mapping[str, Any],
    names: Mapping[str, str] | None = None,
    caption: str = "",
    lang: str | None = None,
) -> str:
    """The SVG of `view` (a seat's or the public view's `state`). `names` maps
    province ids to the names shown (default: the engine data's English names);
    `lang` is the language of every other word (titles, panel, legends, tooltips)."""
    shown = {**layer.names(), **(names or {})}
    t = texts(layer, lang)
    shape = load(layer.package)
    # the land around the board (its outline is geometry data named in English)
    around = {c["name"]: word(t, f"board.context.{c['name']}", c["name"]) for c in shape.context}
    return draw(shape, layer.scene(view, t), shown, caption, around)


__all__ = ["Layer", "board", "render", "texts"]
