"""`verify_all`: every game's stored hash chain is intact, its head is the game
row's (version, chain_head), and every head published to players (each
notification carries the game's version and chain head; "your turn" emails and
webhooks included) is still in the chain, unchanged. Optionally also the heads
a backup recorded in its manifest."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from events.models import StoredEvent
from games import verify
from games.models import Game, Notification


@dataclass
class GameCheck:
    game: str
    events: int = 0
    published: int = 0
    problems: list[str] = field(default_factory=list)


def check_game(game: Game, manifest_head: list | None = None) -> GameCheck:
    out = GameCheck(str(game.id))
    rows = list(
        StoredEvent.objects.filter(stream=game.id)
        .order_by("seq")
        .values("seq", "type", "version", "payload", "prev_hash", "hash")
    )
    out.events = len(rows)
    report = verify.Report()
    verify.check_chain(rows, report)
    out.problems += [str(p) for p in report.problems]
    by_seq = {r["seq"]: r["hash"] for r in rows}
    last_seq, last_hash = (rows[-1]["seq"], rows[-1]["hash"]) if rows else (0, "")
    if (game.version, game.chain_head or "") != (last_seq, last_hash):
        out.problems.append(
            f"[head] the game row says version {game.version} head {game.chain_head[:12] or '-'}, "
            f"the stream ends at {last_seq} {last_hash[:12] or '-'}"
        )

    def at(seq, head, what):
        if not isinstance(seq, int) or seq <= 0:
            return
        if seq not in by_seq:
            out.problems.append(f"[published] {what} names version {seq}, which the stream no longer has")
        elif head is not None and by_seq[seq] != head:
            out.problems.append(
                f"[published] {what} published head {str(head)[:12]} at version {seq}; "
                f"the stream has {by_seq[seq][:12]}"
            )

    for nid, payload in Notification.objects.filter(game=game).values_list("id", "payload").iterator():
        g = payload.get("game") if isinstance(payload, dict) else None
        if isinstance(g, dict):
            at(g.get("version"), g.get("chain_head"), f"notification {nid}")
            out.published += 1
        ev = payload.get("event") if isinstance(payload, dict) else None
        if isinstance(ev, dict):
            at(ev.get("seq"), ev.get("hash"), f"notification {nid} (event)")
    if manifest_head is not None:
        at(manifest_head[0], manifest_head[1], "the backup manifest")
    return out


def check_all(
    manifest: dict | None = None, progress: Callable[[int, int, str], None] | None = None
) -> Iterator[GameCheck]:
    games = list(Game.objects.order_by("created_at", "id"))
    wanted = dict((manifest or {}).get("games", {}))
    ids = {str(g.id) for g in games}
    for n, game in enumerate(games, 1):
        if progress:
            progress(n, len(games), f"{game.ruleset} {game.id}")
        yield check_game(game, wanted.get(str(game.id)))
    for gid in sorted(set(wanted) - ids):
        yield GameCheck(
            gid, problems=[f"[manifest] game {gid} is in the backup manifest but not in the database"]
        )
