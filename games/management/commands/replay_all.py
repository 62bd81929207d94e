"""manage.py replay_all — replay every stored game under the current engines.

For each game (or recorded fixture file with ``--fixtures``) the verifier
re-derives the setup and re-decides every recorded command with the game's
seed, compares the events the engine produces with the recorded ones, and
compares the folded state with every stored snapshot of the game. Any game
whose history the current engines no longer reproduce is listed and the
command exits non-zero — a rules change that breaks old games fails the build
unless the ruleset keeps the old behaviour for old rules versions
(``for_rules_version``, see docs/audit.md).
"""

from __future__ import annotations

import glob
import os
import pickle
import sys
from dataclasses import dataclass, field

from django.core.management.base import BaseCommand, CommandError

from events.models import Snapshot
from games import verify
from games.models import Game
from games.rules import registry
from games.services.audit import event_dicts
from games.services.state import snapshot_key


class _FilteredOut(Exception):
    pass


@dataclass
class _Tally:
    """What a run found: (label, report) that diverged, (label, why) not replayed,
    labels with salt findings, and how many games were replayed."""

    failures: list = field(default_factory=list)
    skipped: list = field(default_factory=list)
    unsalted: list = field(default_factory=list)
    done: int = 0


class Command(BaseCommand):
    help = "Replay every stored game (or fixture file) under the current engines; report divergences."

    def add_arguments(self, parser):
        parser.add_argument("--ruleset", action="append", default=[], help="only these rulesets (repeatable)")
        parser.add_argument("--game", action="append", default=[], help="only these game ids (repeatable)")
        parser.add_argument(
            "--fixtures",
            nargs="+",
            default=None,
            metavar="PATH",
            help="replay JSON Lines exports (files or folders of *.jsonl) instead of the database",
        )
        parser.add_argument(
            "--ruleset-module",
            action="append",
            default=[],
            metavar="MODULE:ATTR",
            help="register an extra engine, e.g. tests.support.toy:RULES",
        )
        parser.add_argument(
            "--no-progress",
            action="store_true",
            help="no progress bar (it is drawn on stderr only when that is a terminal)",
        )

    def handle(self, *args, **opts):
        try:
            for target in opts["ruleset_module"]:
                verify.register_module(target)
        except verify.VerifyError as exc:
            raise CommandError(str(exc)) from exc
        items = self._files(opts) if opts["fixtures"] is not None else self._games(opts)
        opts["no_progress"] = opts["no_progress"] or not sys.stderr.isatty()
        tally = self._run(items, opts["no_progress"])
        self._print(tally)
        if tally.failures or (tally.skipped and opts["fixtures"] is not None):
            raise CommandError(
                f"{len(tally.failures)} game(s) diverge from the current engines"
                + (f", {len(tally.skipped)} could not be replayed" if tally.skipped else "")
            )

    def _run(self, items: list, no_progress: bool) -> _Tally:
        tally = _Tally()
        for n, (label, run) in enumerate(items, 1):
            self._progress(n, len(items), label, no_progress)
            try:
                report = run()
            except _FilteredOut:
                continue
            except verify.VerifyError as exc:
                tally.skipped.append((label, str(exc)))
                continue
            tally.done += 1
            # Missing salts are a secrecy finding (the verifier's and the audit's),
            # not a divergence: games recorded before the salt rule still replay.
            if any(p.check == "salt" for p in report.problems):
                tally.unsalted.append(label)
            if any(p.check != "salt" for p in report.problems):
                tally.failures.append((label, report))
        if items and not no_progress:
            sys.stderr.write("\n")
        return tally

    def _print(self, tally: _Tally) -> None:
        for label, why in tally.skipped:
            self.stdout.write(f"SKIPPED {label}: {why}")
        for label in tally.unsalted:
            self.stdout.write(f"UNSALTED {label}: private events without a valid salt (see games.verify)")
        for label, report in tally.failures:
            self.stdout.write(
                f"DIVERGED {label} ({report.ruleset}, recorded under rules version "
                f"{report.rules_version}, current {_current(report.ruleset)}):"
            )
            for p in report.problems[:10]:
                self.stdout.write(f"    {p}")
        done, failed = tally.done, len(tally.failures)
        self.stdout.write(
            f"replayed {done} game(s): {done - failed} ok, {failed} diverged, {len(tally.skipped)} skipped"
        )

    def _progress(self, n: int, total: int, label: str, off: bool) -> None:
        if off or not total:
            return
        width = 30
        filled = width * n // total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {n}/{total} {label[:40]:<40}")
        sys.stderr.flush()

    def _files(self, opts) -> list:
        paths = []
        for p in opts["fixtures"]:
            paths += sorted(glob.glob(os.path.join(p, "*.jsonl"))) if os.path.isdir(p) else [p]
        if not paths:
            raise CommandError("no fixture files found")

        def run(path):
            rows = verify.load_jsonl(path)
            report = verify.verify(rows)
            if opts["ruleset"] and report.ruleset not in opts["ruleset"]:
                raise _FilteredOut
            if report.replayed is None and report.ok:
                report.add(None, "replay", "not replayed: " + "; ".join(report.notes))
            return report

        return [(os.path.basename(p), (lambda p=p: run(p))) for p in paths]

    def _games(self, opts) -> list:
        qs = Game.objects.exclude(status=Game.Status.OPEN).order_by("created_at")
        if opts["ruleset"]:
            qs = qs.filter(ruleset__in=opts["ruleset"])
        if opts["game"]:
            qs = qs.filter(id__in=opts["game"])
        return [(f"{g.ruleset} {g.id}", (lambda g=g: replay_game(g))) for g in qs]


def _current(ruleset) -> int | None:
    rules = registry.get(ruleset) if isinstance(ruleset, str) else None
    return getattr(rules, "rules_version", None)


def replay_game(game: Game) -> verify.Report:
    """Re-decide the game with its seed and compare the states at its snapshots."""
    rules = registry.get(game.ruleset)
    if rules is None:
        raise verify.VerifyError(f"ruleset {game.ruleset!r} is not available")
    snaps = {s.version: s for s in Snapshot.objects.filter(stream=game.id, rules_version=snapshot_key(game))}
    bad: list[int] = []

    def on_state(seq, state):
        snap = snaps.get(seq)
        # Snapshots are written only by this server: a cache of derived data.
        if snap is not None and pickle.loads(bytes(snap.state)) != state:  # noqa: S301
            bad.append(seq)

    report = verify.verify(event_dicts(game), rules=rules, seed=game.seed, on_state=on_state)
    for seq in bad:
        report.add(seq, "replay", "the folded state differs from the stored snapshot")
    return report
