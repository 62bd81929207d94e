"""Every word of the board picture in the caller's language (issue 14.4): the
panel, titles, legends and tooltips come from the ruleset's translation table,
and every `board.*` text in the tables is drawn somewhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from games import board
from games.board.draw import WIDTH, ems
from games.plugins import layer
from games.rules import registry

from .support import SVG_NS, parse, states

ROOT = Path(__file__).resolve().parents[2]
GAMES = {"rising-sun": 5, "imjin": 4, "shogun": 5}
ENGLISH = re.compile(
    r"\b(To play|VP|coins|Legend|winner|Game over|Clans|Political track|Shrines|Battle|Tower|Daimyo|"
    r"Sides|Seats|Events|troops|armies|chests|income|supply|face down|sealed bids|setting up|turn|year)\b"
)
LATIN = re.compile(r"[A-Za-z]{3,}")
SCRIPT = {
    "ja": re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"),
    "zh-Hant": re.compile(r"[\u4e00-\u9fff]"),
    "ko": re.compile(r"[\uac00-\ud7a3]"),
}
# the renderer's modules: each ruleset's own layer, and the ones all rulesets share
LAYER = {
    "rising_sun": "games/board/rising_sun.py",
    "imjin": "games/board/imjin.py",
    "shogun": "games/board/shogun.py",
}
SHARED = ("games/board/scene.py", "games/board/__init__.py", "games/services/board.py")


@pytest.fixture(scope="module")
def moments():
    """Seven states of each ruleset through a game, mid-game first, the finished one last."""
    out = {}
    for ruleset, players in GAMES.items():
        game = [st for _, st in states(ruleset, players, 11)]
        out[ruleset] = [game[len(game) // 2], *game[len(game) // 6 :: len(game) // 6][:5], game[-1]]
    return out


def panel(svg: str) -> tuple[list[str], str]:
    """The section titles and every other text of the side panel and the title."""
    root = parse(svg)
    group = next(g for g in root.iter(f"{SVG_NS}g") if g.get("class") == "panel")
    texts = list(group.iter(f"{SVG_NS}text"))
    titles = [t.findtext(f"{SVG_NS}title") or "" for t in group.iter(f"{SVG_NS}g")]
    headings = [t.text or "" for t in texts if t.get("class") == "heading"]
    around = [
        p.findtext(f"{SVG_NS}title") or "" for p in root.iter(f"{SVG_NS}path") if p.get("class") == "context"
    ]
    return headings, " ".join([*(t.text or "" for t in texts), *titles, *around])


@pytest.mark.parametrize("ruleset", list(GAMES))
@pytest.mark.parametrize("lang", list(SCRIPT))
def test_no_english_word_in_the_panel(moments, ruleset, lang):
    rules = registry.load_strict(ruleset)
    for state in moments[ruleset]:
        for seat in (None, 0):
            view = rules.view(state, seat)
            headings, words = panel(board.render(layer(ruleset), view, lang=lang))
            assert headings
            for heading in headings:
                assert SCRIPT[lang].search(heading), f"{ruleset} {lang}: heading {heading!r}"
            # the panel names provinces, cards and generals from the tables too: no Latin word at all
            assert not LATIN.search(words), f"{ruleset} {lang}: {LATIN.search(words)} in {words!r}"
            english = panel(board.render(layer(ruleset), view))[1]
            assert ENGLISH.search(english), "the English panel is the control: it has those words"


def test_the_english_panel_keeps_its_words(moments):
    rules = registry.load_strict("rising-sun")
    headings, words = panel(board.render(layer("rising-sun"), rules.view(moments["rising-sun"][0], 0)))
    assert headings[:2] == ["To play", "Clans"] and "Legend" in headings
    assert re.search(r"\d+ VP, \d+ coins, \d+ ronin", words)
    headings, words = panel(board.render(layer("rising-sun"), rules.view(moments["rising-sun"][-1], 0)))
    assert headings[0] == "Game over" and "winner: " in words


def keys_used(files: list[str]) -> tuple[set[str], set[str]]:
    """The literal `board.*` keys the code names, and the prefixes of the keys it builds (f"board.season.{...}")."""
    source = "\n".join((ROOT / f).read_text(encoding="utf-8") for f in files)
    found = set(re.findall(r"""["'](board\.[a-z_.]*(?:\{)?)""", source))
    return {k for k in found if not k.endswith("{")}, {k[:-1] for k in found if k.endswith("{")}


@pytest.mark.parametrize("ruleset", list(LAYER))
def test_every_board_text_is_used_and_every_used_key_exists(ruleset):
    with open(ROOT / "games" / "rules" / ruleset / "data" / "i18n" / "en.yaml", encoding="utf-8") as f:
        table = {k for k in yaml.safe_load(f) if k.startswith("board.")}
    literal, prefixes = keys_used([LAYER[ruleset], *SHARED])
    assert prefixes, "the dynamic keys were not found: the pattern is stale"
    assert literal - table == set(), f"{ruleset}: keys the code names but the table lacks"
    unused = {k for k in table if k not in literal and not k.startswith(tuple(prefixes))}
    assert unused == set(), f"{ruleset}: board texts nothing draws"
    # the caption names the game's status: one text for each status a game can have
    statuses = {k for k in table if k.startswith("board.status.")}
    assert statuses == {f"board.status.{s}" for s in ("open", "running", "finished", "aborted")}


@pytest.mark.parametrize("ruleset", list(GAMES))
def test_japanese_and_chinese_lines_wrap_inside_the_picture(moments, ruleset):
    """Japanese and Chinese put no spaces between words: long rows still break inside the panel."""
    rules = registry.load_strict(ruleset)
    for lang in ("ja", "zh-Hant"):
        for state in moments[ruleset]:
            root = parse(board.render(layer(ruleset), rules.view(state, 0), lang=lang))
            group = next(g for g in root.iter(f"{SVG_NS}g") if g.get("class") == "panel")
            for el in group.iter(f"{SVG_NS}text"):
                if el.get("text-anchor") == "middle":
                    continue  # a chip's letters
                size = float(el.get("font-size"))
                right = (
                    float(el.get("x"))
                    + ems(el.text or "", 0.62 if el.get("class") == "title" else 0.56) * size
                )
                assert right <= WIDTH + size, f"{ruleset} {lang}: {el.text!r} runs off the picture"
