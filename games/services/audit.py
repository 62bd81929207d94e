"""Audit, export and abort: the server side of "hidden information, done verifiably".

The checks themselves live in `games.verify` (pure, no Django) so the audit
endpoint, `import_game`, `replay_all` and an outside auditor running
``python -m games.verify`` apply exactly the same rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from events import store
from events.models import StoredEvent
from games import verify
from games.rules.base import canonical_json, sha256_hex

from ..core_events import GameAborted, SeedRevealed
from ..models import Game
from . import anchors, signing, summaries
from .commit import append_core, new_event
from .errors import Conflict, ErrorCode, Forbidden
from .lobby import SYSTEM, get_game
from .present import present_event, viewer_for
from .state import rules_for
from .types import GameId, Reader, UserOrAnonymous

ENDED = (Game.Status.FINISHED, Game.Status.ABORTED)
_CACHE_SECONDS = 3600
_SAFE_DETAIL = ("chain", "seed", "commitment", "salt")  # their messages name seqs and keys, never contents


def event_dicts(game: Game) -> list[Mapping[str, Any]]:
    """Every stored event of `game` as the verifier reads an export line (unredacted)."""
    return list(
        StoredEvent.objects.filter(stream=game.id)
        .order_by("seq")
        .values("seq", "type", "version", "payload", "prev_hash", "hash", "cause", "visible_to", "actor")
    )


def verify_game(game: Game, rows: list[Mapping[str, Any]] | None = None) -> verify.Report:
    """The full verifier over the stored rows, with the server's seed (so running
    games are re-decided too). The caller must not publish `report.seed` or
    replay details of a running game: see `audit`."""
    rows = event_dicts(game) if rows is None else rows
    if not rows:
        return verify.Report()
    try:
        rules = rules_for(game)
    except Exception:  # ruleset gone from this server: the cryptographic checks still run
        rules = None
    report = verify.verify(rows, rules=rules, seed=game.seed, deep=rules is not None)
    if rules is None:
        report.notes.append(f"ruleset {game.ruleset!r} is not available: not replayed")
    if game.seed and report.seed_commitment and sha256_hex(game.seed) != report.seed_commitment:
        report.add(None, "seed", "the server's stored seed differs from the commitment published at start")
    return report


def audit(game: Game) -> dict[str, Any]:
    """`GET /games/{id}/audit`: chain, seed commitment, commitments and replay.
    Cached by the digest of the stored rows, so any change to them re-audits."""
    rows = event_dicts(game)
    digest = sha256_hex(canonical_json([{**r, "actor": None} for r in rows]) + game.seed + game.status)
    key = f"sengoku:audit:{game.id}:{digest}"
    found: dict[str, Any] | None = cache.get(key)
    if found is not None:
        return found
    report = verify_game(game, rows)
    ended = game.status in ENDED
    problems = [
        {
            "seq": p.seq,
            "check": p.check,
            "detail": p.detail
            if ended or p.check in _SAFE_DETAIL
            # While running, a replay diff could quote a private payload: say where, not what.
            else "the recorded events differ from what the rules produce",
        }
        for p in report.problems
    ]
    out = {
        "chain_ok": report.chain_ok,
        "chain_head": rows[-1]["hash"] if rows else None,
        "published_head_ok": (rows[-1]["hash"] if rows else "") == (game.chain_head or ""),
        "first_bad_seq": report.first_bad_seq,
        "seed_commitment": report.seed_commitment,
        "seed": report.seed if ended and report.seed_ok is not None else None,
        "seed_ok": report.seed_ok if not problems_of(report, "seed") else False,
        # a secret offer's commitment (private to its two seats) is nobody else's
        # business while the game runs: not even that it exists
        "commitments": [_public_commitment(c) for c in report.commitments if ended or not c.get("private")],
        "reveals_ok": report.reveals_ok,
        "replay_ok": report.replayed,
        "problems": problems,
        "ok": report.ok and (rows[-1]["hash"] if rows else "") == (game.chain_head or ""),
        "version": game.version,
        "ruleset": game.ruleset,
        "rules_version": game.rules_version,
    }
    cache.set(key, out, _CACHE_SECONDS)
    return out


def problems_of(report: verify.Report, check: str) -> list[Any]:
    """The report's problems found by one check (chain, seed, commitment, salt, replay)."""
    return [p for p in report.problems if p.check == check]


def _public_commitment(c: dict[str, Any]) -> dict[str, Any]:
    return {
        k: c[k]
        for k in ("seq", "seat", "key", "commitment", "revealed", "reveal_ok", "reveal_seq", "replaced_by")
    }


def export_lines(game: Game, user: Reader, lang: str = "en") -> list[str]:
    """JSON Lines: everything for finished/aborted games, the caller's redacted
    stream while running (present_event decides, so the API never leaks); the
    first event of every batch carries its `summary` (services/summaries.py), the
    last its signed `checkpoint` (services/signing.py): every one issued for the game."""
    viewer = viewer_for(game, user)
    rows = store.load(game.id)
    out = [present_event(r, viewer) for r in rows]
    summaries.annotate(game, viewer, rows, out, lang)
    signing.mark_batches(rows, out)
    anchors.annotate(game, out)  # a finished game's final head: proof and token, once anchored
    return [canonical_json(o) for o in out]


def abort(game_id: GameId, user: UserOrAnonymous, reason: str = "", operator: bool = False) -> Game:
    """The creator (or, with `operator`, a staff member in the admin) ends a game without an outcome. A running game's seed is
    revealed (core.GameAborted + core.SeedRevealed), so its random outcomes can
    be audited like a finished game's; an open game has no events to audit."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=get_game(game_id, SYSTEM if operator else user).pk)
        if game.creator_id != getattr(user, "id", None) and not (
            operator and getattr(user, "is_staff", False)
        ):
            raise Forbidden("only the game's creator can abort it", code=ErrorCode.NOT_CREATOR)
        if game.status in ENDED:
            raise Conflict(f"the game is already {game.status}", code=ErrorCode.GAME_NOT_RUNNING)
        was_running = game.status == Game.Status.RUNNING
        game.status, game.finished_at = Game.Status.ABORTED, timezone.now()
        if was_running:
            append_core(
                game,
                [
                    new_event(
                        GameAborted(by=user.username, reason=str(reason)[:500], operator=operator or None),
                        actor={"user": user.username},
                    ),
                    new_event(SeedRevealed(seed=game.seed)),
                ],
            )
        game.save(update_fields=["status", "finished_at"])
    return game
