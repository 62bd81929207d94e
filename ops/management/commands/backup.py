"""manage.py backup [PATH] — a consistent copy of the database, safe while the
server runs (SQLite: the online backup API; PostgreSQL: pg_dump), plus
PATH.heads.json, every game's head at backup time (see ops/backup.py)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from ops import backup


class Command(BaseCommand):
    help = "Back up the database (safe while running) and record every game's head next to it."

    def add_arguments(self, parser):
        parser.add_argument("path", nargs="?", help="backup file (default var/backups/sengoku-<time>.<ext>)")

    def handle(self, *args, **opts):
        path = opts["path"] or backup.default_path()
        try:
            out, manifest = backup.backup(path)
        except backup.BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"backup written: {out} ({out.stat().st_size} bytes, {backup.vendor()})")
        self.stdout.write(f"heads manifest: {manifest}")
        self.stdout.write(f"after a restore, check it with: manage.py verify_all --manifest {manifest}")
