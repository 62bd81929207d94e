"""The one fold with takebacks (games/rules/replay.py) that the services and the
verifier share: a takeback of the latest command's batch restores the state
before it, and a takeback of a batch the fold did not see asks for the state
at the version before that batch instead of guessing."""

from __future__ import annotations

from games.rules.base import Event
from games.rules.replay import Fold, Step


class Counting:
    """A ruleset reduced to what the fold calls: the state counts the events."""

    def initial_state(self) -> int:
        return 0

    def evolve(self, state: int, event: Event) -> int:
        return state + int(event.payload["add"])


def _event(add: int) -> Event:
    return Event("test.Added", {"add": add})


def test_a_takeback_restores_the_state_before_the_latest_batch():
    fold = Fold.start(Counting())
    steps = [
        Step(2, _event(1)),  # setup: no command
        Step(3, _event(10), starts_batch=True),
        Step(4, _event(100), starts_batch=True),
        Step(5, _event(1000)),
        Step(6),  # a platform event inside nothing: folds nothing
    ]
    for step in steps:
        assert fold.step(step) is None
    assert fold.state == 1111
    assert fold.step(Step(7, undoes_from=4)) is None
    assert fold.state == 11


def test_a_takeback_of_a_batch_not_folded_here_names_the_state_it_needs():
    fold = Fold.start(Counting(), 5)
    assert fold.step(Step(8, _event(1))) is None  # the batch began before this fold
    assert fold.step(Step(9, undoes_from=7)) == 6
    assert fold.before is None


def test_a_second_takeback_needs_the_state_again():
    fold = Fold.start(Counting())
    fold.step(Step(2, _event(1), starts_batch=True))
    assert fold.step(Step(3, undoes_from=2)) is None and fold.state == 0
    assert fold.step(Step(4, undoes_from=2)) == 1
