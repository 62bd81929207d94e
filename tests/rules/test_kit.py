"""The engine kit (games/rules/kit) and what every ruleset built on it must keep:
evolve refuses unknown events and never mutates its input, the decision table
covers every pending kind, commands are parsed from their declared shapes."""

from __future__ import annotations

import importlib
import pickle
from pathlib import Path

import pytest

from games.rules import registry
from games.rules.base import BadCommand, Event, IllegalCommand, Rng
from games.rules.kit import (
    ALL,
    Context,
    Decision,
    Evolver,
    Shape,
    UnknownEvent,
    copy_on_write,
    decision_of,
    parse_command,
)
from games.rules.testing import play_random_game

ROOT = Path(__file__).resolve().parents[2]
# the test-only toy (tests/support/toy) is built by CONTRIBUTING.md alone: held to the same promises
RULESETS = ["rising-sun", "shogun", "imjin", "toy-auction"]
PLAYERS = {"rising-sun": 4, "shogun": 4, "imjin": 2, "toy-auction": 3}


# (ruleset, players, rules version of the game: None = current); older versions
# keep their own events (Imjin's record patches, Rising Sun's command events)
GAMES = [
    ("rising-sun", 3, None),
    ("rising-sun", 5, None),
    ("rising-sun", 4, 3),
    ("shogun", 3, None),
    ("shogun", 5, None),
    ("shogun", 4, 1),
    ("imjin", 2, None),
    ("imjin", 4, None),
    ("imjin", 2, 3),
    ("imjin", 4, 2),
    ("toy-auction", 2, None),
    ("toy-auction", 4, None),
]


@pytest.fixture(scope="module", params=GAMES, ids=[f"{r}-{n}p-v{v or 'now'}" for r, n, v in GAMES])
def played(request):
    ruleset, players, version = request.param
    rules = registry.load_strict(ruleset)
    if version is not None:
        rules = rules.for_rules_version(version)
        assert rules.rules_version == version
    out = play_random_game(rules, [None] * players, {}, seed=3, check_every=10**6, check_views=False)
    return rules, out.events


def test_evolve_refuses_an_unknown_event(played):
    rules, events = played
    state = rules.initial_state()
    for e in events[:3]:
        state = rules.evolve(state, e) if not e.type.startswith("core.") else state
    with pytest.raises(UnknownEvent):
        rules.evolve(state, Event(f"{rules.id}.NoSuchEvent", {}))


def test_evolve_never_mutates_its_input(played):
    rules, events = played
    state = rules.initial_state()
    for e in events:
        if e.type.startswith("core."):
            continue
        before = pickle.dumps(state)
        new = rules.evolve(state, e)
        assert pickle.dumps(state) == before, f"evolve mutated its input on {e.type}"
        state = new


class _Recorder:
    """The ruleset, recording every decision kind `pending` reports."""

    def __init__(self, rules):
        self._rules = rules
        self.kinds: set[str] = set()

    def __getattr__(self, name):
        return getattr(self._rules, name)

    def pending(self, state):
        out = self._rules.pending(state)
        self.kinds |= {p.kind for p in out}
        return out


def _declared(flow) -> set[str]:
    """The decision kinds a ruleset's flow.py declares (Rising Sun's prompts report
    what they ask; a Shogun action reports `<action>:<sub-step>`)."""
    names = {d.name or kind for kind, d in flow.DECISIONS.items()}
    return names | set(getattr(flow, "PROMPTS", ()))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_pending_kind_is_declared_in_flow(ruleset):
    rules = registry.load_strict(ruleset)
    flow = importlib.import_module(type(rules).__module__.rsplit(".", 1)[0] + ".flow")
    assert flow.DECISIONS and all(isinstance(d, Decision) for d in flow.DECISIONS.values())
    recorder = _Recorder(rules)
    play_random_game(recorder, [None] * PLAYERS[ruleset], {}, seed=4, check_every=10**6, check_views=False)
    kinds = recorder.kinds
    assert len(kinds) >= min(3, len(_declared(flow)))  # the toy declares two kinds
    if ruleset == "shogun":  # an action reports `<action card>:<sub-step>`, decided by "actions"
        assert any(":" in k for k in kinds)
        kinds = {"actions" if ":" in k else k for k in kinds}
    assert kinds <= _declared(flow), kinds - _declared(flow)


SHAPES = {
    "move": Shape({"to": str, "armies": int}),
    "gift": Shape({"to": int}, {"coins": int}, defaults={"coins": 0}),
    "free": Shape({"a": int}, open=True),
}


def test_parse_command_checks_the_declared_shape():
    assert parse_command({"type": "move", "to": "Edo", "armies": 2}, SHAPES) == {
        "type": "move",
        "to": "Edo",
        "armies": 2,
    }
    assert parse_command({"type": "gift", "to": 1}, SHAPES) == {"type": "gift", "to": 1, "coins": 0}
    assert parse_command({"type": "free", "a": 1, "b": [2]}, SHAPES) == {"type": "free", "a": 1, "b": [2]}
    for bad in (
        [],
        {"type": 3},
        {"type": "fly"},
        {"type": "move", "to": "Edo"},
        {"type": "move", "to": "Edo", "armies": True},
        {"type": "move", "to": "Edo", "armies": 1, "extra": 0},
        {"type": "gift", "to": 1, "coins": "1"},
    ):
        with pytest.raises(BadCommand):
            parse_command(bad, SHAPES)


def test_decision_of_refuses_commands_the_decision_does_not_understand():
    table = {"bid": Decision(pending=lambda s: [0], legal=lambda s: [], commands=frozenset({"bid"}))}
    assert decision_of(table, "bid", "bid") is table["bid"]
    with pytest.raises(IllegalCommand):
        decision_of(table, "bid", "pass")
    with pytest.raises(IllegalCommand):
        decision_of(table, "war")


def test_evolver_copies_only_what_a_handler_declares():
    evolves: Evolver[dict] = Evolver("test")

    @evolves("test.Added", mutates=("items",))
    def _added(s, p):
        s["items"].append(p["item"])

    @evolves("test.Renamed")
    def _renamed(s, p):
        s["name"] = p["name"]

    with pytest.raises(ValueError):
        evolves("test.Added")(_renamed)
    state = {"items": [1], "other": [9], "name": "a"}
    new = evolves.evolve(state, Event("test.Added", {"item": 2}))
    assert new["items"] == [1, 2] and state["items"] == [1]
    assert new["other"] is state["other"]  # shared: not declared
    assert evolves.evolve(new, Event("test.Renamed", {"name": "b"}))["name"] == "b" and new["name"] == "a"
    with pytest.raises(UnknownEvent):
        evolves.evolve(state, Event("test.Unknown", {}))
    evolves.ignores("test.Noted")
    assert evolves.evolve(state, Event("test.Noted", {"x": 1})) == state
    scratch = {"items": [], "name": "a"}
    evolves.apply_in_place(scratch, Event("test.Added", {"item": 5}))
    assert scratch["items"] == [5]
    whole = copy_on_write(state, [ALL])
    assert whole == state and whole["other"] is not state["other"]


CORE_FILES = (
    "README.md",
    "data",
    "commands.py",
    "events.py",
    "state.py",
    "setup.py",
    "evolve.py",
    "view.py",
    "rules.py",
    "flow.py",
    "catalogue.py",  # the rules catalogue (issue 14)
    "describe.py",  # the readable game log
    "data/i18n",
    "data/geometry",
)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_ruleset_folder_has_the_same_core_files(ruleset):
    """House style: one folder shape (test builders live under tests/, not here)."""
    folder = Path(registry.load_strict(ruleset).__class__.__module__.replace(".", "/")).parent
    folder = ROOT / folder
    missing = [name for name in CORE_FILES if not (folder / name).exists()]
    assert not missing, f"{ruleset} lacks {missing}"
    # Shogun's old catalog.py joined data.py (catalogue.py is the rules catalogue)
    assert not list(folder.glob("testkit*.py")) and not (folder / "catalog.py").exists()
    assert (folder / "data" / "schemas").is_dir()


def test_context_folds_what_it_emits_and_names_its_streams():
    seen = []

    def fold(state, event):
        seen.append(event.type)
        return {**state, "n": state["n"] + event.payload["by"]}

    purposes = []

    def rng(purpose):
        purposes.append(purpose)
        return Rng("seed", 1, purpose)

    ctx = Context({"n": 0}, rng, fold, normalise=True)
    ctx.emit("test.Added", {"by": 2, "pair": (1, 2)})
    ctx.add(Event("core.ChoiceCommitted", {"by": 100}))
    assert ctx.state == {"n": 2} and seen == ["test.Added"]
    assert ctx.events[0].payload["pair"] == [1, 2]  # through JSON, as the store gives it back
    assert [e.type for e in ctx.events] == ["test.Added", "core.ChoiceCommitted"]
    ctx.stream("dice")
    ctx.stream("dice")
    assert purposes == ["dice:1", "dice:2"]
    assert len(ctx.salt("bid:1")) == 32 and purposes[-1] == "salt:bid:1"
