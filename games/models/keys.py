"""The public halves of the server's checkpoint signing keys (games/services/signing.py).

Only public keys live here, so a database dump holds no signing secret; the
private key is a file (SIGNING_KEY_FILE). A key is recorded the first time a
process signs with it and gets `retired` when another key takes its place, so
`GET /api/v1/keys` keeps verifying every checkpoint ever issued."""

from __future__ import annotations

from django.db import models


class SigningKey(models.Model):
    kid = models.CharField(max_length=16, primary_key=True)
    public_key = models.CharField(max_length=64)  # base64url of the 32 raw Ed25519 bytes
    created = models.DateTimeField()
    retired = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created", "kid"]
