"""Phase sequencing: the step machine and its tables (who must act next, and what
runs without input).

The position is the kit's `Position` (`state["position"]`, frames.py). `run` pops
and executes automatic frames until the top frame waits for a player's input (or
the game ends). Every frame kind is declared here, as data:

Why, with the measurements and history: docs/modules.md, `games/rules/rising_sun/flow.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..base import IllegalCommand
from ..kit import Context, Decision, position
from ..kit.decisions import DecideRole, DefaultRole, LegalRole, PendingRole
from . import battle, figures, kami, movement, politics, tea, timing, war
from .frames import Command, Steps, pop
from .state import ADVANTAGES, Frame, State, top, version

Auto = Callable[[State, Frame, Steps], None]
PromptEffect = Callable[[State, Frame, Any, Steps], None]  # the choice: one of the frame's options

SIMULTANEOUS: dict[str, Callable[[State, int], None]] = {
    "end_of_recruit": figures.end_of_recruit_of,
    "war_upgrade": war.war_upgrades_of,
}
OWN_EFFECTS: dict[str, Callable[[State, int, str], None]] = {
    "after_summon": figures.after_summon_card,
    "war_upgrade": war.resolve_war_upgrade,
}


def _simul_step(state: State, frame: Frame, steps: Steps) -> None:
    seat = timing.next_seat(state, frame)
    if seat is not None:
        SIMULTANEOUS[frame["what"]](state, seat)


def _own_step(state: State, frame: Frame, steps: Steps) -> None:
    card = timing.next_own(state, frame)
    if card is not None:
        OWN_EFFECTS[frame["what"]](state, frame["seat"], card)


def _own_pick(state: State, prompted: Frame, choice: Any, steps: Steps) -> None:
    owner = timing.take_own(state, choice)
    OWN_EFFECTS[owner["what"]](state, owner["seat"], choice)


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
# The phase modules' decision functions take the frame they answer; the kit's roles
# take the state only. These adapters read that frame off the position (its top).

FramePending = Callable[[State, Frame], list[int]]
FrameLegal = Callable[[State, Frame, int], list[Command]]
FrameApply = Callable[[State, Frame, int, Command, Steps], None]
FrameDefault = Callable[[State, Frame, int], Command]


def _waiting_frame(state: State) -> Frame:
    frame = top(state)
    if frame is None:  # pragma: no cover - the roles are only asked about a waiting frame
        raise IllegalCommand("nobody can act now")
    return frame


def _pending_on_top(role: FramePending) -> PendingRole[State]:
    def pending(state: State) -> list[int]:
        return role(state, _waiting_frame(state))

    return pending


def _legal_on_top(role: FrameLegal) -> LegalRole[State]:
    def legal(state: State, seat: int) -> list[Command]:
        return role(state, _waiting_frame(state), seat)

    return legal


def _decide_on_top(role: FrameApply) -> DecideRole[State]:
    def decide(context: Context[State], seat: int, command: Command) -> None:
        steps = Steps.of(context)
        role(steps.state, _waiting_frame(steps.state), seat, command, steps)

    return decide


def _default_on_top(role: FrameDefault) -> DefaultRole[State]:
    def default(state: State, seat: int) -> Command | None:
        return role(state, _waiting_frame(state), seat)

    return default


def _frame_seat(state: State, frame: Frame) -> list[int]:
    return [frame["seat"]]


def _done(state: State, frame: Frame, seat: int) -> Command:
    return {"type": "done"}


def _prompt_legal(state: State, frame: Frame, seat: int) -> list[Command]:
    return [{"type": "choose", "choice": option} for option in frame["options"]]


def _prompt_decide(state: State, frame: Frame, seat: int, command: Command, steps: Steps) -> None:
    if command["type"] != "choose":
        raise IllegalCommand("choose one of the offered options")
    if command.get("choice") not in frame["options"]:
        raise IllegalCommand("that option is not offered")
    pop(state)
    PROMPTS[frame["what"]](state, frame, command["choice"], steps)


def _prompt_default(state: State, frame: Frame, seat: int) -> Command:
    return {"type": "choose", "choice": frame["options"][0]}


def _tea_default(state: State, frame: Frame, seat: int) -> Command:
    incoming = tea.incoming(state, seat)
    if incoming and version(state) < 3:  # v3: unanswered proposals lapse at the end
        return {"type": "decline_alliance", "from": incoming[0]["from"]}
    return {"type": "tea_done"}


def _zero_bid(state: State, frame: Frame, seat: int) -> Command:
    return {"type": "bid", **{advantage: 0 for advantage in ADVANTAGES}}


def _first_tile(state: State, frame: Frame, seat: int) -> Command:
    tile = politics.drawn(state)[0]
    command: Command = {"type": "choose_mandate", "tile": tile}
    if state["clans"][seat] == "Lotus":
        command["declare"] = tile
    return command


def _first_place(state: State, frame: Frame, seat: int) -> Command:
    return politics.place_monster_legal(state, frame, seat)[0]


def _decision(
    name: str,
    legal: FrameLegal,
    decide: FrameApply | None,
    default: FrameDefault,
    pending: FramePending = _frame_seat,
) -> Decision[State]:
    """A decision of the top frame; `decide` None: `rules.py` handles its command
    (the secret bids and Mandate choices)."""
    return Decision(
        pending=_pending_on_top(pending),
        legal=_legal_on_top(legal),
        decide=_decide_on_top(decide) if decide is not None else None,
        default=_default_on_top(default),
        name=name,
    )


def _asked(legal: FrameLegal, decide: FrameApply, name: str) -> Decision[State]:
    """A decision of the frame's own seat that ends with "done" when missed."""
    return _decision(name, legal, decide, _done)


DECISIONS: dict[str, Decision[State]] = {
    "prompt": _decision("prompt", _prompt_legal, _prompt_decide, _prompt_default),
    "tea": _decision("tea_ceremony", tea.tea_legal, tea.tea_apply, _tea_default, tea.tea_pending),
    "choose_mandate": _decision("choose_mandate", politics.choose_legal, None, _first_tile),
    "bidding": _decision("war_bid", battle.bidding_legal, None, _zero_bid, battle.bidding_pending),
    "recruit": _asked(politics.recruit_legal, politics.recruit_apply, "recruit"),
    "marshal": _asked(politics.marshal_legal, politics.marshal_apply, "marshal"),
    "build": _asked(politics.build_legal, politics.build_apply, "build"),
    "train": _asked(politics.train_legal, politics.train_apply, "train"),
    "place_monster": _decision(
        "place_monster", politics.place_monster_legal, politics.place_monster_apply, _first_place
    ),
    "betray": _asked(politics.betray_legal, politics.betray_apply, "betray"),
    "fujin": _asked(kami.fujin_legal, kami.fujin_apply, "fujin"),
    "raijin": _asked(kami.raijin_legal, kami.raijin_apply, "raijin"),
}


# ------------------------------------------------------------------ the machine


def run(steps: Steps) -> None:
    """Run automatic frames of `steps.state` until a player must decide or the game is over."""
    state = steps.state
    guard = 0
    while state["result"] is None and state["position"]:
        frame = position.top(state)
        assert frame is not None  # the loop's condition
        automatic = AUTO.get(frame["kind"])
        if automatic is None:
            if not DECISIONS[frame["kind"]].pending(state):
                raise RuntimeError(f"input frame {frame['kind']} with nobody pending")
            return
        automatic(state, frame, steps)
        guard += 1
        if guard > 100000:  # pragma: no cover - a bug, not a rule
            raise RuntimeError("step machine loops")


def _waiting(state: State) -> tuple[Frame, Decision[State]] | None:
    frame = top(state)
    if state["result"] is not None or frame is None or frame["kind"] not in DECISIONS:
        return None
    return frame, DECISIONS[frame["kind"]]


def pending(state: State) -> list[tuple[int, str]]:
    """(seat, decision kind) of every seat that must act now."""
    waiting = _waiting(state)
    if waiting is None:
        return []
    frame, decision = waiting
    kind = frame.get("what", decision.name) if frame["kind"] == "prompt" else decision.name
    return [(seat, kind) for seat in decision.pending(state)]


def pending_seats(state: State) -> list[int]:
    """The seats that must act now."""
    return [seat for seat, _ in pending(state)]


def legal(state: State, seat: int) -> list[Command]:
    """What `seat` may do now (any seat may act during the Tea Ceremony)."""
    waiting = _waiting(state)
    if waiting is None:
        return []
    frame, decision = waiting
    if seat not in decision.pending(state) and frame["kind"] != "tea":
        return []
    return decision.legal(state, seat)


def default(state: State, seat: int) -> Command | None:
    """What a missed deadline plays for `seat` (None: it has nothing pending)."""
    waiting = _waiting(state)
    if waiting is None or seat not in waiting[1].pending(state):
        return None
    decision = waiting[1]
    assert decision.default is not None  # every Rising Sun decision declares one
    return decision.default(state, seat)


def apply_input(steps: Steps, seat: int, command: Command) -> None:
    """Apply a command to `steps.state` through the waiting decision, then run the
    automatic frames."""
    state = steps.state
    frame = top(state)
    if state["result"] is not None:
        raise IllegalCommand("the game is over")
    if frame is None or frame["kind"] not in DECISIONS:
        raise IllegalCommand("nobody can act now")
    decision = DECISIONS[frame["kind"]]
    if frame["kind"] != "tea" and seat not in decision.pending(state):
        raise IllegalCommand("it is not your turn to act")
    if decision.decide is None:
        raise IllegalCommand(f"now you must {decision.name.replace('_', ' ')}")
    decision.decide(steps, seat, command)
    run(steps)
