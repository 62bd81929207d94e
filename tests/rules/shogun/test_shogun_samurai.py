"""The Samurai option (reference 13, 15.12, fallback 16.3)."""

import pytest
from shogun_helpers import act, clear_board, new_game, own, run

from games.rules.base import IllegalCommand
from games.rules.shogun.rules import RULES
from games.rules.shogun.state import enter, phase_of


def season_start(samurai_card=1):
    s = clear_board(new_game(4, samurai=True))
    for prov in ("Etchu", "Izu", "Omi", "Ise"):  # brown, yellow, red, purple
        own(s, prov, 0, 2)
    own(s, "Aki", 1, 2)
    for prov in ("Kai", "Mino", "Musashi"):  # only 3 regions
        own(s, prov, 1, 2)
    s["players"][0]["samurai"] = samurai_card
    enter(s, "season_start")
    return run(s)[0]


def test_four_regions_turn_the_next_card():
    s = season_start()
    assert phase_of(s) == "samurai"
    assert [(p.seat, p.kind) for p in RULES.pending(s)] == [(0, "samurai")]
    assert s["players"][0]["samurai"] == 2 and s["players"][1]["samurai"] == 1
    assert RULES.legal_commands(s, 0).commands == (
        {"type": "samurai", "bonus": "chests"},
        {"type": "samurai", "bonus": "tray"},
    )
    with pytest.raises(IllegalCommand):
        act(s, 0, {"type": "samurai", "bonus": "vp"})
    s2, _ = act(s, 0, {"type": "samurai", "bonus": "tray"})
    assert s2["tower"]["tray"].count(0) == 1 and phase_of(s2) == "plan"


@pytest.mark.parametrize(
    "card,bonus,field,gain",
    [
        (2, "chests", "money", 4),
        (2, "rice", "rice", 1),
        (3, "chests", "money", 6),
        (3, "rice", "rice", 2),
        (3, "vp", "vp", 1),
        (4, "vp", "vp", 1),
    ],
)
def test_later_cards_are_better_and_the_last_one_stays(card, bonus, field, gain):
    s = season_start(card)
    assert s["players"][0]["samurai"] == min(card + 1, 4)
    before = s["players"][0][field]
    s2, _ = act(s, 0, {"type": "samurai", "bonus": bonus})
    assert s2["players"][0][field] == before + gain


def test_no_samurai_without_the_option():
    s = clear_board(new_game(4))
    for prov in ("Etchu", "Izu", "Omi", "Ise"):
        own(s, prov, 0, 2)
    enter(s, "season_start")
    s = run(s)[0]
    assert phase_of(s) == "plan" and s["players"][0]["samurai"] == 1
