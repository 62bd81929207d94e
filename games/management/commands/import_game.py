"""manage.py import_game FILE — import a finished (or aborted) game's export.

Nothing is written unless the file verifies completely: hash chain, seed
against its commitment, every commitment against its reveal, and a replay that
re-decides every recorded command under this server's engines (games.verify).
Players become inactive placeholder users ``imported-<name>`` unless mapped to
existing accounts with ``--map old=new``. Events keep their original hashes,
so the imported game's chain head equals the exporter's.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from events.models import StoredEvent
from games import verify
from games.models import Game, Seat
from games.services.audit import verify_game

PLACEHOLDER_PREFIX = "imported-"


class Command(BaseCommand):
    help = "Verify and import a finished or aborted game exported as JSON Lines."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument(
            "--map",
            action="append",
            default=[],
            metavar="OLD=NEW",
            help="seat the exported user OLD as the existing user NEW (repeatable)",
        )
        parser.add_argument("--name", default="", help="name of the imported game")
        parser.add_argument(
            "--ruleset-module",
            action="append",
            default=[],
            metavar="MODULE:ATTR",
            help="register an extra engine, e.g. tests.support.toy:RULES",
        )

    def handle(self, *args, **opts):
        try:
            for target in opts["ruleset_module"]:
                verify.register_module(target)
            rows = verify.load_jsonl(opts["file"])
            report = self._verified(rows)
        except verify.VerifyError as exc:
            raise CommandError(f"rejected {opts['file']}: {exc}") from exc
        mapping = self._mapping(opts["map"])
        with transaction.atomic():
            game = self._create(rows, report, mapping, opts["name"])
            check = verify_game(game)
            if not check.ok:  # belt and braces: what we stored must audit like the file did
                raise CommandError(
                    "rejected: the stored copy does not verify: "
                    + "; ".join(str(p) for p in check.problems[:5])
                )
        self.stdout.write(
            f"imported game {game.id}: {game.ruleset}, {len(rows)} events, status {game.status}, "
            f"chain head {game.chain_head}"
        )
        return None

    def _verified(self, rows: list[dict]) -> verify.Report:
        if any(verify.is_redacted(r) for r in rows):
            raise verify.VerifyError(
                "the export is redacted (a running game seen by one seat); "
                "only full exports of finished or aborted games can be imported"
            )
        report = verify.verify(rows)
        if report.seed is None:
            raise verify.VerifyError(
                "the seed is not revealed: only finished or aborted games can be imported"
            )
        if not report.ok or not report.replayed:
            lines = "\n  ".join(str(p) for p in report.problems[:20]) or "replay did not run"
            raise verify.VerifyError(
                f"the file does not verify ({len(report.problems)} problem(s)):\n  {lines}"
            )
        dup = StoredEvent.objects.filter(seq=1, hash=rows[0]["hash"]).values_list("stream", flat=True).first()
        if dup is not None:
            raise verify.VerifyError(f"this game is already here as {dup}")
        return report

    def _mapping(self, pairs: list[str]) -> dict:
        users = get_user_model().objects
        out = {}
        for pair in pairs:
            old, sep, new = pair.partition("=")
            if not sep or not old or not new:
                raise CommandError(f"--map wants OLD=NEW, not {pair!r}")
            found = users.filter(username=new).first()
            if found is None:
                raise CommandError(f"--map {pair}: no user {new!r} here")
            out[old] = found
        return out

    def _user(self, name: str | None, mapping: dict):
        if name is None:
            return None
        if name in mapping:
            return mapping[name]
        users = get_user_model().objects
        base = (PLACEHOLDER_PREFIX + name)[:150]
        for n in range(100):
            candidate = base if n == 0 else f"{base[:140]}-{n}"
            u = users.filter(username=candidate).first()
            if u is None:
                u = users.create(username=candidate, is_active=False)
                u.set_unusable_password()
                u.save(update_fields=["password"])
                mapping[name] = u
                return u
            if not u.is_active and not u.has_usable_password():  # an earlier import's placeholder
                mapping[name] = u
                return u
        raise CommandError(f"cannot find a free placeholder name for {name!r}")

    def _create(self, rows: list[dict], report: verify.Report, mapping: dict, name: str) -> Game:
        start = verify.read_core(rows[0])  # verified: a well-formed core.GameStarted
        ended = next((r for r in rows if r["type"] in (verify.FINISHED, verify.ABORTED)), None)
        if ended is None:
            raise CommandError("rejected: the game neither finished nor was aborted")
        finished = ended["type"] == verify.FINISHED
        seats = start.seats
        creator_name = (rows[0].get("actor") or {}).get("user") or next(
            (s.get("user") for s in seats if s.get("user")), None
        )
        creator = self._user(creator_name, mapping)
        if creator is None:
            raise CommandError("rejected: the export names no human creator")
        game = Game.objects.create(
            id=uuid.uuid4(),
            ruleset=start.ruleset,
            rules_version=start.rules_version,
            name=name or f"imported {start.ruleset}",
            players=start.players,
            options=dict(start.options),
            creator=creator,
            seed=report.seed,
            version=rows[-1]["seq"],
            chain_head=rows[-1]["hash"],
            status=Game.Status.FINISHED if finished else Game.Status.ABORTED,
            outcome=verify.read_core(ended).outcome.as_json() if finished else None,
            started_at=_when(rows[0]),
            finished_at=_when(ended),
        )
        taken = set()
        for i, faction in enumerate(start.factions):
            s = seats[i] if i < len(seats) else {}
            u = self._user(s.get("user"), mapping) if not s.get("bot") else None
            if u is not None and u.pk in taken:
                raise CommandError(f"rejected: two seats would be played by {u.username}")
            taken.add(getattr(u, "pk", None))
            Seat.objects.create(game=game, index=i, user=u, faction=faction or "", bot=s.get("bot") or "")
        StoredEvent.objects.bulk_create(
            [
                StoredEvent(
                    stream=game.id,
                    seq=r["seq"],
                    type=r["type"],
                    version=r["version"],
                    payload=r["payload"],
                    actor=r.get("actor"),
                    cause=r.get("cause"),
                    visible_to=r.get("visible_to"),
                    recorded_at=_when(r),
                    prev_hash=r["prev_hash"],
                    hash=r["hash"],
                )
                for r in rows
            ]
        )
        return game


def _when(row: dict):
    raw = row.get("recorded_at")
    try:
        return datetime.fromisoformat(raw.replace("Z", "+00:00")) if isinstance(raw, str) else timezone.now()
    except ValueError:
        return timezone.now()
