"""The replay and audit pages for a visitor (issue 33), through Django's test
client: steps by command grouped by turns, in the reader's language, with no
internal event names; the scoring breakdown; the audit's terms in words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client

from games.models import Game
from games.services import audit

pytestmark = pytest.mark.django_db
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "games"


@pytest.fixture
def finished():
    call_command("import_game", str(FIXTURES / "rising-sun-3p-v4-a.jsonl"))
    return Game.objects.get()


def _boot(html: str) -> dict:
    found = re.search(r'<script id="boot" type="application/json">(.*?)</script>', html, re.S)
    assert found
    return json.loads(found.group(1))


@pytest.mark.parametrize(
    "lang,words",
    [("en", ("Spring", "Next turn", "Winter: War tokens")), ("ja", ("春", "次の手番", "冬：戦争トークン"))],
)
def test_a_visitor_reads_the_replay_by_steps_and_turns(finished, lang, words):
    html = Client().get(f"/games/{finished.id}/replay?lang={lang}").content.decode()
    boot = _boot(html)
    assert len(boot["steps"]) < finished.version and boot["steps"][-1][1] == finished.version
    assert boot["step"] == len(boot["steps"]) - 1  # opens at the end
    assert len(boot["turns"]) >= 3
    for word in words:
        assert word in html
    assert "core." not in html.replace("web/core", "") and "rising-sun.CommandApplied" not in html
    assert 'id="scoring"' in html and html.count('class="scoring"') == finished.players
    assert "makes a secret choice" not in html and 'class="revealed"' in html
    # ?version= opens the step holding that version
    boot = _boot(Client().get(f"/games/{finished.id}/replay?version=40").content.decode())
    first, last, _ = boot["steps"][boot["step"]]
    assert first <= 40 <= last


def test_the_audit_page_explains_its_terms_and_names_who(finished):
    html = Client().get(f"/games/{finished.id}/audit").content.decode()
    for term in ("commitment", "hash", "seed", "chain", "salt"):
        assert term in html.lower()
    assert "Seat -1" not in html and not re.search(r">at \d+<", html)
    if any(c["seat"] < 0 for c in audit.audit(finished)["commitments"]):
        assert "the server (a secret of the game itself" in html
    assert re.search(r"revealed at version \d+ \(step \d+ of the replay\)", html)
    assert "seat 0: imported-hana" in html
    assert "open to everyone" in html
    ja = Client().get(f"/games/{finished.id}/audit?lang=ja").content.decode()
    assert "コミットメント" in ja and "What it means" not in ja
