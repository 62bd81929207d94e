"""Phase sequencing: the step machine and its tables (who must act next, and what
runs without input).

The position is a stack of frames (frames.py). `run` pops and executes
automatic frames until the top frame waits for a player's input (or the game
ends). Every frame kind is declared here, as data:

- `AUTO[kind](s, frame, ctx)`: runs without input; pops itself or pushes sub-frames.
- `DECISIONS[kind] = Decision(pending, legal, decide, default, name)`: waits for a
  command. Here `pending(s, frame) -> seats`, `legal(s, frame, seat) -> commands`,
  `decide(s, frame, seat, cmd, ctx)` (None: `rules.py` handles the command: the
  secret bids and Mandate choices), `default(s, frame, seat) -> command`.
- `PROMPTS[what](s, frame, choice, ctx)`: the effect of a generic pick prompt
  (frame kind "prompt" with an explicit option list `options`).
- `SIMULTANEOUS[what]` / `OWN_EFFECTS[what]`: timing conflicts (timing.py).

The phase modules never import this one (it imports them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..base import IllegalCommand
from ..kit import Decision
from . import battle, figures, kami, movement, politics, tea, timing, war
from .frames import Command, Ctx, pop
from .state import ADVANTAGES, Frame, State, top, version

Auto = Callable[[State, Frame, Ctx], None]
PromptEffect = Callable[[State, Frame, Any, Ctx], None]  # the choice: one of the frame's options

SIMULTANEOUS: dict[str, Callable[[State, int], None]] = {
    "end_of_recruit": figures.end_of_recruit_of,
    "war_upgrade": war.war_upgrades_of,
}
OWN_EFFECTS: dict[str, Callable[[State, int, str], None]] = {
    "after_summon": figures.after_summon_card,
    "war_upgrade": war.resolve_war_upgrade,
}


def _simul_step(s: State, f: Frame, ctx: Ctx) -> None:
    seat = timing.next_seat(s, f)
    if seat is not None:
        SIMULTANEOUS[f["what"]](s, seat)


def _own_step(s: State, f: Frame, ctx: Ctx) -> None:
    card = timing.next_own(s, f)
    if card is not None:
        OWN_EFFECTS[f["what"]](s, f["seat"], card)


def _own_pick(s: State, p: Frame, choice: Any, ctx: Ctx) -> None:
    f = timing.take_own(s, choice)
    OWN_EFFECTS[f["what"]](s, f["seat"], choice)


AUTO: dict[str, Auto] = {
    "season_start": war.season_start_step,
    "political": politics.political_step,
    "mandate": politics.mandate_step,
    "build_check": politics.build_check_step,
    "kami": kami.kami_step,
    "war_start": war.war_start_step,
    "war": war.war_step,
    "battle": battle.battle_step,
    "cleanup": war.cleanup_step,
    "winter": war.winter_step,
    "hate": figures.hate_step,
    "kill": figures.kill_step,
    "after_summon": figures.after_summon_step,
    "lose_honor": figures.lose_honor_step,
    "simul": _simul_step,
    "own": _own_step,
}

PROMPTS: dict[str, PromptEffect] = {
    "seppuku": battle.on_seppuku,
    "take_hostage": battle.on_take_hostage,
    "hire_ronin": battle.on_hire_ronin,
    "imperial_poets": battle.on_imperial_poets,
    "reparations": battle.on_reparations,
    "oni_of_hate": figures.on_oni_of_hate,
    "mercy": figures.on_mercy,
    "path_of_the_monkey": figures.on_path_of_the_monkey,
    "path_of_the_ninja": figures.on_path_of_the_ninja,
    "path_of_the_kenin": figures.on_path_of_the_kenin,
    "path_of_the_samurai": figures.on_path_of_the_samurai,
    "path_of_the_light": figures.on_path_of_the_light,
    "path_of_the_serpent": movement.on_path_of_the_serpent,
    "benevolence": politics.on_benevolence,
    **{f"{what}_timing": timing.on_timing for what in SIMULTANEOUS},
    **{f"{what}_order": _own_pick for what in OWN_EFFECTS},
}


# ------------------------------------------------------------------ decisions


def _frame_seat(s: State, f: Frame) -> list[int]:
    return [f["seat"]]


def _done(s: State, f: Frame, seat: int) -> Command:
    return {"type": "done"}


def _prompt_legal(s: State, f: Frame, seat: int) -> list[Command]:
    return [{"type": "choose", "choice": o} for o in f["options"]]


def _prompt_decide(s: State, f: Frame, seat: int, cmd: Command, ctx: Ctx) -> None:
    if cmd["type"] != "choose":
        raise IllegalCommand("choose one of the offered options")
    if cmd.get("choice") not in f["options"]:
        raise IllegalCommand("that option is not offered")
    pop(s)
    PROMPTS[f["what"]](s, f, cmd["choice"], ctx)


def _prompt_default(s: State, f: Frame, seat: int) -> Command:
    return {"type": "choose", "choice": f["options"][0]}


def _tea_default(s: State, f: Frame, seat: int) -> Command:
    incoming = tea.incoming(s, seat)
    if incoming and version(s) < 3:  # v3: unanswered proposals lapse at the end
        return {"type": "decline_alliance", "from": incoming[0]["from"]}
    return {"type": "tea_done"}


def _zero_bid(s: State, f: Frame, seat: int) -> Command:
    return {"type": "bid", **{a: 0 for a in ADVANTAGES}}


def _first_tile(s: State, f: Frame, seat: int) -> Command:
    tile = politics.drawn(s)[0]
    cmd: Command = {"type": "choose_mandate", "tile": tile}
    if s["clans"][seat] == "Lotus":
        cmd["declare"] = tile
    return cmd


def _first_place(s: State, f: Frame, seat: int) -> Command:
    return politics.place_monster_legal(s, f, seat)[0]


def _asked(legal: Callable[..., list[Command]], decide: Callable[..., None], name: str) -> Decision:
    """A decision of the frame's own seat that ends with "done" when missed."""
    return Decision(pending=_frame_seat, legal=legal, decide=decide, default=_done, name=name)


DECISIONS: dict[str, Decision] = {
    "prompt": Decision(_frame_seat, _prompt_legal, _prompt_decide, _prompt_default, name="prompt"),
    "tea": Decision(tea.tea_pending, tea.tea_legal, tea.tea_apply, _tea_default, name="tea_ceremony"),
    "choose_mandate": Decision(_frame_seat, politics.choose_legal, None, _first_tile, name="choose_mandate"),
    "bidding": Decision(battle.bidding_pending, battle.bidding_legal, None, _zero_bid, name="war_bid"),
    "recruit": _asked(politics.recruit_legal, politics.recruit_apply, "recruit"),
    "marshal": _asked(politics.marshal_legal, politics.marshal_apply, "marshal"),
    "build": _asked(politics.build_legal, politics.build_apply, "build"),
    "train": _asked(politics.train_legal, politics.train_apply, "train"),
    "place_monster": Decision(
        _frame_seat,
        politics.place_monster_legal,
        politics.place_monster_apply,
        _first_place,
        name="place_monster",
    ),
    "betray": _asked(politics.betray_legal, politics.betray_apply, "betray"),
    "fujin": _asked(kami.fujin_legal, kami.fujin_apply, "fujin"),
    "raijin": _asked(kami.raijin_legal, kami.raijin_apply, "raijin"),
}


# ------------------------------------------------------------------ the machine


def run(s: State, ctx: Ctx) -> None:
    """Run automatic frames until a player must decide or the game is over."""
    guard = 0
    while s["result"] is None and s["position"]:
        f = s["position"][-1]
        fn = AUTO.get(f["kind"])
        if fn is None:
            if not DECISIONS[f["kind"]].pending(s, f):
                raise RuntimeError(f"input frame {f['kind']} with nobody pending")
            return
        fn(s, f, ctx)
        guard += 1
        if guard > 100000:  # pragma: no cover - a bug, not a rule
            raise RuntimeError("step machine loops")


def _waiting(s: State) -> tuple[Frame, Decision] | None:
    f = top(s)
    if s["result"] is not None or f is None or f["kind"] not in DECISIONS:
        return None
    return f, DECISIONS[f["kind"]]


def pending(s: State) -> list[tuple[int, str]]:
    """(seat, decision kind) of every seat that must act now."""
    waiting = _waiting(s)
    if waiting is None:
        return []
    f, decision = waiting
    kind = f.get("what", decision.name) if f["kind"] == "prompt" else decision.name
    return [(seat, kind) for seat in decision.pending(s, f)]


def pending_seats(s: State) -> list[int]:
    """The seats that must act now."""
    return [seat for seat, _ in pending(s)]


def legal(s: State, seat: int) -> list[Command]:
    """What `seat` may do now (any seat may act during the Tea Ceremony)."""
    waiting = _waiting(s)
    if waiting is None:
        return []
    f, decision = waiting
    if seat not in decision.pending(s, f) and f["kind"] != "tea":
        return []
    return decision.legal(s, f, seat)


def default(s: State, seat: int) -> Command | None:
    """What a missed deadline plays for `seat` (None: it has nothing pending)."""
    waiting = _waiting(s)
    if waiting is None or seat not in waiting[1].pending(s, waiting[0]):
        return None
    f, decision = waiting
    assert decision.default is not None  # every Rising Sun decision declares one
    return decision.default(s, f, seat)


def apply_input(s: State, seat: int, cmd: Command, ctx: Ctx) -> None:
    """Apply a command through the waiting decision, then run the automatic frames."""
    f = top(s)
    if s["result"] is not None:
        raise IllegalCommand("the game is over")
    if f is None or f["kind"] not in DECISIONS:
        raise IllegalCommand("nobody can act now")
    decision = DECISIONS[f["kind"]]
    if f["kind"] != "tea" and seat not in decision.pending(s, f):
        raise IllegalCommand("it is not your turn to act")
    if decision.decide is None:
        raise IllegalCommand(f"now you must {decision.name.replace('_', ' ')}")
    decision.decide(s, f, seat, cmd, ctx)
    run(s, ctx)
