"""Board pictures: an SVG of the board drawn from one viewer's redacted view.

Pure (no Django): `render(ruleset, view)` takes the `state` a caller's `/view`
(or `/replay?version=N`) holds and never the engine state, so a piece the viewer
may not see cannot be drawn. The shapes are data (each ruleset's
`data/geometry/board.json`, built by `scripts/build_geometry.py`); `draw.py` is
the one drawing routine and each ruleset module only maps its view to a
`Scene` of pieces, marks and side-panel rows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.rules.i18n import Texts

from . import imjin, rising_sun, shogun
from .draw import draw
from .geometry import RULES_DIR, Board, load
from .scene import Scene, word

# ruleset id -> (package under games/rules, view -> Scene, default names)
LAYERS: dict[str, tuple[str, Callable[[Mapping[str, Any], Texts], Scene], Callable[[], dict[str, str]]]] = {
    "rising-sun": ("rising_sun", rising_sun.scene, rising_sun.names),
    "imjin": ("imjin", imjin.scene, imjin.names),
    "shogun": ("shogun", shogun.scene, shogun.names),
}


def supported(ruleset: str) -> bool:
    return ruleset in LAYERS


def board(ruleset: str) -> Board:
    return load(LAYERS[ruleset][0])


def texts(ruleset: str, lang: str | None = None) -> Texts:
    """The ruleset's translation table in `lang` (default English): every word of the panel."""
    return Texts(RULES_DIR / LAYERS[ruleset][0] / "data" / "i18n", lang or "en")


def render(
    ruleset: str,
    view: Mapping[str, Any],
    names: Mapping[str, str] | None = None,
    caption: str = "",
    lang: str | None = None,
) -> str:
    """The SVG of `view` (a seat's or the public view's `state`). `names` maps
    province ids to the names shown (default: the engine data's English names);
    `lang` is the language of every other word (titles, panel, legends, tooltips)."""
    package, to_scene, default_names = LAYERS[ruleset]
    shown = {**default_names(), **(names or {})}
    t = texts(ruleset, lang)
    shape = load(package)
    # the land around the board (its outline is geometry data named in English)
    around = {c["name"]: word(t, f"board.context.{c['name']}", c["name"]) for c in shape.context}
    return draw(shape, to_scene(view, t), shown, caption, around)
