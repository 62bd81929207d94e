"""Receipts in the browser (issue 34): the game page keeps the signed checkpoint
of every command answer and view in localStorage (web/static/web/receipts.js),
each one verifies with GET /api/v1/keys, and the audit page offers them as a
JSON Lines download with the verifier's command. One seeded game, few loads."""

from __future__ import annotations

import json
import random

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from events.codec import checkpoint_message, from_b64url

from . import browser
from .test_browser import page, play, server  # noqa: F401  (the module's server and browser fixtures)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(browser.missing() is not None, reason=browser.missing() or ""),
    pytest.mark.xdist_group("browser"),
]


def kept(on: browser.Page, gid: str) -> list[dict]:
    return json.loads(on.js("return localStorage.getItem(arguments[0]) || '[]'", f"sengoku.receipts.{gid}"))


def test_the_game_page_keeps_receipts_and_the_audit_page_offers_them(page):  # noqa: F811
    page.sign_up("receipt-keeper")
    gid = page.create_game("imjin", 2, 1)
    assert play(page, random.Random(34), 2) == 2
    receipts = kept(page, gid)
    status, text = page.fetch_text("/api/v1/keys")
    assert status == 200
    keys = {
        k["kid"]: Ed25519PublicKey.from_public_bytes(from_b64url(k["public_key"]))
        for k in json.loads(text)["keys"]
    }
    assert len(receipts) >= 3 and [r["version"] for r in receipts] == sorted(r["version"] for r in receipts)
    for receipt in receipts:
        assert receipt["game"] == gid
        message = checkpoint_message(gid, receipt["version"], receipt["head"], receipt["issued_at"])
        keys[receipt["kid"]].verify(from_b64url(receipt["signature"]), message)  # raises when bad
    status, feed = page.fetch_text(f"/api/v1/games/{gid}/export")
    hashes = {row["seq"]: row["hash"] for row in map(json.loads, feed.splitlines())}
    assert all(hashes[r["version"]] == r["head"] for r in receipts)

    page.go(f"/games/{gid}/audit")
    link = page.css("[data-receipts-download]")
    page.wait(link.is_displayed, what="the receipts' download link")
    assert str(len(kept(page, gid))) in page.css("[data-receipts-count]").text
    assert "--receipts" in page.css("#receipts-cmd").text and "/api/v1/keys" in page.css("#receipts-cmd").text
    # the link holds Receipts.lines() as a blob (the policy keeps the page itself from fetching it)
    assert link.get_attribute("href").startswith("blob:")
    assert link.get_attribute("download") == f"receipts-{gid}.jsonl"
    lines = page.js("return Receipts.lines(arguments[0])", gid)
    assert [json.loads(line) for line in lines.splitlines()] == kept(page, gid)
    page.shot("audit-receipts")
