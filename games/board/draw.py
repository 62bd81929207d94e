"""The one drawing routine: geometry + scene -> SVG text.

The canvas is WIDTH units wide (1 unit = 1 px at 1200 px): the map on the left,
the side panel (whose turn, scores, tracks) on the right. Each province's name
sits at its `label_at`; its chips go in rows under the name, so a name and the
chips of its province never overlap (`layout` returns the boxes; a test checks
no name box meets any chip box on busy boards).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from .geometry import Board
from .palette import NEUTRAL, ink
from .scene import Piece, Scene

WIDTH = 1200
MAP_W = 860
PANEL_X = 872
PANEL_W = WIDTH - PANEL_X - 8
LABEL_PX = 12
CHIP_PX = 11
CHIP_H = 17
CHIP_GAP = 3
ROW_MAX = 112  # widest row of chips under a name
LINE_H = 19
SEA = "#dcebf5"
LAND = "#f4efdf"
SEA_AREA = "#b9d7ec"
CONTEXT = "#d6d6d6"
BUILDINGS = {"castle", "temple", "theatre", "stronghold"}
CLOSING = set("、。，；：）」』")  # full-width punctuation that never starts a line


@dataclass(frozen=True)
class Box:
    what: str  # "label" or "piece"
    province: str
    x: float  # left
    y: float  # top
    w: float
    h: float

    def meets(self, o: Box) -> bool:
        return self.x < o.x + o.w and o.x < self.x + self.w and self.y < o.y + o.h and o.y < self.y + self.h


def wide(ch: str) -> bool:
    """A full-width character (kana, Han, Hangul, full-width forms): about 1 em wide."""
    return ord(ch) >= 0x2E80


def ems(text: str, narrow: float) -> float:
    """The width of `text` in em, a Latin character taken as `narrow` em."""
    return sum(1.0 if wide(ch) else narrow for ch in text)


def label_lines(text: str) -> list[str]:
    """A long name with a parenthesis goes on two lines: "Gyeonggi Right" / "(west)"."""
    head, sep, tail = text.partition(" (")
    return [head, "(" + tail] if sep and len(text) > 14 else [text]


def label_width(text: str) -> float:
    return LABEL_PX * max(ems(line, 0.62) for line in label_lines(text)) + 4


def chip_width(text: str) -> float:
    return CHIP_PX * max(ems(text, 0.62), 0.62) + 8


def layout(board: Board, scene: Scene, names: Mapping[str, str]) -> list[tuple[Box, Piece | None]]:
    """Where each province's name and chips go (boxes in map units)."""
    out: list[tuple[Box, Piece | None]] = []
    for pid, prov in board.provinces.items():
        x, y = prov["label_at"]
        name = names.get(pid, pid)
        lw, extra = label_width(name), (len(label_lines(name)) - 1) * LABEL_PX
        x = min(max(x, lw / 2 + 2), board.width - lw / 2 - 2)  # names at the map's edge stay whole
        out.append((Box("label", pid, x - lw / 2, y - LABEL_PX + 2, lw, LABEL_PX + 2 + extra), None))
        rows: list[list[tuple[float, Piece]]] = [[]]
        width = 0.0
        for piece in scene.pieces.get(pid, []):
            w = chip_width(piece.text)
            if rows[-1] and width + w > ROW_MAX:
                rows.append([])
                width = 0.0
            rows[-1].append((w, piece))
            width += w + CHIP_GAP
        top = y + 6 + extra
        for row in rows:
            total = sum(w for w, _ in row) + CHIP_GAP * (len(row) - 1)
            left = x - total / 2
            for w, piece in row:
                out.append((Box("piece", pid, left, top, w, CHIP_H), piece))
                left += w + CHIP_GAP
            top += CHIP_H + CHIP_GAP
    return out


def _attrs(pairs: Mapping[str, object] | Sequence[tuple[str, object]]) -> str:
    items = pairs.items() if isinstance(pairs, Mapping) else pairs
    return "".join(f" {k}={quoteattr(str(v))}" for k, v in items if v is not None)


def _chip(scene: Scene, piece: Piece, x: float, y: float, w: float, where: str | None) -> str:
    fill = piece.colour or (scene.seats[piece.seat][2] if piece.seat is not None else NEUTRAL)
    rx = 1 if piece.kind in BUILDINGS else CHIP_H / 2
    data = {"class": "piece", "data-piece": piece.kind, "data-seat": piece.seat, "data-count": piece.count}
    if where is not None:
        data["data-at"] = where
    extra = [(f"data-{k}", v) for k, v in piece.attrs]
    return (
        f"<g{_attrs(data)}{_attrs(extra)}><title>{escape(piece.title)}</title>"
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{CHIP_H}" rx="{rx}" '
        f'fill="{fill}" stroke="#1a1a1a" stroke-width="1.2"/>'
        f'<text x="{x + w / 2:.1f}" y="{y + CHIP_H - 4.5:.1f}" font-size="{CHIP_PX}" font-weight="700" '
        f'text-anchor="middle" fill="{ink(fill)}">{escape(piece.text)}</text></g>'
    )


def _wrap(text: str, width: float, px: float) -> list[str]:
    """Lines of at most `width` px: broken at spaces, and inside a run of full-width
    characters (Japanese and Chinese put no spaces between words)."""
    per_line = max(width / (0.56 * px), 8)  # in Latin characters
    lines, cur = [], ""
    for word, glued in _pieces(text, per_line):
        extra = _units(word) + (0 if glued else 1)
        if cur and _units(cur) + extra > per_line and word not in CLOSING:
            lines.append(cur)
            cur = word
        else:
            cur = (cur + word if glued else f"{cur} {word}") if cur else word
    return [*lines, cur] if cur else lines


def _units(text: str) -> float:
    """Width in Latin characters (a full-width character is about 1.8 of them)."""
    return sum(1 / 0.56 if wide(ch) else 1 for ch in text)


def _pieces(text: str, per_line: float) -> list[tuple[str, bool]]:
    """(word, glued to the one before without a space): the words between spaces, and
    a full-width word wider than a line split into its characters."""
    out: list[tuple[str, bool]] = []
    for word in text.split(" "):
        if _units(word) > per_line and any(wide(ch) for ch in word):
            out += [(word[0], False), *((ch, True) for ch in word[1:])]
        else:
            out.append((word, False))
    return out


def _panel(scene: Scene, caption: str) -> tuple[list[str], float]:
    out = []
    y = 6.0
    for line in _wrap(scene.title, PANEL_W, 19):  # bold: wider than the 0.56 em the wrap assumes
        y += 20
        out.append(
            f'<text x="{PANEL_X}" y="{y}" font-size="17" font-weight="700" class="title">{escape(line)}</text>'
        )
    for line in _wrap(caption, PANEL_W, 12) if caption else []:
        y += 17
        out.append(f'<text x="{PANEL_X}" y="{y}" font-size="12" fill="#333">{escape(line)}</text>')
    for line in _wrap(scene.notice, PANEL_W, 12) if scene.notice else []:
        y += 17
        out.append(
            f'<text x="{PANEL_X}" y="{y}" font-size="12" font-style="italic" fill="#8a1c00" '
            f'class="notice">{escape(line)}</text>'
        )
    for heading, rows in scene.panel:
        y += 26
        out.append(
            f'<text x="{PANEL_X}" y="{y}" font-size="13" font-weight="700" class="heading">{escape(heading)}</text>'
        )
        for row in rows:
            y += 4
            indent = 0.0
            for chip in ([row.chip] if row.chip is not None else []) + list(row.chips):
                w = chip_width(chip.text)
                out.append(_chip(scene, chip, PANEL_X + indent, y, w, None))
                indent += w + 4
            for i, line in enumerate(_wrap(row.text, PANEL_W - indent, 12) or [""]):
                y += LINE_H if i == 0 else 15
                out.append(
                    f'<text x="{PANEL_X + indent:.1f}" y="{y - 6:.1f}" font-size="12">{escape(line)}</text>'
                )
    return out, y + 16


def draw(
    board: Board,
    scene: Scene,
    names: Mapping[str, str],
    caption: str = "",
    around: Mapping[str, str] | None = None,
) -> str:
    """The SVG document; `around` names the land off the board (default: as the geometry does)."""
    scale = MAP_W / board.width
    map_h = board.height * scale
    panel, panel_h = _panel(scene, caption)
    height = max(map_h, panel_h)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height:.0f}" width="{WIDTH}" '
        f'height="{height:.0f}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">',
        "<defs>"
        '<pattern id="out-of-play" width="8" height="8" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="8" height="8" fill="#e4e4e4"/>'
        '<line x1="0" y1="0" x2="0" y2="8" stroke="#9a9a9a" stroke-width="2"/></pattern>'
        "</defs>",
        f'<rect width="{WIDTH}" height="{height:.0f}" fill="#fff"/>',
        f'<g class="map" transform="scale({scale:.5f})">',
        f'<rect width="{board.width}" height="{board.height}" fill="{SEA}"/>',
    ]
    parts += [
        f'<path class="context" d="{c["d"]}" fill="{CONTEXT}" stroke="#a0a0a0" stroke-width="0.6">'
        f"<title>{escape((around or {}).get(c['name'], c['name']))}</title></path>"
        for c in board.context
    ]
    parts += [
        f'<path class="route" data-route={quoteattr(r["a"] + "|" + r["b"])} d="{r["d"]}" fill="none" '
        f'stroke="#1f5f99" stroke-width="2" stroke-dasharray="7 5"/>'
        for r in board.routes
    ]
    for pid, prov in board.provinces.items():
        fill = scene.fills.get(pid) or (SEA_AREA if prov["kind"] == "sea" else LAND)
        if pid in scene.dimmed:
            fill = "url(#out-of-play)"
        cls = "province out-of-play" if pid in scene.dimmed else "province"
        parts.append(
            f'<path class="{cls}" data-province={quoteattr(pid)} data-kind="{prov["kind"]}" d="{prov["d"]}" '
            f'fill="{fill}" stroke="#3b3b3b" stroke-width="1" stroke-linejoin="round">'
            f"<title>{escape(names.get(pid, pid))}</title></path>"
        )
    for box, piece in layout(board, scene, names):
        if piece is None:
            x, y = box.x + box.w / 2, board.provinces[box.province]["label_at"][1]
            name = names.get(box.province, box.province)
            lines = label_lines(name)
            text = escape(lines[0]) + "".join(
                f'<tspan x="{x:.1f}" dy="{LABEL_PX}">{escape(line)}</tspan>' for line in lines[1:]
            )
            parts.append(
                f'<text class="label" data-at={quoteattr(box.province)} aria-label={quoteattr(name)} x="{x:.1f}" '
                'pointer-events="none" '  # a name: clicks go through to the province under it
                f'y="{y}" font-size="{LABEL_PX}" font-weight="700" text-anchor="middle" fill="#111" '
                f'stroke="#fff" stroke-width="3" stroke-linejoin="round" paint-order="stroke">{text}</text>'
            )
        else:
            parts.append(_chip(scene, piece, box.x, box.y, box.w, box.province))
    parts.append("</g>")
    parts.append(f'<g class="panel">{"".join(panel)}</g>')
    parts.append("</svg>")
    return "\n".join(parts)
