"""The worked examples of the seed rulebook, with their numbers (§3.3–§3.5, §4)."""

from imjin_helpers import Game, clear_board, prompt, put, scripted

from games.rules.imjin import events as ev
from games.rules.imjin.state import income, stage

J, A = 0, 1


def strip_generals(s):
    for u in s["units"].values():
        u["general"] = None
    for g, r in list(s["generals"].items()):
        if r["where"] == "map":
            s["hands"][r["owner"]].append(g)
            del s["generals"][g]


def uid_in(s, area, owner):
    return sorted(
        (u for u, d in s["units"].items() if d["area"] == area and d["owner"] == owner),
        key=lambda u: int(u[1:]),
    )


def test_bob_supply_general_example():
    """Stock 5 → +20 = 25; deploy 九鬼嘉隆 → 20; replace 加藤清正 (1 damage) by
    小早川隆景 who inherits it → 17; recall 立花宗茂 (2 damage) → 14."""
    g = Game(2).skip_setup(
        hands={J: ["kuki_yoshitaka", "kobayakawa_takakage", "kato_kiyomasa", "tachibana_muneshige"]}
    )

    def setup(s):
        strip_generals(s)
        s["supply"][J] = 5
        put(s, uid_in(s, "GW_W", J)[0], J, "GW_W", 2, "kato_kiyomasa", damage=1)
        put(s, uid_in(s, "GG_L", J)[0], J, "GG_L", 2, "tachibana_muneshige", damage=2)

    g.edit(setup)
    s = g.state
    assert income(s, "japan") == 20
    g.do(J, {"type": "advance", "steps": 1})  # M → S: no divider crossed
    assert not [e for e in g.events if e.type == ev.EVENT_REVEALED]
    assert g.state["supply"][J] == 25
    ts_e = uid_in(g.state, "TS_E", J)[0]
    g.do(J, {"type": "deploy", "general": "kuki_yoshitaka", "unit": ts_e})
    assert g.state["supply"][J] == 20
    kato_unit = g.state["generals"]["kato_kiyomasa"]["unit"]
    g.do(J, {"type": "replace", "unit": kato_unit, "general": "kobayakawa_takakage"})
    assert g.state["supply"][J] == 17
    assert g.state["generals"]["kobayakawa_takakage"]["damage"] == 1
    assert "kato_kiyomasa" in g.state["hands"][J]
    mune_unit = g.state["generals"]["tachibana_muneshige"]["unit"]
    g.do(J, {"type": "recall", "unit": mune_unit})
    assert g.state["supply"][J] == 14
    assert g.state["generals"]["tachibana_muneshige"]["where"] == "hand"
    # recalled / replaced cards cannot be deployed again in the same action
    legal = g.legal(J)
    assert not any(c["type"] == "deploy" for c in legal)  # deploy already used anyway
    assert not any(c["type"] == "deploy" and c["general"] == "kato_kiyomasa" for c in legal)
    # the seed only forbids *deploying* them again; replacing with them stays legal (I-4)
    assert {"type": "replace", "unit": ts_e, "general": "kato_kiyomasa"} in legal


def test_james_recruit_example():
    """京畿右道 A+2 B+1, 黃海右道 C+2 + new D 1, 江原東道 E+1, 黃海左道 F+1 = 8; then
    reorganize 黃海左道 G 2→1, F 3→4."""
    g = Game(2).skip_setup()
    g.edit(
        lambda s: prompt(
            s,
            {"kind": "recruit", "seat": A, "mode": "action", "max_areas": None, "count": 0, "areas": {}},
            action="recruit_reorganize",
        )
    )
    s = g.state
    a, b = uid_in(s, "GG_R", A)
    (c,) = uid_in(s, "HH_R", A)
    (e,) = uid_in(s, "GW_E", A)
    f, gg = uid_in(s, "HH_L", A)
    start = s["supply"][A]
    for area, unit, k in [
        ("GG_R", a, 2),
        ("GG_R", b, 1),
        ("HH_R", c, 2),
        ("HH_R", None, 1),
        ("GW_E", e, 1),
        ("HH_L", f, 1),
    ]:
        g.do(A, {"type": "recruit", "area": area, "unit": unit, "count": k})
    s = g.state
    assert start - s["supply"][A] == 8
    assert [s["units"][u]["troops"] for u in (a, b, c, e, f, gg)] == [4, 3, 4, 3, 3, 2]
    assert len(uid_in(s, "HH_R", A)) == 2
    assert not [c for c in g.legal(A) if c["type"] == "recruit"]  # 8 is the maximum
    g.do(A, {"type": "done"})
    assert g.head["kind"] == "reorganize"
    assert set(g.head["areas"]) == {"GG_R", "HH_R", "HH_L"}
    g.do(A, {"type": "reorganize", "area": "HH_L", "troops": [4, 1]})
    assert g.state["units"][f]["troops"] == 4 and g.state["units"][gg]["troops"] == 1


def test_recruit_caps_from_james_example():
    g = Game(2).skip_setup()
    g.edit(
        lambda s: prompt(
            s,
            {"kind": "recruit", "seat": A, "mode": "action", "max_areas": None, "count": 0, "areas": {}},
            action="recruit_reorganize",
        )
    )
    legal = g.legal(A)
    per_area = {}
    for c in legal:
        if c["type"] == "recruit":
            per_area[c["area"]] = max(per_area.get(c["area"], 0), c["count"])
    assert per_area["GG_R"] == 2  # both units hold 2: room 2 each, cap 3
    assert per_area["GW_E"] == 1 and per_area["HH_L"] == 2 and per_area["HH_R"] == 3
    assert "TS_E" not in per_area and "GGB" not in per_area  # Japanese channel / no cap icon


def lisa_board(s):
    clear_board(s)
    put(s, "u1", A, "PA_E", 1)  # A
    put(s, "u2", A, "HH_R", 4)  # B
    put(s, "u3", A, "HH_L", 2)  # C
    put(s, "u4", A, "WKB", 4)  # D
    put(s, "u9", J, "GS_L", 2)


def test_lisa_movement_example():
    """A 平安東道→咸鏡南道 (1), swap B(4)/C(2) (6), D 西朝鮮灣→黃海→大明海 (4): 11."""
    g = Game(2).skip_setup()

    def setup(s):
        lisa_board(s)
        s["supply"][A] = 30
        prompt(s, {"kind": "move", "seat": A, "mode": "action", "moved": []}, act={"sea_start": ["u4"]})

    g.edit(setup)
    g.do(A, {"type": "move", "unit": "u1", "path": ["HG_S"]})
    g.do(A, {"type": "swap", "unit": "u2", "with": "u3"})
    g.do(A, {"type": "move", "unit": "u4", "path": ["YS", "DMS"]})
    s = g.state
    assert s["supply"][A] == 30 - 11
    assert [s["units"][u]["area"] for u in ("u1", "u2", "u3", "u4")] == ["HG_S", "HH_L", "HH_R", "DMS"]
    # every unit moves once
    assert not [c for c in g.legal(A) if c["type"] in ("move", "swap")]


def lisa_battle_board(s):
    clear_board(s)
    put(s, "u1", J, "GW_W", 4)  # X
    put(s, "u2", J, "GGB", 2)  # Y
    put(s, "u3", A, "GG_R", 4)  # E
    put(s, "u4", A, "HG_S", 1)  # F
    put(s, "u5", A, "GW_E", 4)  # G
    put(s, "u6", A, "WKB", 2)  # H
    put(s, "u7", A, "DDB", 2)  # I
    put(s, "u8", A, "GG_R", 2)  # J
    s["supply"] = [10, 30]
    prompt(s, {"kind": "declare", "seat": A, "draft": None}, act={"sea_start": ["u6", "u7"]})


def test_lisa_battle_example():
    """Land: X(4) by E(4) + F(1) + G(4): cost 9, dice 6 vs 4. Sea: Y(2) by H after a
    free move 西朝鮮灣→黃海, + I: cost 4, dice 3 vs 2; J cannot support."""
    g = Game(2).skip_setup().edit(lisa_battle_board)
    g.do(A, {"type": "attack", "target": "u1", "main": "u3", "via": None, "mode": "normal"})
    g.do(A, {"type": "support", "unit": "u4"})
    g.do(A, {"type": "support", "unit": "u5"})
    g.do(A, {"type": "confirm"})
    assert g.state["supply"][A] == 30 - 9
    attack_y = {"type": "attack", "target": "u2", "main": "u6", "via": "YS", "mode": "normal"}
    assert {"type": "attack", "target": "u2", "main": "u6", "via": None, "mode": "normal"} not in g.legal(A)
    g.do(A, attack_y)
    supports = [c["unit"] for c in g.legal(A) if c["type"] == "support"]
    assert supports == ["u7"]  # J (land, 京畿右道) may not support a sea battle
    g.do(A, {"type": "support", "unit": "u7"})
    g.do(A, {"type": "confirm"})
    assert g.state["supply"][A] == 30 - 13
    assert g.state["units"]["u6"]["area"] == "YS"
    g.do(A, {"type": "fight"})
    g.do(A, {"type": "resolve", "battle": 0}, rng=scripted("馬砲將車車徽", "船砲徽徽"))
    land = [e for e in g.events if e.type == ev.BATTLE_RESOLVED][-1].payload
    assert len(land["attacker_dice"]) == 6 and len(land["defender_dice"]) == 4
    s = g.state
    assert s["units"]["u1"]["troops"] == 2  # X −2 (馬 砲)
    assert s["units"]["u3"]["troops"] == 3  # E −1 (砲; 船 is dead on land)
    assert s["supply"] == [10 - 4, 30 - 13 + 4]  # two 車 steal 4
    assert s["control"]["GW_W"] == "japan"  # X survives: no advance, no change
    g.do(A, {"type": "resolve", "battle": 1}, rng=scripted("船船徽", "砲徽"))
    sea = [e for e in g.events if e.type == ev.BATTLE_RESOLVED][-1].payload
    assert len(sea["attacker_dice"]) == 3 and len(sea["defender_dice"]) == 2
    assert "u2" not in g.state["units"] and g.state["units"]["u6"]["troops"] == 1
    assert g.head["kind"] == "advance"
    g.do(A, {"type": "advance_into", "go": True})
    assert g.state["units"]["u6"]["area"] == "GGB"


def test_wheel_examples():
    """Bob M→S (1 step): no event. Lisa pays 8 for a third step M→M: event first."""
    g = Game(2).skip_setup()
    g.do(J, {"type": "advance", "steps": 1})
    assert not [e for e in g.events if e.type == ev.EVENT_REVEALED]
    while stage(g.state)["turn"] == J:
        g.do(J, rules_default(g, J))
    before = g.state["supply"][A]
    g.do(A, {"type": "advance", "steps": 3})
    assert g.state["wheel"]["allies"] == 3
    assert [e for e in g.events if e.type == ev.EVENT_REVEALED]
    assert g.state["supply"][A] <= before - 8 + 5  # paid 8 (an event may give at most 5)


def rules_default(g, seat):
    from games.rules.imjin.rules import RULES

    return dict(RULES.default_command(g.state, seat))


def test_lisa_pays_third_step_redeployment_then_her_move_battle():
    """Seed: Lisa pays 8 and steps M→M, 大調度 is revealed; Lisa then Bob redeploy,
    and only then does Lisa take her Move/Battle action."""
    from imjin_helpers import force_card

    g = Game(2, options={"legendary_generals": []}).skip_setup()
    g.do(J, {"type": "advance", "steps": 1})
    while stage(g.state)["turn"] == J:
        g.do(J, rules_default(g, J))
    force_card(g, "redeployment")
    g.do(A, {"type": "advance", "steps": 3})
    assert g.state["supply"][A] == 30 - 8
    assert (g.head["kind"], g.head["seat"], g.head["mode"]) == ("move", A, "redeploy")
    g.do(A, {"type": "done"})
    assert (g.head["kind"], g.head["seat"], g.head["mode"]) == ("move", J, "redeploy")
    g.do(J, {"type": "done"})
    assert (g.head["kind"], g.head["seat"], g.head["mode"]) == ("move", A, "action")


def test_lisa_battle_example_side_remarks():
    """p.s. A (moved 平安東道→咸鏡南道 this action) may not support the attack on X;
    J (京畿右道, 4 troops) may not support the sea battle; and had Lisa made I the main
    unit against Y, H could not move 西朝鮮灣→黃海 to support (only a main unit may)."""
    g = Game(2).skip_setup()

    def setup(s):
        lisa_battle_board(s)
        s["units"]["u8"]["troops"] = 4
        put(s, "u9", A, "HG_S", 1)  # A, moved this action
        s["act"]["moved"] = ["u9"]

    g.edit(setup)
    assert not [c for c in g.legal(A) if c["type"] == "attack" and c["main"] == "u9"]
    g.do(A, {"type": "attack", "target": "u1", "main": "u3", "via": None, "mode": "normal"})
    assert [c["unit"] for c in g.legal(A) if c["type"] == "support"] == ["u4", "u5", "u8"]
    g.do(A, {"type": "cancel"})
    g.do(A, {"type": "attack", "target": "u2", "main": "u7", "via": None, "mode": "normal"})
    assert [c["unit"] for c in g.legal(A) if c["type"] == "support"] == []  # neither H nor J
