"""English left in a page drawn in another language: the words a reader meets on
the page (visible text, accessible names, options, the title), compared with the same
page in English. A text found verbatim in both, with a Latin word of three or more
letters in it that is not a name everyone writes the same, was not translated.

    english = words.read(page)                    # the page with ?lang=en
    left = words.english_left(words.read(page), english, allow={"hana"})

Reusable for any page (tests/web/test_browser_languages.py; the game, replay and audit pages)."""

from __future__ import annotations

import re
from collections.abc import Iterable

# Names and notations that read the same in every language (a phrase is matched whole).
ALLOWED = frozenset(
    {
        "Sengoku",
        "API",
        "JSON",
        "JSON Lines",
        "SVG",
        "URL",
        "MCTS",
        "Webhook",
        "Swagger",
        "Rising Sun",  # the games' printed names, kept in Spanish (games/rules/*/data/i18n/es.yaml)
        "Shogun",
        "English",  # the language menu names each language in itself
        "Español",
    }
)
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
URL = re.compile(r"\b\w+://\S*")

# The page's words as a reader meets them. Hidden nodes are left out: what a script shows
# later is read when it shows it (read again after the click that shows it).
READ_PAGE = """
const out = [document.title];
const skip = "script, style, noscript, pre, code, textarea";
const shown = (e) => !!(e && (e.offsetParent !== null || e.getClientRects().length));
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const parent = node.parentElement;
  if (!parent || parent.closest(skip)) continue;
  const text = node.textContent.replace(/\\s+/g, " ").trim();
  if (!text) continue;
  if (shown(parent) || (parent.closest("option") && shown(parent.closest("select")))) out.push(text);
}
for (const e of document.querySelectorAll("[aria-label], [title], [placeholder], [alt], input[type=submit][value]")) {
  if (!shown(e)) continue;
  for (const name of ["aria-label", "title", "placeholder", "alt"]) {
    const value = (e.getAttribute(name) || "").trim();
    if (value) out.push(value);
  }
  if (e.matches("input[type=submit]")) out.push(e.value.trim());
}
return out;
"""


def read(page) -> list[str]:
    """The words of the page open in `page` (tests/web/browser.py's Page)."""
    return page.js(READ_PAGE)


def english_left(texts: Iterable[str], english: Iterable[str], allow: Iterable[str] = ()) -> list[str]:
    """The texts of a page in another language that are also on the English page and
    carry a Latin word of 3+ letters outside `ALLOWED` and `allow` (user names, game names)."""
    same = set(english)
    allowed = sorted(ALLOWED | set(allow), key=len, reverse=True)  # longer phrases first
    left = set()
    for text in texts:
        if text not in same:
            continue
        rest = URL.sub(" ", text)
        for phrase in allowed:
            rest = re.sub(rf"(?<![A-Za-z]){re.escape(phrase)}(?![A-Za-z])", " ", rest)
        if LATIN_WORD.search(rest):
            left.add(text)
    return sorted(left)
