"""Render the three boards mid-game for the README: docs/img/board-<ruleset>.svg,
and .png when a headless Chromium is installed (`chromium --screenshot`).

    .venv/bin/python scripts/render_board_images.py

Bot-played seeded games (engine only, no database), seen by a spectator.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import board  # noqa: E402  (after the path: run as a script)
from games.plugins import layer  # noqa: E402
from games.rules import registry  # noqa: E402
from tests.board.support import states  # noqa: E402

GAMES = {
    "rising-sun": (4, 11, 0.45),
    "shogun": (4, 12, 0.4),
    "imjin": (2, 13, 0.5),
}  # players, seed, share of game


def main() -> None:
    out = ROOT / "docs" / "img"
    out.mkdir(parents=True, exist_ok=True)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    for ruleset, (players, seed, share) in GAMES.items():
        played = list(states(ruleset, players, seed))
        n, state = played[int(len(played) * share)]
        view = registry.load_strict(ruleset).view(state, None)
        svg = board.render(
            layer(ruleset), view, caption=f"mid-game (command {n} of a bot game), seen by a spectator"
        )
        path = out / f"board-{ruleset}.svg"
        path.write_text(svg, encoding="utf-8")
        height = int(re.search(r'height="(\d+)"', svg).group(1))
        if chromium:
            png = out / f"board-{ruleset}.png"
            subprocess.run(
                [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                 f"--screenshot={png}", f"--window-size=1200,{height}", path.as_uri()],
                check=True, capture_output=True, timeout=120,
            )  # fmt: skip
        print(path, height)


if __name__ == "__main__":
    main()
