"""Anchored heads: the checkpoints issued since the last anchor, as an RFC 6962 tree whose root a TSA timestamps.

`anchor_now()` (the beat task `games.anchor`, every ANCHOR_INTERVAL seconds) takes
`checkpoints_since(cursor)`, hashes them into a Merkle tree (events/merkle.py),
asks TSA_URL for an RFC 3161 token over the root's 32 bytes (rfc3161-client),
checks the answer and stores the tree. `proof_for(game)` gives a finished game's
export the inclusion proof of its final head with the token; the verifier checks
both against the TSA's certificate (games/verify/anchors.py). Without TSA_URL
nothing is anchored and /health says so.
"""

from __future__ import annotations

import base64
import logging
import urllib.request
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import rfc3161_client
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from events import merkle
from events.models import StoredEvent

from ..models import Anchor, AnchorLeaf, Game
from .present import iso

log = logging.getLogger(__name__)

TSA_TIMEOUT_SECONDS = 20


class AnchorFailed(Exception):
    """The TSA did not answer with a valid token over the root: nothing was stored."""


@dataclass(frozen=True)
class Checkpoint:
    """What a signed checkpoint says (its signed bytes are `merkle.checkpoint_leaf`)."""

    game: str
    version: int
    head: str
    issued_at: str

    def leaf(self) -> bytes:
        """The leaf's bytes: the checkpoint's signed text."""
        return merkle.checkpoint_leaf(self.game, self.version, self.head, self.issued_at)


def checkpoints_since(after_event: int, last_event: int) -> list[Checkpoint]:
    """The checkpoints of every version committed with events (after_event, last_event]
    of the event store, in commit order. One commit's events share `recorded_at`, so a
    version is the last event of such a run (the rule of the signed checkpoints). The
    one place that lists checkpoints: point it at a table of issued checkpoints to
    anchor exactly those."""
    rows = list(
        StoredEvent.objects.filter(id__gt=after_event, id__lte=last_event)
        .order_by("id")
        .values_list("id", "stream", "seq", "hash", "recorded_at")
    )
    out: list[Checkpoint] = []
    following: dict[Any, datetime] = {}  # stream -> recorded_at of its next event in the window
    for _, stream, seq, head, at in reversed(rows):
        if following.get(stream) != at:
            out.append(Checkpoint(str(stream), seq, head, iso(at)))
        following[stream] = at
    out.reverse()
    return out


def enabled() -> bool:
    """Whether heads are anchored here (TSA_URL is set)."""
    return bool(getattr(settings, "TSA_URL", ""))


def status() -> str:
    """For /health: whether heads are anchored, and when last."""
    if not enabled():
        return "off: TSA_URL is not set, heads are not anchored"
    last = Anchor.objects.order_by("-id").first()
    return f"ok (last anchor {iso(last.timestamped_at)})" if last else "ok (no anchor yet)"


def timestamp(root: bytes, url: str) -> tuple[bytes, datetime]:
    """An RFC 3161 token (the DER TimeStampResp) over `root`, checked to answer this request."""
    request = (
        rfc3161_client.TimestampRequestBuilder()
        .data(root)
        .nonce(nonce=True)
        .cert_request(cert_request=True)
        .build()
    )
    http = urllib.request.Request(
        url, data=request.as_bytes(), headers={"Content-Type": "application/timestamp-query"}, method="POST"
    )
    try:
        # the operator's configured TSA (a setting, never user input)
        with urllib.request.urlopen(http, timeout=TSA_TIMEOUT_SECONDS) as answer:  # noqa: S310
            der = answer.read()
        response = rfc3161_client.decode_timestamp_response(der)
    except (OSError, ValueError) as exc:
        raise AnchorFailed(f"the TSA at {url} did not answer a token: {exc}") from exc
    info = response.tst_info
    if (
        rfc3161_client.PKIStatus(response.status) != rfc3161_client.PKIStatus.GRANTED
        or info.nonce != request.nonce
        or info.message_imprint.message != request.message_imprint.message
    ):
        raise AnchorFailed(f"the TSA at {url} answered a token for another request")
    return der, info.gen_time


def anchor_now() -> Anchor | None:
    """Anchor every checkpoint issued since the last anchor (None: anchoring is off, or
    nothing new). The TSA is asked outside any transaction; the cursor moves only
    when the tree is stored."""
    if not enabled():
        return None
    last = Anchor.objects.order_by("-id").first()
    after = last.last_event if last else 0
    upto = StoredEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0
    points = checkpoints_since(after, upto)
    if not points:
        return None
    hashes = [merkle.leaf_hash(p.leaf()) for p in points]
    root = merkle.root(hashes)
    der, at = timestamp(root, settings.TSA_URL)
    with transaction.atomic():
        anchor = Anchor.objects.create(
            created_at=timezone.now(),
            after_event=after,
            last_event=upto,
            tree_size=len(points),
            root=root.hex(),
            token=base64.b64encode(der).decode("ascii"),
            timestamped_at=at,
            tsa_url=settings.TSA_URL,
        )
        AnchorLeaf.objects.bulk_create(
            AnchorLeaf(
                anchor=anchor, index=i, game=p.game, version=p.version, head=p.head, issued_at=p.issued_at
            )
            for i, p in enumerate(points)
        )
    log.info("anchored %d checkpoints under root %s", len(points), anchor.root)
    return anchor


def anchor_json(anchor: Anchor) -> dict[str, Any]:
    """An anchor as GET /api/v1/anchors lists it."""
    return {
        "id": anchor.id,
        "tree_size": anchor.tree_size,
        "root": anchor.root,
        "timestamped_at": iso(anchor.timestamped_at),
        "token": anchor.token,
        "tsa_url": anchor.tsa_url,
    }


def proof_for(game: Game) -> dict[str, Any] | None:
    """The anchor of a finished (or aborted) game's final head: the checkpoint, its
    inclusion proof in the anchor's tree and the TSA token; None until anchored."""
    if game.status not in (Game.Status.FINISHED, Game.Status.ABORTED):
        return None
    mine = (
        AnchorLeaf.objects.filter(game=game.id, version=game.version, head=game.chain_head)
        .select_related("anchor")
        .order_by("anchor_id")
        .first()
    )
    if mine is None:
        return None
    leaves = list(AnchorLeaf.objects.filter(anchor_id=mine.anchor_id).order_by("index"))
    hashes = [
        merkle.leaf_hash(merkle.checkpoint_leaf(str(x.game), x.version, x.head, x.issued_at)) for x in leaves
    ]
    return {
        **anchor_json(mine.anchor),
        "leaf_index": mine.index,
        "checkpoint": {
            "game": str(mine.game),
            "version": mine.version,
            "head": mine.head,
            "issued_at": mine.issued_at,
        },
        "path": [h.hex() for h in merkle.inclusion_path(hashes, mine.index)],
    }


def annotate(game: Game, out: list[dict[str, Any]]) -> None:
    """Put the final head's anchor on the export's last line, once it has one."""
    proof = proof_for(game) if out else None
    if proof is not None:
        out[-1]["anchor"] = proof
