"""manage.py verify_all — every game's hash chain, head and published heads.

Checks that each game's event stream is an intact hash chain, ends where the
game row says (version, chain head), and still contains every head published
to players in notifications (and, with --manifest, every head a backup
recorded). Exits non-zero on any problem. To re-run the rules engines over
every game as well, use `manage.py replay_all`.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from ops.verify import check_all

from ._progress import Progress


class Command(BaseCommand):
    help = (
        "Verify every game's hash chain and head against what notifications published; non-zero on problems."
    )

    def add_arguments(self, parser):
        parser.add_argument("--manifest", help="a backup's .heads.json: also check the heads it recorded")
        bar = parser.add_mutually_exclusive_group()
        bar.add_argument(
            "--progress", action="store_true", help="draw the progress bar even when not a terminal"
        )
        bar.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, **opts):
        manifest = None
        if opts["manifest"]:
            try:
                with open(opts["manifest"]) as f:
                    manifest = json.load(f)
            except (OSError, ValueError) as exc:
                raise CommandError(f"cannot read the manifest {opts['manifest']}: {exc}") from exc
        progress = Progress(
            True if opts["progress"] else False if opts["no_progress"] else None,
            getattr(self.stderr, "_out", None),
        )
        games = events = published = 0
        bad = []
        for check in check_all(manifest, progress):
            games += 1
            events += check.events
            published += check.published
            if check.problems:
                bad.append(check)
        progress.done()
        for check in bad:
            self.stdout.write(f"PROBLEM game {check.game}:")
            for p in check.problems[:20]:
                self.stdout.write(f"    {p}")
        self.stdout.write(
            f"verified {games} game(s), {events} event(s), {published} published head(s)"
            + (f", {len((manifest or {}).get('games', {}))} manifest head(s)" if manifest else "")
            + f": {len(bad)} game(s) with problems"
        )
        if bad:
            raise CommandError(f"{len(bad)} game(s) failed verification")
