"""Six languages, no hidden English (issue 14.4): every language file of every ruleset
has exactly the English keys, no empty text, the same placeholders, and Japanese,
Chinese and Korean texts written in their own scripts."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
import yaml

from games.rules.i18n import LANGUAGES, normalize

ROOT = Path(__file__).resolve().parents[3] / "games" / "rules"
RULESETS = ("rising_sun", "shogun", "imjin")
HANGUL = re.compile(r"[\uac00-\ud7a3]")
KANA = re.compile(r"[\u3040-\u30ff]")
HAN = re.compile(r"[\u4e00-\u9fff\U00020000-\U0002ffff]")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def load(ruleset: str, lang: str) -> dict[str, str]:
    with open(ROOT / ruleset / "data" / "i18n" / f"{lang}.yaml", encoding="utf-8") as f:
        return {str(k): str(v) for k, v in yaml.safe_load(f).items()}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def words(text: str) -> str:
    """The text without placeholders, numbers and punctuation: what a reader reads."""
    return re.sub(r"\{[^}]*\}", "", text)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_in_every_language_with_the_same_placeholders(ruleset, lang):
    en, other = load(ruleset, "en"), load(ruleset, lang)
    assert set(other) == set(en), (set(en) - set(other), set(other) - set(en))
    for key, text in other.items():
        assert text.strip(), f"{lang} {key} is empty"
        assert fields(text) == fields(en[key]), f"{lang} {key}: placeholders differ from English"


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(
    "lang,script",
    [
        ("ja", KANA.pattern[:-1] + HAN.pattern[1:]),
        ("zh-Hant", HAN.pattern),
        ("zh-Hans", HAN.pattern),
        ("ko", HANGUL.pattern),
    ],
)
def test_cjk_and_korean_texts_are_in_their_own_script(ruleset, lang, script):
    for key, text in load(ruleset, lang).items():
        if not re.search(r"[^\W\d_]", words(text)):
            continue  # only placeholders and figures, e.g. "{who} {n}"
        assert re.search(script, text), f"{lang} {key} = {text!r} is not in its own script"
        if lang != "ko":
            assert not HANGUL.search(text), f"{lang} {key} has Hangul"
        # a left-over English word: only the action letters A/B and Latin abbreviations pass
        assert not LATIN_WORD.search(words(text)), f"{lang} {key} = {text!r} has an English word"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_spanish_rules_texts_are_not_english(ruleset):
    en, es = load(ruleset, "en"), load(ruleset, "es")
    for key, text in es.items():
        if key.endswith((".text", ".help")) or key.startswith("log."):
            if len(LATIN_WORD.findall(words(en[key]))) >= 3:  # a sentence, not a loanword like "Ronin"
                assert text != en[key], f"es {key} is the English text"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_simplified_and_traditional_chinese_differ(ruleset):
    hant, hans = load(ruleset, "zh-Hant"), load(ruleset, "zh-Hans")
    assert sum(hant[k] != hans[k] for k in hant) > len(hant) // 4


def test_language_tags_resolve():
    assert normalize("zh-TW") == "zh-Hant" and normalize("zh-HK") == "zh-Hant"
    assert normalize("zh-CN") == "zh-Hans" and normalize("zh") == "zh-Hans"
    assert normalize("ja-JP") == "ja" and normalize("ko_KR") == "ko" and normalize("es-419") == "es"
    assert normalize("fr") is None and normalize("") is None
