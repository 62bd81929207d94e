"""The 2 vs 2 game (§10): armies, shared wheel, team rules."""

import pytest
from imjin_helpers import Game, clear_board, in_hand, prompt, put, scripted

from games.rules.base import IllegalCommand
from games.rules.imjin.rules import RULES
from games.rules.imjin.state import prompts, stage

KATO, JOSEON, KONISHI, MING = 0, 1, 2, 3


def fresh():
    return Game(4, options={"legendary_generals": []}).skip_setup()


def test_play_order_and_shared_wheel():
    g = fresh()
    seen = []
    for _ in range(4):
        seat = stage(g.state)["turn"]
        seen.append(seat)
        g.do(seat, {"type": "advance", "steps": 1})
        while stage(g.state)["turn"] == seat and RULES.outcome(g.state) is None:
            s2 = RULES.pending(g.state)[0].seat
            g.do(s2, dict(RULES.default_command(g.state, s2)))
    assert seen == [KATO, JOSEON, KONISHI, MING]
    assert g.state["wheel"] == {"japan": 2, "allies": 2}  # one marker per side, shared


def test_supply_action_split_keeps_half():
    g = fresh()
    g.do(KATO, {"type": "advance", "steps": 1})
    assert g.head["kind"] == "split" and g.head["total"] == 20 and g.head["min_mine"] == 10
    assert [c["mine"] for c in g.legal(KATO)] == list(range(10, 21))
    g.do(KATO, {"type": "split", "mine": 12})
    assert g.state["supply"][KATO] == 32 and g.state["supply"][KONISHI] == 28


def test_main_only_own_supports_from_team_mate():
    g = fresh()

    def setup(s):
        clear_board(s)
        put(s, "u1", JOSEON, "GG_R", 2)
        put(s, "u2", MING, "HG_S", 2)
        put(s, "u3", KATO, "GW_W", 2)
        prompt(s, {"kind": "declare", "seat": JOSEON, "draft": None}, act={})

    g.edit(setup)
    mains = {c["main"] for c in g.legal(JOSEON) if c["type"] == "attack"}
    assert mains == {"u1"}
    g.do(JOSEON, {"type": "attack", "target": "u3", "main": "u1", "via": None, "mode": "normal"})
    assert {"type": "support", "unit": "u2"} in g.legal(JOSEON)
    g.do(JOSEON, {"type": "support", "unit": "u2"})
    g.do(JOSEON, {"type": "confirm"})
    assert g.state["supply"][JOSEON] == 20 - 4 and g.state["supply"][MING] == 20  # turn player pays
    g.do(JOSEON, {"type": "fight"})
    g.do(JOSEON, {"type": "resolve", "battle": 0}, rng=scripted("車徽徽", "車徽"))
    # steals go between the turn player and the target's controller
    assert g.state["supply"][JOSEON] == 16 + 2 - 2 and g.state["supply"][KATO] == 20 - 2 + 2


def test_recruit_only_onto_own_units_and_team_stacking():
    g = fresh()

    def setup(s):
        clear_board(s)
        put(s, "u1", MING, "PA_W", 2)
        put(s, "u9", KATO, "GS_L", 1)
        prompt(
            s,
            {"kind": "recruit", "seat": JOSEON, "mode": "action", "max_areas": None, "count": 0, "areas": {}},
            action="recruit_reorganize",
        )

    g.edit(setup)
    here = [c for c in g.legal(JOSEON) if c["type"] == "recruit" and c["area"] == "PA_W"]
    assert here and all(c["unit"] is None for c in here)
    g.edit(lambda s: put(s, "u2", MING, "PA_W", 1))
    assert not [c for c in g.legal(JOSEON) if c["type"] == "recruit" and c["area"] == "PA_W"]


def test_moves_only_own_units():
    g = fresh()
    g.edit(
        lambda s: (
            clear_board(s),
            put(s, "u1", MING, "PA_W", 2),
            put(s, "u2", JOSEON, "PA_E", 1),
            put(s, "u9", KATO, "GS_L", 1),
            prompt(s, {"kind": "move", "seat": JOSEON, "mode": "action", "moved": []}, act={"sea_start": []}),
        )
    )
    assert {c["unit"] for c in g.legal(JOSEON) if c["type"] == "move"} == {"u2"}


def test_hand_of_four_with_leader_and_private_legendary_choice_order():
    g = Game(4)
    assert [p["seat"] for p in prompts(g.state)] == [KATO, KONISHI, JOSEON, MING]
    g.do(KATO, {"type": "choose_legendary", "general": None})
    g.do(KONISHI, {"type": "choose_legendary", "general": "sanada_yukimura"})
    assert g.legal(JOSEON)[1:] and "sanada_yukimura" not in [c["general"] for c in g.legal(JOSEON)]
    g.do(JOSEON, {"type": "choose_legendary", "general": "qi_jiguang"})
    assert g.legal(MING) == [{"type": "choose_legendary", "general": None}]
    g.do(MING, {"type": "choose_legendary", "general": None})
    assert g.state["supply"] == [20, 10, 10, 20]
    g.skip_setup()
    assert "sanada_yukimura" in g.state["hands"][KONISHI] and len(g.state["hands"][KONISHI]) == 4


def test_four_player_reset_deploy_each_mate_decides_own_hand():
    """Hands are private (team-mates do not see each other's cards): the team's first
    seat may deploy from his own hand or pass; then his team-mate may. One per side."""
    from imjin_helpers import force_card, reveal_now

    g = fresh()
    in_hand(g.state, KONISHI, "kuroda_nagamasa")
    force_card(g, "reset")
    reveal_now(g)
    assert g.head["kind"] == "reset_deploy" and g.head["seat"] == KATO
    kato_cmds = [c for c in g.legal(KATO) if c["type"] == "deploy"]
    assert kato_cmds and all(c["general"] in g.state["hands"][KATO] for c in kato_cmds)
    assert all(g.state["units"][c["unit"]]["owner"] == KATO for c in kato_cmds)
    assert "kuroda_nagamasa" not in {c["general"] for c in kato_cmds}  # Konishi's card is not his
    assert g.legal(KONISHI) == []
    with pytest.raises(IllegalCommand):
        unit = next(u for u, d in g.state["units"].items() if d["owner"] == KONISHI and not d["general"])
        g.do(KATO, {"type": "deploy", "general": "kuroda_nagamasa", "unit": unit})
    g.do(KATO, {"type": "pass"})
    assert g.head["kind"] == "reset_deploy" and g.head["seat"] == KONISHI and g.head["side"] == "japan"
    cmds = [c for c in g.legal(KONISHI) if c["type"] == "deploy"]
    assert {"kuroda_nagamasa"} <= {c["general"] for c in cmds}
    assert all(g.state["units"][c["unit"]]["owner"] == KONISHI for c in cmds)
    unit = next(c["unit"] for c in cmds if c["general"] == "kuroda_nagamasa")
    before = list(g.state["supply"])
    g.do(KONISHI, {"type": "deploy", "general": "kuroda_nagamasa", "unit": unit})
    assert g.state["supply"][KONISHI] == before[KONISHI] - 5 and g.state["supply"][KATO] == before[KATO]
    # Japan has deployed its one general: next comes the allies' first seat (Joseon)
    assert g.head["kind"] == "reset_deploy" and g.head["side"] == "allies" and g.head["seat"] == JOSEON
    g.do(JOSEON, {"type": "pass"})
    assert g.head["kind"] == "reset_deploy" and g.head["seat"] == MING
    g.do(MING, {"type": "pass"})
    assert g.head["kind"] != "reset_deploy"
