"""GET /rulesets/{id}/catalogue: public, cached by ETag, in the caller's language."""

from __future__ import annotations

import pytest

from api.serializers_catalogue import CatalogueSerializer

pytestmark = pytest.mark.django_db
URL = "/api/v1/rulesets/{}/catalogue"


@pytest.mark.parametrize("rid", ["rising-sun", "shogun", "imjin"])
def test_catalogue_is_public_and_complete(api, rid):
    r = api.get(URL.format(rid))
    assert r.status_code == 200
    body = r.json()
    assert body["ruleset"] == rid and body["language"] == "en" and body["rules_version"] >= 1
    assert (
        body["map"]["provinces"]
        and body["factions"]
        and body["cards"]
        and body["commands"]
        and body["prompts"]
    )
    # chosen from the account or the browser: a cache must ask again (the ETag makes it a 304)
    assert r["Cache-Control"] == "private, no-cache" and r["ETag"].startswith('"')
    assert "Cookie" in r["Vary"] and "Accept-Language" in r["Vary"]
    named = api.get(URL.format(rid) + "?lang=en")
    # one URL, one language: any cache may keep it
    assert named["Cache-Control"].startswith("public") and named["ETag"] == r["ETag"]


def test_conditional_get_answers_304(api):
    r = api.get(URL.format("imjin"))
    etag = r["ETag"]
    again = api.get(URL.format("imjin"), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag and again.content == b""
    assert api.get(URL.format("imjin"), HTTP_IF_NONE_MATCH='"stale"').status_code == 200


def test_language_from_query_account_then_header(api, host):
    assert api.get(URL.format("shogun") + "?lang=ja").json()["language"] == "ja"
    assert (
        api.get(URL.format("shogun"), HTTP_ACCEPT_LANGUAGE="zh-TW,zh;q=0.8").json()["language"] == "zh-Hant"
    )
    assert api.get(URL.format("shogun"), HTTP_ACCEPT_LANGUAGE="es-419").json()["language"] == "es"
    assert api.get(URL.format("shogun"), HTTP_ACCEPT_LANGUAGE="fr").json()["language"] == "en"
    me = api.as_(host)
    r = me.patch("/api/v1/accounts/me", {"language": "ko"})
    assert r.status_code == 200 and r.json()["language"] == "ko"
    assert me.get(URL.format("shogun"), HTTP_ACCEPT_LANGUAGE="es").json()["language"] == "ko"
    assert me.get(URL.format("shogun") + "?lang=es").json()["language"] == "es"
    # one ETag per language
    assert me.get(URL.format("shogun"))["ETag"] != api.get(URL.format("shogun"))["ETag"]


def test_bad_language_and_unknown_ruleset_are_json_errors(api, host):
    r = api.get(URL.format("imjin") + "?lang=tlh")
    assert r.status_code == 400 and r.json()["code"] == "unsupported_language"
    r = api.get(URL.format("chess"))
    assert r.status_code == 404 and r.json()["code"] == "unknown_ruleset"
    r = api.get(URL.format("toy-auction"))  # declared like the real ones: its record has a catalogue
    assert r.status_code == 200 and r.json()["ruleset"] == "toy-auction"
    assert CatalogueSerializer(data=r.json()).is_valid(), CatalogueSerializer(data=r.json()).errors
    assert {c["type"] for c in r.json()["commands"]} == {"bid", "keep", "give"}
    r = api.as_(host).patch("/api/v1/accounts/me", {"language": "fr"})
    assert r.status_code == 400 and r.json()["code"] == "invalid"
