"""manage.py rotate_signing_key — retire the checkpoint signing key and make a new one.

The retired key's public half stays in `GET /api/v1/keys` (with its `retired`
time), so every checkpoint it signed still verifies. The new key is written to
SIGNING_KEY_FILE (0600); processes pick it up at their next signature. With
several hosts, run it where the file is shared from (docs/deployment.md).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.services import signing


class Command(BaseCommand):
    help = "Retire the current checkpoint signing key (keeping its public half) and make a new one."

    def handle(self, *args: Any, **options: Any) -> None:
        old, new = signing.rotate()
        self.stdout.write(f"retired {old.kid}; signing with {new.kid}")
