"""The committed geometry agrees with the engines' data: the same province ids,
names inside the picture, the Shogun and Rising Sun sea routes the maps list."""

from __future__ import annotations

import pytest

from games import board, plugins
from games.plugins import layer
from games.rules.rising_sun.data import BOARD
from games.rules.shogun import data as shogun_data

from .expect import province_ids

SEA_ROUTES = {
    "rising-sun": {frozenset(e) for e in BOARD["shipping_routes"]},
    "shogun": {frozenset((a, b)) for a, b, sea in shogun_data.EDGES if sea},
    "imjin": set(),  # its seas are areas of their own
}


@pytest.mark.parametrize("ruleset", [key for key, record in plugins.records().items() if record.board])
def test_geometry_matches_the_engine(ruleset):
    geo = board.board(layer(ruleset))
    assert set(geo.provinces) == province_ids(ruleset)
    for pid, prov in geo.provinces.items():
        x, y = prov["label_at"]
        assert 0 <= x <= geo.width and 0 <= y <= geo.height, pid
        assert prov["d"].startswith("M") and prov["d"].endswith("Z"), pid
        assert prov["kind"] in ("land", "sea")
    assert {frozenset((r["a"], r["b"])) for r in geo.routes} == SEA_ROUTES[ruleset]
