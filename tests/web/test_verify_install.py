"""The audit page names the verifier's distribution and version to install
(web/templates/web/_verify_install.html), in the viewer's language."""

from __future__ import annotations

import pytest
from django.test import Client

from games import verify
from tests.audit import driver

pytestmark = pytest.mark.django_db


def test_the_audit_page_says_what_to_install(host):
    game = driver.play_out(driver.new_game(), seed=2)
    client = Client()
    client.force_login(game.creator)
    pin = f"{verify.DISTRIBUTION}=={verify.__version__}"
    page = client.get(f"/games/{game.id}/audit").content.decode()
    assert pin == "sengoku-verify==1.0.0" and page.count(pin) == 2
    assert "pip install ./verifier" in page and f"sengoku-verify {game.ruleset}-{game.id}.jsonl" in page
    assert 'href="/api/v1/anchors"' in page
    japanese = client.get(f"/games/{game.id}/audit?lang=ja").content.decode()
    assert "サーバーのコードなしで検証する" in japanese and pin in japanese
