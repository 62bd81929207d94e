"""Compile locale/*/LC_MESSAGES/*.po into .mo files without GNU gettext.

Called by scripts/install.sh and by the test suite (tests/conftest.py), so a
machine without `msgfmt` (the slim Docker image, CI) still gets the catalogues.
Handles what our catalogues use: msgid/msgstr with continuation lines, the
header entry and plural forms (msgid_plural, msgstr[n]; the header's Plural-Forms
says how many); no contexts (a .po that uses them is refused)."""

from __future__ import annotations

import ast
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "locale"


def parse(po: Path) -> dict[str, str]:
    """msgid -> msgstr; a plural entry as GNU gettext stores it: "singular\\0plural" ->
    "form 0\\0form 1…" (the forms the header's Plural-Forms counts)."""
    entries: dict[str, str] = {}
    key = ""
    ids: dict[str, str] = {}  # "msgid" and "msgid_plural" of the entry being read
    forms: list[str] = []
    for n, raw in enumerate(po.read_text(encoding="utf-8").splitlines() + ['msgid ""'], 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        if word == "msgid" and forms:  # the entry before is complete
            entries["\0".join(filter(None, (ids["msgid"], ids.get("msgid_plural"))))] = "\0".join(forms)
        if word in ("msgid", "msgid_plural"):
            ids = {} if word == "msgid" else ids
            key, ids[word], forms = word, ast.literal_eval(rest), [] if word == "msgid" else forms
        elif word == "msgstr" or word.startswith("msgstr["):
            key = "msgstr"
            forms.append(ast.literal_eval(rest))
        elif line.startswith('"') and key:
            if key == "msgstr":
                forms[-1] += ast.literal_eval(line)
            else:
                ids[key] += ast.literal_eval(line)
        else:
            raise SystemExit(f"{po}:{n}: cannot read {raw!r} (contexts are not supported here)")
    return entries


def mo_bytes(entries: dict[str, str]) -> bytes:
    """The GNU .mo format: header, sorted original and translation tables, strings."""
    keys = sorted(entries)
    ids = b"".join(k.encode() + b"\0" for k in keys)
    strs = b"".join(entries[k].encode() + b"\0" for k in keys)
    start = 7 * 4 + 16 * len(keys)
    offsets, pos = [], 0
    for k in keys:
        offsets.append((len(k.encode()), start + pos))
        pos += len(k.encode()) + 1
    toffsets, pos = [], 0
    for k in keys:
        v = entries[k].encode()
        toffsets.append((len(v), start + len(ids) + pos))
        pos += len(v) + 1
    out = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + 8 * len(keys), 0, 0)
    out += b"".join(struct.pack("ii", *o) for o in offsets)
    out += b"".join(struct.pack("ii", *o) for o in toffsets)
    return out + ids + strs


def main() -> int:
    for po in sorted(ROOT.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        mo.write_bytes(mo_bytes(parse(po)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
