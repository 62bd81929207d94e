"""The server's own sentences in six languages (issue 14.4): every gettext entry is
translated in every catalogue, error details and emails follow the caller's language."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest
from django.core import mail
from django.utils import translation
from django.utils.translation import gettext

from accounts.models import Profile, profile_of
from games.pbem import emails
from games.services.error_texts import SENTENCES
from games.services.errors import ErrorCode

ROOT = Path(__file__).resolve().parents[2]
COMPILE = runpy.run_path(str(ROOT / "scripts" / "compile_messages.py"), run_name="compile")
CATALOGUES = {"ja": "ja", "zh-Hant": "zh_Hant", "zh-Hans": "zh_Hans", "es": "es", "ko": "ko"}
SCRIPT = {
    "ja": r"[\u3040-\u30ff\u4e00-\u9fff]",
    "zh-Hant": r"[\u4e00-\u9fff]",
    "zh-Hans": r"[\u4e00-\u9fff]",
    "ko": r"[\uac00-\ud7a3]",
}


def po(lang: str) -> dict[str, str]:
    entries = COMPILE["parse"](ROOT / "locale" / CATALOGUES[lang] / "LC_MESSAGES" / "django.po")
    entries.pop("", None)  # the header
    return entries


def test_every_error_code_has_a_sentence():
    assert set(SENTENCES) == set(ErrorCode)


@pytest.mark.parametrize("lang", CATALOGUES)
def test_every_catalogue_translates_every_server_string(lang):
    entries = po(lang)
    wanted = set(SENTENCES.values()) | set(emails.SUBJECTS.values()) | {emails.NEWS}
    assert wanted <= set(entries), wanted - set(entries)
    assert set(entries) == set(po("ja")), "the catalogues list different sentences"
    for msgid, msgstr in entries.items():
        assert msgstr.strip(), f"{lang}: {msgid!r} has an empty msgstr"
        assert msgstr != msgid, f"{lang}: {msgid!r} is left in English"
        assert set(re.findall(r"%\(\w+\)s", msgstr)) == set(re.findall(r"%\(\w+\)s", msgid)), (lang, msgid)
        if lang in SCRIPT:
            assert re.search(SCRIPT[lang], msgstr), f"{lang}: {msgstr!r} is not in its own script"


@pytest.mark.parametrize("lang", CATALOGUES)
def test_compiled_catalogue_is_what_django_reads(lang):
    with translation.override(lang):
        assert gettext(SENTENCES[ErrorCode.GAME_NOT_FOUND]) == po(lang)[SENTENCES[ErrorCode.GAME_NOT_FOUND]]


@pytest.mark.django_db
def test_error_detail_follows_the_callers_language(api, host):
    url = "/api/v1/games/00000000-0000-0000-0000-000000000000"
    me = api.as_(host)
    ja = me.get(url, HTTP_ACCEPT_LANGUAGE="ja").json()
    assert ja["detail"] == po("ja")[SENTENCES[ErrorCode.GAME_NOT_FOUND]]
    en = me.get(url).json()
    assert en["code"] == "game_not_found" and not re.search(SCRIPT["ja"], en["detail"])
    # DRF's own sentences come translated too (its catalogues), else the code's sentence
    anonymous = api.get(url, HTTP_ACCEPT_LANGUAGE="zh-TW").json()
    assert anonymous["code"] == "not_authenticated" and re.search(SCRIPT["zh-Hant"], anonymous["detail"])
    assert me.patch("/api/v1/accounts/me", {"language": "ko"}).status_code == 200
    r = me.get(url)
    assert r.json()["code"] == "game_not_found" and re.search(SCRIPT["ko"], r.json()["detail"])
    # a bad ?lang= is itself an error, answered in the account's language
    r = me.get("/api/v1/rulesets/imjin/catalogue?lang=xx")
    assert r.json()["code"] == "unsupported_language" and re.search(SCRIPT["ko"], r.json()["detail"])


@pytest.mark.django_db
@pytest.mark.parametrize("lang", CATALOGUES)
@pytest.mark.parametrize(
    "kind", ["your_turn", "reminder", "default_applied", "game_started", "game_finished", "message"]
)
def test_emails_are_written_in_the_recipients_language(host, lang, kind):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(id=host.id)
    payload = {
        "kind": kind,
        "seat": 1,
        "decision": "plan",
        "deadline": "2026-12-01T00:00:00Z",
        "default_command_text": '{"type": "pass"}',
        "misses": 1,
        "excused_misses": 2,
        "zombie": True,
        "outcome": {"reason": "done"},
        "winners_text": "0",
        "message": {"from_name": "kenji", "private": True, "text": "hello"},
        "game": {"id": "g1", "name": "Table 1", "url": "http://x/g1", "version": 3, "chain_head": "abc"},
    }
    english = emails.build(user, profile_of(user), payload)
    Profile.objects.filter(user=user).update(language=lang)
    local = emails.build(user, profile_of(user), payload)
    assert local.subject != english.subject
    kept = ("http://", "hello", "--", "{", "Table 1")
    for line in english.body.splitlines():
        if re.search(r"[A-Za-z]{3,}", line) and not any(k in line for k in kept) and line.strip() != "":
            assert line not in local.body, f"{lang}: left in English: {line!r}"
    if lang in SCRIPT:
        assert re.search(SCRIPT[lang], local.body)
    mail.outbox.clear()
