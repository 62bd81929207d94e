"""Per-ruleset translations of names, card texts, labels and log lines (pure:
no Django). Each ruleset keeps ``data/i18n/<language>.yaml``: a flat mapping
``key -> text`` with ``{name}`` placeholders. Every language file has exactly the
keys of ``en.yaml`` (tests/rules/test_i18n_complete.py): a missing or empty text
fails the build instead of falling back to English at run time."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path

import yaml

LANGUAGES: tuple[str, ...] = ("en", "ja", "zh-Hant", "zh-Hans", "es", "ko")
DEFAULT = "en"


def normalize(lang: str | None) -> str | None:
    """A supported language for a tag such as ``zh-TW``, ``ja-JP`` or ``es_419``; None if none fits."""
    if not lang:
        return None
    tag = lang.strip().replace("_", "-").lower()
    for known in LANGUAGES:
        if tag == known.lower():
            return known
    if tag.startswith("zh"):
        # Traditional script for Taiwan, Hong Kong and Macau, and for an explicit Hant tag.
        return "zh-Hant" if any(p in tag for p in ("hant", "-tw", "-hk", "-mo")) else "zh-Hans"
    base = tag.split("-")[0]
    return base if base in LANGUAGES else None


@cache
def table(folder: str, lang: str) -> Mapping[str, str]:
    path = Path(folder) / f"{lang}.yaml"
    if not path.exists():  # the completeness test fails on it; a request does not
        return {}
    with open(path, encoding="utf-8") as f:
        loaded = yaml.safe_load(f) or {}
    return {str(k): str(v) for k, v in loaded.items()}


class Texts:
    """The texts of one ruleset in one language: ``t("province.Kyoto")``,
    ``t("log.battle", province=...)``. A key the language lacks falls back to
    English only at run time (the completeness test keeps that from happening)."""

    def __init__(self, folder: Path | str, lang: str):
        self.lang = lang if lang in LANGUAGES else DEFAULT
        self._folder = str(folder)
        self._table = table(self._folder, self.lang)

    def has(self, key: str) -> bool:
        return key in self._table or key in table(self._folder, DEFAULT)

    def keys(self, prefix: str) -> list[str]:
        """Every key starting with `prefix` (English has them all), in file order."""
        return [k for k in table(self._folder, DEFAULT) if k.startswith(prefix)]

    def __call__(self, key: str, **params: object) -> str:
        text = self._table.get(key)
        if text is None:
            text = table(self._folder, DEFAULT).get(key, key)
        return text.format(**params) if params else text


def join(lang: str, parts: list[str]) -> str:
    """Clauses of one log line: '; ' in Latin scripts, the full-width semicolon in CJK."""
    sep = {"ja": "。", "zh-Hant": "；", "zh-Hans": "；"}.get(lang, "; ")
    return sep.join(p for p in parts if p)
