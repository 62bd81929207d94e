"""manage.py replay_all: every recorded fixture game and every stored game
replays under the current engines; a deliberately changed rule is caught
unless the ruleset keeps the old behaviour for old rules versions."""

from __future__ import annotations

import json
from dataclasses import replace
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.rules import registry
from games.rules.base import fold
from games.rules.kit import Decided
from tests.support import toy

from . import driver
from .conftest import rehash
from .test_verifier import FIXTURES


def replay_all(*args) -> str:
    out = StringIO()
    call_command("replay_all", "--no-progress", *args, stdout=out)
    return out.getvalue()


def test_every_fixture_replays():
    out = replay_all("--fixtures", str(FIXTURES))
    assert "0 diverged" in out and "0 skipped" in out


def _higher_seat_wins(event):
    if event.type != "toy.BidsRevealed":
        return event
    best = event.payload["paid"]
    winner = max(seat for seat, amount in event.payload["bids"] if amount == best)
    return replace(event, payload={**event.payload, "winner": winner})


class ChangedToy(toy.ToyRules):
    """A rules change: ties in the auction now go to the higher seat."""

    def decide_folded(self, state, seat, command, rng):
        events = [_higher_seat_wins(e) for e in super().decide_folded(state, seat, command, rng).events]
        return Decided(events, fold(self, events, state))


class VersionedToy(ChangedToy):
    """The same change done right: rules_version 2, old games keep the old rule."""

    rules_version = 2

    def for_rules_version(self, version):
        return toy.RULES if version < 2 else self


def _tie_fixture() -> bool:
    from games import verify

    for path in FIXTURES.glob("toy-auction-*.jsonl"):
        for r in verify.load_jsonl(str(path)):
            if r["type"] == "toy.BidsRevealed":
                amounts = [b for _, b in r["payload"]["bids"]]
                if amounts.count(max(amounts)) > 1:
                    return True
    return False


@pytest.fixture
def changed_toy(monkeypatch):
    def use(rules):
        monkeypatch.setattr(toy, "CHANGED", rules, raising=False)
        registry.register("toy-auction", "tests.support.toy:CHANGED")

    yield use
    registry.register("toy-auction", "tests.support.toy:RULES")


def test_a_changed_rule_breaks_the_fixtures(changed_toy):
    assert _tie_fixture(), "the toy fixtures need a tied auction (re-record)"
    changed_toy(ChangedToy())
    out = StringIO()
    with pytest.raises(CommandError, match="diverge"):
        call_command(
            "replay_all", "--no-progress", "--fixtures", str(FIXTURES), "--ruleset", "toy-auction", stdout=out
        )
    text = out.getvalue()
    assert "DIVERGED toy-auction-" in text and "payload.winner: engine" in text
    assert "0 skipped" in text


def test_a_versioned_rule_change_keeps_old_games(changed_toy):
    changed_toy(VersionedToy())
    out = replay_all("--fixtures", str(FIXTURES), "--ruleset", "toy-auction")
    assert "0 diverged" in out


@pytest.mark.django_db
def test_stored_games_replay_and_a_changed_rule_is_reported(changed_toy, settings):
    settings.SENGOKU = {**settings.SENGOKU, "SNAPSHOT_EVERY": 5}  # compare snapshots too
    games = []
    for seed in range(6):
        games.append(driver.play_out(driver.new_game(), seed=seed))
    running = driver.new_game(names=("ayu", "bo"))
    driver.play(running, 0, {"type": "bid", "amount": 1})
    out = replay_all()
    assert "replayed 7 game(s): 7 ok, 0 diverged" in out
    changed_toy(ChangedToy())
    out = StringIO()
    with pytest.raises(CommandError, match="diverge"):
        call_command("replay_all", "--no-progress", stdout=out)
    text = out.getvalue()
    tied = [g for g in games if str(g.id) in text]
    assert tied and "DIVERGED toy-auction" in text and "recorded under rules version 1" in text
    # replay of one named game only
    assert "replayed 1 game(s): 1 ok" in replay_all("--game", str(running.id))


@pytest.mark.django_db
def test_a_stale_snapshot_is_reported(settings):
    import pickle

    from events.models import Snapshot

    settings.SENGOKU = {**settings.SENGOKU, "SNAPSHOT_EVERY": 4}
    game = driver.play_out(driver.new_game(), seed=1)
    snap = Snapshot.objects.filter(stream=game.id).order_by("version").first()
    assert snap is not None
    Snapshot.objects.filter(pk=snap.pk).update(state=pickle.dumps(toy.RULES.initial_state()))
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("replay_all", "--no-progress", stdout=out)
    assert f"seq {snap.version}: the folded state differs from the stored snapshot" in out.getvalue()


def test_unsalted_games_are_listed_but_do_not_fail_replay_all(tmp_path):
    """A game recorded before the salt rule still replays: UNSALTED, not DIVERGED."""
    rows = [json.loads(line) for line in (FIXTURES / "toy-auction-2p-a.jsonl").read_text().splitlines()]
    # a private platform message without a salt, as servers wrote them before the rule
    at = next(i for i, r in enumerate(rows) if r["type"] == "core.GameFinished")
    rows.insert(
        at,
        {
            "seq": 0,
            "type": "core.MessageSent",
            "version": 1,
            "visible_to": [0, 1],
            "payload": {"from": 0, "to": [1], "text": "yes"},
        },
    )
    for i, r in enumerate(rows, 1):
        r["seq"] = i
    path = tmp_path / "old.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rehash(rows)))
    out = StringIO()
    call_command(
        "replay_all", "--fixtures", str(path), "--ruleset-module", "tests.support.toy:RULES", stdout=out
    )
    assert "UNSALTED" in out.getvalue() and "1 ok, 0 diverged" in out.getvalue(), out.getvalue()
