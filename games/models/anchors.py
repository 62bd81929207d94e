"""Anchored heads (games/services/anchors.py): every ANCHOR_INTERVAL the checkpoints
issued since the last anchor become the leaves of an RFC 6962 Merkle tree whose
root a timestamp authority (RFC 3161, TSA_URL) signs. `Anchor` is one tree with its
token; `AnchorLeaf` one checkpoint in it, so a game's export can carry the
inclusion proof of its final head."""

from __future__ import annotations

from django.db import models


class Anchor(models.Model):
    created_at = models.DateTimeField()
    # The event store's ids this tree covers: (after_event, last_event]; the next anchor starts there.
    after_event = models.BigIntegerField()
    last_event = models.BigIntegerField()
    tree_size = models.PositiveIntegerField()
    root = models.CharField(max_length=64)  # hex of the RFC 6962 tree head
    token = models.TextField()  # base64 of the TSA's DER TimeStampResp over the root's 32 bytes
    timestamped_at = models.DateTimeField()  # the token's genTime
    tsa_url = models.CharField(max_length=500)

    class Meta:
        ordering = ["-id"]


class AnchorLeaf(models.Model):
    anchor = models.ForeignKey(Anchor, on_delete=models.PROTECT, related_name="leaves")
    index = models.PositiveIntegerField()
    game = models.UUIDField()
    version = models.PositiveIntegerField()
    head = models.CharField(max_length=64)
    issued_at = models.CharField(max_length=40)  # RFC 3339 UTC, as the signed checkpoint writes it

    class Meta:
        ordering = ["anchor", "index"]
        constraints = [models.UniqueConstraint(fields=["anchor", "index"], name="anchor_leaf_index_unique")]
        indexes = [models.Index(fields=["game", "version"], name="anchor_leaf_game_version")]
