"""Rules version 6: a batch of named facts (named.py) around its public event.

The rules ran on a recording working state; the batch is the decision's own
events (commitments, tiles seen) with the public one restated without draws,
followed by the named facts it emitted, then what no named fact states: the
position and public bookkeeping (`PositionChanged`, last). Secret
changes (mandate deck, track, proposals, unrevealed bids) stay in the hidden
`HiddenStateChanged` before the public event, as in versions 4-5.

Why: docs/modules.md, `games/rules/rising_sun/batches.py`.
"""

from __future__ import annotations

from typing import Any, cast

from ..base import Event, RngFactory
from . import events as ev
from .evolve import evolve
from .evolve_legacy import evolve_legacy
from .facts import STACK, diff
from .flow import run
from .frames import Steps, push
from .named import HEADERS, GameSetUp, PositionChanged, Recording
from .outcomes import merge, tea_ended
from .setup import build
from .state import State, clone


def recording(state: State) -> State:
    """A private working copy of `state` that records the named facts emitted into it."""
    return cast(State, Recording(cast(dict[str, Any], clone(state))))


def setup_batch(initial: State, out: list[Event], rng: RngFactory) -> list[Event]:
    """The setup's events: the board (`GameSetUp.board`), then the first season's facts."""
    shuffled, setup = out
    board = build(evolve_legacy(initial, shuffled), setup.payload)
    working = recording(board)
    push(working, "season_start")
    run(Steps(working, draws=[list(order) for order in setup.payload["draws"]]))
    public, _ = diff(initial, board)
    header = GameSetUp(
        clans=list(setup.payload["clans"]),
        season_set=str(setup.payload["season_set"]),
        shrines=list(setup.payload["shrines"]),
        board=public,
    ).event()
    return assemble(initial, working, [shuffled, header], rng, "setup")


def assemble(old: State, working: State, out: list[Event], rng: RngFactory, purpose: str) -> list[Event]:
    """The version-6 batch turning `old` into `working` (see the module docstring)."""
    facts: list[Event] = getattr(working, "facts", [])
    events = [e for e in out if e.type != ev.MANDATES_SHUFFLED]
    at = next((i for i, e in enumerate(events) if e.type in HEADERS and e.visible_to is None), None)
    if at is None:
        # nothing public happened (a bid that is not the last, a proposal, an
        # answer in secret): the whole change is hidden, as in versions 4-5
        hidden = merge(*diff(old, working))
        return _with_hidden(events, len(events), hidden, old, working, rng, purpose)
    header = _restated(events[at])
    folded = old
    for event in (header, *facts):
        folded = evolve(folded, event)
    public, secret = diff(folded, working)
    tail: list[Event] = [header, *facts]
    stack = public.pop(STACK, {})
    if stack or public:
        tail.append(PositionChanged(**stack, outcome=public or None).event())
    events[at : at + 1] = tail
    return _with_hidden(events, at, secret, old, working, rng, purpose)


def _restated(event: Event) -> Event:
    """The public event of version 6: as its version-3 self, without draws."""
    if event.type == ev.SETUP:
        return event
    fields = {k: v for k, v in event.payload.items() if k != "draws"}
    return HEADERS[event.type](**fields).event()


def _with_hidden(
    events: list[Event],
    at: int,
    hidden: dict[str, Any],
    old: State,
    working: State,
    rng: RngFactory,
    purpose: str,
) -> list[Event]:
    if hidden or tea_ended(old, working):
        salt = rng(f"salt:hidden-state:{purpose}").salt()
        events.insert(at, ev.HiddenStateChanged(outcome=hidden, salt=salt).event())
    return events
