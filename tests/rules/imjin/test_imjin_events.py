"""One focused test per event card (§7) plus the deck and timed effects."""

import pytest
from imjin_helpers import (
    Game,
    clear_board,
    force_card,
    in_hand,
    prompt,
    put,
    reveal_now,
    run_defaults_until,
    scripted,
)

from games.rules.imjin import events as ev
from games.rules.imjin.rules import RULES
from games.rules.imjin.state import head_prompt, prompts, set_prompts, stage

J, A = 0, 1


def fresh(n=2):
    return Game(n, options={"legendary_generals": []}).skip_setup()


def revealed(g):
    return [e.payload["card"] for e in g.events if e.type == ev.EVENT_REVEALED]


def test_deck_reset_is_among_last_three():
    positions = []
    for seed in range(40):
        g = Game(2, options={"legendary_generals": []}, seed=f"d{seed}").skip_setup()
        for _ in range(400):
            if "reset" in revealed(g) or RULES.outcome(g.state):
                break
            seat = RULES.pending(g.state)[0].seat
            g.do(seat, dict(RULES.default_command(g.state, seat)))
        cards = revealed(g)
        positions.append(cards.index("reset") + 1)
        assert len(set(cards[: cards.index("reset")])) == cards.index("reset")  # no repeats
    assert set(positions) <= {6, 7, 8} and len(set(positions)) >= 2


@pytest.mark.parametrize(
    "card,side,delta",
    [("court_granary", A, 5), ("crop_blight", A, -5), ("military_farms", J, 5), ("fleet_wreck", J, -5)],
)
def test_supply_cards_two_players(card, side, delta):
    g = force_card(fresh(), card)
    g.edit(lambda s: s.__setitem__("supply", [30, 3]))
    reveal_now(g)
    expect = [30, 3]
    expect[side] = max(0, expect[side] + delta)  # stock floored at 0
    assert g.state["supply"] == expect


def test_supply_card_split_four_players():
    g = force_card(fresh(4), "court_granary")
    reveal_now(g)  # Kato's turn: the allied chooser is Joseon (next allied seat)
    assert g.head["kind"] == "split" and g.head["seat"] == 1
    g.do(1, {"type": "split", "mine": 2})
    assert g.state["supply"][1] == 22 and g.state["supply"][3] == 23


def test_rumours_returns_enemy_generals():
    g = fresh()

    def setup(s):
        clear_board(s)
        put(s, "u1", J, "GS_L", 5, "mori_hidemoto", damage=2)
        put(s, "u2", A, "HG_N", 2, "li_rusong")

    g.edit(setup)
    force_card(g, "rumours")
    reveal_now(g)
    assert g.head == {"kind": "choose_general", "seat": J, "side": "japan", "card": "rumours"}
    g.do(J, {"type": "choose_general", "general": "li_rusong"})
    g.do(A, {"type": "choose_general", "general": "mori_hidemoto"})
    s = g.state
    assert s["generals"]["mori_hidemoto"]["where"] == "hand" and s["generals"]["mori_hidemoto"]["damage"] == 0
    assert s["units"]["u1"]["troops"] == 4 and s["units"]["u2"]["general"] is None


def test_peace_talks_forbids_attacks_until_card_after_next():
    g = fresh()
    g.edit(lambda s: (clear_board(s), put(s, "u1", J, "GW_W", 2), put(s, "u2", A, "GW_E", 2)))
    force_card(g, "peace_talks")
    reveal_now(g)
    g = run_defaults_until(g, ["declare"])
    assert g.legal(J) == [{"type": "fight"}]
    assert [t["card"] for t in g.state["timed"]] == ["peace_talks"]
    g.edit(lambda s: s["deck"].update(pool=["plague"]))
    from games.rules.imjin.context import Ctx
    from games.rules.imjin.event_cards import reveal

    ctx = Ctx(g.state, lambda p: __import__("games.rules.base", fromlist=["Rng"]).Rng("x", 1, p))
    reveal(ctx)
    assert [t["card"] for t in ctx.state["timed"]] == ["peace_talks"]  # next card: still on
    ctx.state["deck"]["pool"] = ["plague"]
    reveal(ctx)
    assert ctx.state["timed"] == []  # card after next: over


def recruit_prompt(s, seat=A, mode="action"):
    prompt(
        s,
        {"kind": "recruit", "seat": seat, "mode": mode, "max_areas": None, "count": 0, "areas": {}},
        action="recruit_reorganize",
    )


def test_draft_dodging_doubles_recruiting():
    g = fresh()
    g.edit(lambda s: (s.__setitem__("timed", [{"card": "draft_dodging", "left": 2}]), recruit_prompt(s)))
    before = g.state["supply"][A]
    g.do(A, {"type": "recruit", "area": "PA_W", "unit": None, "count": 2})
    assert g.state["supply"][A] == before - 4


def test_torrential_rain_doubles_move_and_battle_costs():
    g = fresh()

    def setup(s):
        clear_board(s)
        put(s, "u1", A, "HG_N", 2)
        put(s, "u2", A, "GG_R", 3)
        put(s, "u3", J, "GW_W", 1)
        s["timed"] = [{"card": "torrential_rain", "left": 2}]
        s["supply"] = [30, 30]
        prompt(s, {"kind": "move", "seat": A, "mode": "action", "moved": []}, act={"sea_start": []})
        set_prompts(s, [*prompts(s), {"kind": "declare", "seat": A, "draft": None}])

    g.edit(setup)
    g.do(A, {"type": "move", "unit": "u1", "path": ["HG_S"]})
    assert g.state["supply"][A] == 26
    g.do(A, {"type": "done"})
    g.do(A, {"type": "attack", "target": "u3", "main": "u2", "via": None, "mode": "normal"})
    g.do(A, {"type": "confirm"})
    assert g.state["supply"][A] == 20


def test_bumper_harvest_both_collect():
    g = force_card(fresh(), "bumper_harvest")
    reveal_now(g)
    assert g.state["supply"] == [50, 54]


def test_reinforcements_two_areas_no_reorganize():
    g = force_card(fresh(), "reinforcements")
    reveal_now(g)
    assert g.head["kind"] == "recruit" and g.head["max_areas"] == 2 and g.head["seat"] == J
    g.do(J, {"type": "recruit", "area": "GS_L", "unit": None, "count": 1})
    g.do(J, {"type": "recruit", "area": "CC_L", "unit": None, "count": 1})
    areas = {c["area"] for c in g.legal(J) if c["type"] == "recruit"}
    assert areas == {"GS_L", "CC_L"}
    g.do(J, {"type": "done"})
    assert g.head["kind"] == "recruit" and g.head["seat"] == A


def test_reinforcements_four_players_distinct_areas():
    g = force_card(fresh(4), "reinforcements")
    reveal_now(g)
    assert [g.head["seat"]] == [0] and g.head["max_areas"] == 1
    g.do(0, {"type": "recruit", "area": "GS_L", "unit": None, "count": 1})
    g.do(0, {"type": "done"})
    g.do(1, {"type": "done"})
    assert g.head["seat"] == 2
    assert "GS_L" not in {c["area"] for c in g.legal(2) if c["type"] == "recruit"}


def test_great_reinforcements_full_recruitment_each():
    g = force_card(fresh(), "great_reinforcements")
    reveal_now(g)
    assert g.head["max_areas"] is None
    n = 0
    while [c for c in g.legal(J) if c["type"] == "recruit"]:
        c = next(c for c in g.legal(J) if c["type"] == "recruit")
        g.do(J, c)
        n += c["count"]
    assert n == 8


def test_assassination_cannot_kill():
    g = fresh()
    g.edit(
        lambda s: (
            clear_board(s),
            put(s, "u1", J, "GS_L", 2, "kuroda_nagamasa", damage=2),
            put(s, "u2", A, "HG_N", 2, "seosan", damage=1),
        )
    )
    force_card(g, "assassination")
    reveal_now(g)
    assert g.legal(A) == [] and g.legal(J) == [{"type": "choose_general", "general": "seosan"}]
    g.do(J, {"type": "choose_general", "general": "seosan"})
    # 黑田 has 1 HP left: not a legal choice, the allied part has no effect
    assert g.state["generals"]["seosan"]["damage"] == 2
    assert g.state["generals"]["kuroda_nagamasa"]["damage"] == 2


def test_army_surgeon_heals_one():
    g = fresh()
    g.edit(
        lambda s: (
            clear_board(s),
            put(s, "u1", J, "GS_L", 2, "kuroda_nagamasa", damage=2),
            put(s, "u2", A, "HG_N", 2, "seosan"),
        )
    )
    force_card(g, "army_surgeon")
    reveal_now(g)
    g.do(J, {"type": "choose_general", "general": "kuroda_nagamasa"})
    assert g.state["generals"]["kuroda_nagamasa"]["damage"] == 1


def test_typhoon_blocks_sea_units_and_sea_entry():
    g = fresh()

    def setup(s):
        clear_board(s)
        put(s, "u1", A, "DDB", 2)
        put(s, "u2", A, "PA_W", 2)
        put(s, "u3", J, "GGB", 1)
        s["timed"] = [{"card": "typhoon", "left": 2}]
        prompt(s, {"kind": "move", "seat": A, "mode": "action", "moved": []}, act={"sea_start": ["u1"]})
        set_prompts(s, [*prompts(s), {"kind": "declare", "seat": A, "draft": None}])

    g.edit(setup)
    moves = [c for c in g.legal(A) if c["type"] == "move"]
    assert moves and all(c["unit"] == "u2" and c["path"] in (["HH_L"], ["HH_R"], ["PA_E"]) for c in moves)
    g.do(A, {"type": "done"})
    assert g.legal(A) == [{"type": "fight"}]  # sea unit may not attack


def test_redeployment_budget_no_battles_no_rain():
    g = fresh()
    g.edit(
        lambda s: (
            clear_board(s),
            put(s, "u1", J, "GS_L", 4),
            put(s, "u2", J, "GS_R", 3),
            put(s, "u3", J, "CC_L", 2),
            put(s, "u4", A, "HG_N", 1),
            s.__setitem__("timed", [{"card": "torrential_rain", "left": 1}]),
        )
    )
    force_card(g, "redeployment")
    reveal_now(g)
    assert g.head["kind"] == "move" and g.head["mode"] == "redeploy"
    g.do(J, {"type": "move", "unit": "u1", "path": ["GW_E"]})
    assert g.state["control"]["GW_E"] == "japan"
    assert g.head["budget"] == 4  # 8 − 4, not doubled by the rain
    assert not [c for c in g.legal(J) if c["type"] not in ("move", "swap", "done")]  # no battles
    g.do(J, {"type": "move", "unit": "u2", "path": ["GS_L"]})
    assert not [c for c in g.legal(J) if c.get("unit") == "u3"]  # 2 > budget 1


def test_plague_cuts_land_units_to_three():
    g = fresh()
    g.edit(
        lambda s: (
            clear_board(s),
            put(s, "u1", J, "GS_L", 4),
            put(s, "u2", J, "TS_E", 4),
            put(s, "u3", A, "HG_N", 4),
        )
    )
    force_card(g, "plague")
    reveal_now(g)
    u = g.state["units"]
    assert (u["u1"]["troops"], u["u2"]["troops"], u["u3"]["troops"]) == (3, 4, 3)


def test_infighting_blocks_general_management():
    g = fresh()
    g.edit(
        lambda s: (
            s.__setitem__("timed", [{"card": "infighting", "left": 2}]),
            prompt(
                s,
                {"kind": "manage", "seat": J, "deployed": False, "blocked_generals": [], "blocked_units": []},
                action="supply_general",
            ),
        )
    )
    assert g.legal(J) == [{"type": "done"}]


def test_reset_deploy_rebuild_and_extra_card():
    g = force_card(fresh(), "reset")
    in_hand(g.state, J, "kuroda_nagamasa")
    reveal_now(g)
    assert g.state["resets"] == 1
    assert g.head["kind"] == "reset_deploy" and g.head["seat"] == J
    uid = next(c["unit"] for c in g.legal(J) if c["type"] == "deploy")
    g.do(J, {"type": "deploy", "general": g.legal(J)[1]["general"], "unit": uid})
    g.do(A, {"type": "pass"})
    cards = revealed(g)
    assert cards[-2] == "reset" and cards[-1] != "reset"  # step 4: one more card
    assert g.state["deck"]["drawn"] == 1 and len(g.state["deck"]["pool"]) == 16


def test_third_reset_ends_game_after_the_turn():
    g = force_card(fresh(), "reset", resets=2)
    reveal_now(g)
    g.do(J, {"type": "pass"})
    g.do(A, {"type": "pass"})
    assert stage(g.state)["ending"] and RULES.outcome(g.state) is None
    assert revealed(g)[-1] == "reset"  # no extra card on the third draw
    run_defaults_until(g, [])
    out = RULES.outcome(g.state)
    assert out is not None and "third Reset" in out.reason


def test_scripted_helper_is_used():
    assert scripted("砲")("battle").randbelow(6) == 2


def test_typhoon_forbids_advancing_into_the_sea():
    from imjin_helpers import duel, fight

    g = duel(att=A, extra=[("u3", A, "HH_R", 3), ("u4", J, "GGB", 1)])
    g.edit(lambda s: s.__setitem__("timed", [{"card": "typhoon", "left": 2}]))
    fight(g, target="u4", main="u3", dice=("砲徽徽", "徽"))
    assert "u4" not in g.state["units"]
    assert head_prompt(g.state)["kind"] != "advance"


def test_peace_talks_blocks_gwak_attack_and_forced_taunt():
    from games.rules.imjin.flow import forced_taunt

    g = fresh()

    def setup(s):
        clear_board(s)
        put(s, "u1", J, "GW_W", 2, "kato_kiyomasa")
        put(s, "u2", A, "GW_E", 2, "nongae")
        s["taunt"] = {"unit": "u1", "general": "kato_kiyomasa"}
        stage(s)["turn"] = J

    g.edit(setup)
    assert forced_taunt(g.state) is not None
    g.edit(lambda s: s.__setitem__("timed", [{"card": "peace_talks", "left": 1}]))
    assert forced_taunt(g.state) is None


def test_mori_enters_with_two_on_reset_deploy():
    g = fresh()
    g.edit(
        lambda s: (
            clear_board(s),
            put(s, "u1", J, "GS_L", 2),
            put(s, "u2", A, "HG_N", 1),
            in_hand(s, J, "mori_hidemoto"),
        )
    )
    force_card(g, "reset")
    reveal_now(g)
    g.do(J, {"type": "deploy", "general": "mori_hidemoto", "unit": "u1"})
    assert g.state["units"]["u1"]["troops"] == 4 and g.state["supply"][J] == 25


def test_timed_effect_counts_reset_and_extra_card():
    g = fresh()
    g.edit(lambda s: s.__setitem__("timed", [{"card": "torrential_rain", "left": 2}]))
    force_card(g, "reset")
    reveal_now(g)
    g.do(J, {"type": "pass"})
    g.do(A, {"type": "pass"})
    # reset = first subsequent reveal, the extra card = second: the rain is over
    assert not [t for t in g.state["timed"] if t["card"] == "torrential_rain"]
