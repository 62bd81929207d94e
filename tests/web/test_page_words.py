"""Every word of the web client in six languages, checked without a browser.

(a) Each msgid the pages ask for -- gettext/ngettext in web/static/web/*.js, translate and
blocktranslate in web/templates/web, gettext* in web/*.py -- has a non-empty msgstr in
each of the five .po files of its domain (djangojs for scripts, django for the rest); no
.po file repeats a msgid, and none keeps an entry nothing uses. (b) No template leaves a
Latin word outside a translate tag (text, and the attributes a reader or screen reader
gets), bar the names in ALLOWED. docs/web.md says how words are added."""

from __future__ import annotations

import ast
import gettext as gettext_module
import importlib.util
import io
import json
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.utils.translation.template import templatize

from . import words

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "locale"
LANGUAGES = ("ja", "ko", "es", "zh_Hans", "zh_Hant")
SCRIPTS = sorted((ROOT / "web" / "static" / "web").glob("*.js"))
TEMPLATES = sorted((ROOT / "web" / "templates" / "web").glob("*.html"))
WEB_PYTHON = sorted(p for p in (ROOT / "web").rglob("*.py"))
# First-party code whose sentences the django domain also carries (errors, emails).
PACKAGES = ("accounts", "api", "config", "events", "games", "heartbeats", "ops", "telemetry", "web")
# Names and notations that are the same in every language.
ALLOWED = frozenset({"Sengoku", "API", "JSON", "SVG", "Swagger", "URL", "VP"})
# scripts/ is not a package: the compiler is loaded from its file.
_spec = importlib.util.spec_from_file_location("compile_messages", ROOT / "scripts" / "compile_messages.py")
assert _spec is not None and _spec.loader is not None
compile_messages = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compile_messages)
PYTHON_GETTEXT = {"gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy"}


# -- reading .po files -------------------------------------------------------------------------
def po_entries(po: Path) -> list[tuple[str, list[str]]]:
    """(msgid, [msgstr, ...]) in file order, duplicates kept; plural forms as several msgstrs."""
    entries: list[tuple[str, list[str]]] = []
    msgid: str | None = None
    strings: list[str] = []
    field = ""
    for raw in po.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("msgid "):
            if msgid is not None:
                entries.append((msgid, strings))
            msgid, strings, field = ast.literal_eval(line[6:]), [], "msgid"
        elif line.startswith("msgid_plural "):
            field = "plural"
        elif line.startswith("msgstr"):
            strings.append(ast.literal_eval(line.split(" ", 1)[1]))
            field = "msgstr"
        elif line.startswith('"') and field == "msgid" and msgid is not None:
            msgid += ast.literal_eval(line)
        elif line.startswith('"') and field == "msgstr":
            strings[-1] += ast.literal_eval(line)
    if msgid is not None:
        entries.append((msgid, strings))
    return [(k, v) for k, v in entries if k]  # the header's msgid is ""


# -- what the pages ask for --------------------------------------------------------------------
JS_CALL = re.compile(r"\b(n?gettext)\s*\(\s*")
JS_STRING = re.compile(r"""("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')""")
TEMPLATE_CALL = re.compile(r"""\b(?:n?p?gettext)\((u?'(?:[^'\\]|\\.)*'|u?"(?:[^"\\]|\\.)*")""")


def script_msgids(path: Path) -> tuple[set[str], list[str]]:
    """The msgids of a script's gettext/ngettext calls, and the calls not made with a
    string literal (their words cannot be checked, so they are refused)."""
    text = path.read_text(encoding="utf-8")
    found, bad = set(), []
    for call in JS_CALL.finditer(text):
        literal = JS_STRING.match(text, call.end())
        if literal is None:
            line = text.count("\n", 0, call.start()) + 1
            bad.append(f"{path.name}:{line}: {text[call.start() : call.start() + 50]!r}")
            continue
        found.add(ast.literal_eval(literal.group(1)))
    return found, bad


def template_msgids(path: Path) -> set[str]:
    """What `makemessages` would take from a template (Django's own templatize)."""
    code = templatize(path.read_text(encoding="utf-8"), origin=str(path))
    return {ast.literal_eval(m.group(1).lstrip("u")) for m in TEMPLATE_CALL.finditer(code)}


def python_msgids(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in PYTHON_GETTEXT and isinstance(node.args[0].value, str):
                found.add(node.args[0].value)
    return found


def scripts_ask() -> set[str]:
    return set().union(*(script_msgids(p)[0] for p in SCRIPTS))


def pages_ask() -> set[str]:
    return set().union(*(template_msgids(p) for p in TEMPLATES), *(python_msgids(p) for p in WEB_PYTHON))


@pytest.fixture(scope="module")
def first_party_source() -> str:
    """All first-party code and templates: a django.po entry is used when its msgid is
    asked for there, or stands there verbatim (a service's sentence that api/errors.py
    translates when it is answered)."""
    texts = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*"):
            if path.suffix in (".py", ".html", ".txt") and path.is_file():
                texts.append(path.read_text(encoding="utf-8", errors="replace"))
                if path.suffix in (".html", ".txt") and "templates" in path.parts:
                    texts.extend(template_msgids(path))
                elif path.suffix == ".py":
                    texts.extend(python_msgids(path))
    return "\n".join(texts)


# -- (a) every msgid in every language ---------------------------------------------------------
def test_the_extractors_find_what_the_pages_ask_for():
    """Guards the checks below against finding nothing (a broken pattern passes everything)."""
    assert "Saved." in scripts_ask()
    assert {"Lobby", "Sign in", "Too many sign-ups", "Untimed"} <= pages_ask()
    assert any("%(signup_url)s" in m for m in pages_ask()), "blocktranslate bodies are read"


def test_scripts_call_gettext_with_a_string_literal():
    bad = [b for p in SCRIPTS for b in script_msgids(p)[1]]
    assert not bad, f"gettext/ngettext must be called with a string literal so its words are checked: {bad}"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", ["djangojs", "django"])
def test_every_word_asked_for_has_a_translation(domain, language):
    asked = scripts_ask() if domain == "djangojs" else pages_ask()
    entries = dict(po_entries(LOCALE / language / "LC_MESSAGES" / f"{domain}.po"))
    missing = sorted(m for m in asked if m not in entries)
    empty = sorted(m for m in asked if m in entries and not all(s.strip() for s in entries[m]))
    assert not missing, f"{language}/{domain}.po lacks {missing}"
    assert not empty, f"{language}/{domain}.po leaves these empty: {empty}"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", ["djangojs", "django"])
def test_no_msgid_twice(domain, language):
    """The .po files merge with git's union driver: two branches adding one msgid leave it twice."""
    ids = [k for k, _ in po_entries(LOCALE / language / "LC_MESSAGES" / f"{domain}.po")]
    twice = sorted({k for k in ids if ids.count(k) > 1})
    assert not twice, f"{language}/{domain}.po has these msgids more than once (keep one): {twice}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_unused_script_words(language):
    asked = scripts_ask()
    unused = [k for k, _ in po_entries(LOCALE / language / "LC_MESSAGES" / "djangojs.po") if k not in asked]
    assert not unused, f"{language}/djangojs.po has entries no script asks for: {unused}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_unused_server_words(language, first_party_source):
    entries = po_entries(LOCALE / language / "LC_MESSAGES" / "django.po")
    unused = [k for k, _ in entries if k not in first_party_source]
    assert not unused, f"{language}/django.po has entries nothing uses: {unused}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_five_languages_carry_the_same_msgids(language):
    for domain in ("django", "djangojs"):
        ours = {k for k, _ in po_entries(LOCALE / language / "LC_MESSAGES" / f"{domain}.po")}
        japanese = {k for k, _ in po_entries(LOCALE / "ja" / "LC_MESSAGES" / f"{domain}.po")}
        assert ours == japanese, f"{domain}: {language} and ja differ by {sorted(ours ^ japanese)}"


# -- (b) no word outside a translate tag -------------------------------------------------------
TRANSLATED = re.compile(
    r"{%\s*blocktrans(?:late)?\b.*?%}.*?{%\s*endblocktrans(?:late)?\s*%}|{%\s*trans(?:late)?\s.*?%}", re.S
)
COMMENTS = re.compile(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}|{#.*?#}|<!--.*?-->", re.S)
TEMPLATE_CODE = re.compile(r"{{.*?}}|{%.*?%}", re.S)
# Not words: scripts, styles, code and commands shown as code.
NOT_WORDS = re.compile(r"<(script|style|pre|code)\b[^>]*>.*?</\1>", re.S | re.I)
READ_ATTRIBUTES = re.compile(r"""\b(aria-label|title|placeholder|alt)\s*=\s*("[^"]*"|'[^']*')""", re.I)
TAG = re.compile(r"<[^>]*>", re.S)
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]")
URL = re.compile(r"\w+://\S*")


def untranslated(source: str) -> list[str]:
    """The Latin words a reader would see in a template that no translate tag covers."""
    text = COMMENTS.sub(" ", source)
    text = TRANSLATED.sub(" ", text)
    text = NOT_WORDS.sub(" ", text)
    found = []
    for attribute in READ_ATTRIBUTES.finditer(TEMPLATE_CODE.sub(" ", text)):
        found += [f"{attribute.group(1)}={w}" for w in _words(attribute.group(2)[1:-1])]
    text = TEMPLATE_CODE.sub(" ", text)
    text = TAG.sub(" ", text)
    return found + _words(text)


def _words(text: str) -> list[str]:
    text = URL.sub(" ", text)
    return [w for w in LATIN_WORD.findall(text) if w not in ALLOWED]


def test_the_template_check_sees_words():
    """Guards the check below against a pattern that hides everything."""
    assert untranslated("<p>Your move</p>") == ["Your", "move"]
    assert untranslated('<button aria-label="Close">×</button>') == ["aria-label=Close"]
    assert untranslated("<p>{% translate 'Your move' %} {{ seat }}</p><pre>python -m x</pre>") == []
    assert untranslated("{% blocktranslate %}by {{ name }}{% endblocktranslate %} Sengoku · API") == []


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: p.name)
def test_no_word_outside_a_translate_tag(template):
    left = untranslated(template.read_text(encoding="utf-8"))
    assert not left, f"{template.name}: wrap these in {{% translate %}} / {{% blocktranslate %}}: {left}"


# -- the language switch takes at once -----------------------------------------------------------
def says(catalogue, text: str) -> bool:
    """Whether the script catalogue carries `text` (Django writes it as JSON, non-ASCII escaped)."""
    return json.dumps(text)[1:-1] in catalogue.content.decode()


@pytest.mark.django_db
def test_the_script_catalogue_has_a_url_per_language_and_is_always_revalidated(client):
    page = client.get("/accounts/signin", HTTP_ACCEPT_LANGUAGE="ja")
    assert page["Content-Language"] == "ja" and "Accept-Language" in page["Vary"]
    assert 'src="/jsi18n/?lang=ja"' in page.content.decode(), "the page asks for its own language's words"
    english, japanese = client.get("/jsi18n/?lang=en"), client.get("/jsi18n/?lang=ja")
    assert says(japanese, "保存しました。") and not says(english, "保存しました。")
    for answer in (english, japanese):
        assert answer["Cache-Control"] == "no-cache" and answer["ETag"]
    assert english["ETag"] != japanese["ETag"]
    again = client.get("/jsi18n/?lang=ja", HTTP_IF_NONE_MATCH=japanese["ETag"])
    assert again.status_code == 304
    # the same ETag asked in another language answers the new words, not a 304
    switched = client.get("/jsi18n/?lang=ko", HTTP_IF_NONE_MATCH=japanese["ETag"])
    assert switched.status_code == 200 and says(switched, "저장했습니다.")


@pytest.mark.django_db
def test_a_page_follows_the_account_language_at_once_and_is_not_kept(client):
    user = get_user_model().objects.create_user("hana", "", "a-l0ng-passphrase!")
    client.force_login(user)
    assert client.get("/accounts/settings")["Content-Language"] == "en"
    r = client.patch("/api/v1/accounts/me", {"language": "ko"}, content_type="application/json")
    assert r.status_code == 200, r.content
    page = client.get("/")
    assert page["Content-Language"] == "ko" and "로비" in page.content.decode()
    assert 'src="/jsi18n/?lang=ko"' in page.content.decode()
    assert "no-cache" in page["Cache-Control"], (
        "a page kept by the browser would come back in the old language"
    )


# -- the detector the browser tests use ----------------------------------------------------------
def test_english_left_finds_english_on_another_language_page():
    english = ["Lobby", "Your turn", "Sengoku", "hana", "API", "https://…", "3/5"]
    japanese = ["ロビー", "Your turn", "Sengoku", "hana", "API", "https://…", "3/5"]
    assert words.english_left(japanese, english, allow={"hana"}) == ["Your turn"]
    assert words.english_left(japanese, english) == ["Your turn", "hana"]
    assert words.english_left(["Rising Sun · Shogun"], ["Rising Sun · Shogun"]) == []


# -- plural forms compile (scripts/compile_messages.py) ------------------------------------------
def test_plural_forms_compile_into_what_gettext_reads(tmp_path):
    po = tmp_path / "djangojs.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        'msgid "%(n)s coin"\nmsgid_plural "%(n)s coins"\nmsgstr[0] "%(n)s moneda"\nmsgstr[1] "%(n)s monedas"\n\n'
        'msgid "Saved."\nmsgstr "Guardado."\n',
        encoding="utf-8",
    )
    catalogue = gettext_module.GNUTranslations(
        io.BytesIO(compile_messages.mo_bytes(compile_messages.parse(po)))
    )
    assert catalogue.ngettext("%(n)s coin", "%(n)s coins", 1) == "%(n)s moneda"
    assert catalogue.ngettext("%(n)s coin", "%(n)s coins", 3) == "%(n)s monedas"
    assert catalogue.gettext("Saved.") == "Guardado."
    entries = dict(po_entries(po))
    assert entries["%(n)s coin"] == ["%(n)s moneda", "%(n)s monedas"]
