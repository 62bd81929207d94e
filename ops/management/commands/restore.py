"""manage.py restore PATH — replace the database's content with a backup made
by `manage.py backup`, then run verify_all (with the backup's heads manifest
when it is next to the file). Stop the web, worker and beat processes first."""

from __future__ import annotations

import os

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from ops import backup


class Command(BaseCommand):
    help = "Restore a backup made by `manage.py backup` (server stopped), then verify every game."

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument(
            "--noinput",
            "--no-input",
            action="store_false",
            dest="interactive",
            help="do not ask for confirmation",
        )
        parser.add_argument("--no-verify", action="store_true", help="skip verify_all afterwards")

    def handle(self, *args, **opts):
        path = opts["path"]
        if opts["interactive"]:
            answer = input(
                f"This replaces ALL data of the {backup.vendor()} database with {path}. "
                "Are the web, worker and beat processes stopped? Type 'yes' to continue: "
            )
            if answer.strip().lower() != "yes":
                raise CommandError("restore cancelled")
        try:
            backup.restore(path)
        except backup.BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"restored {path}")
        call_command("migrate", "--noinput", verbosity=0)  # a backup from an older release
        if opts["no_verify"]:
            return
        manifest = path + backup.MANIFEST_SUFFIX
        kwargs = {"manifest": manifest} if os.path.exists(manifest) else {}
        call_command("verify_all", no_progress=True, stdout=self.stdout, stderr=self.stderr, **kwargs)
