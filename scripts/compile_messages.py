"""Compile locale/*/LC_MESSAGES/django.po into .mo files without GNU gettext.

Called by scripts/install.sh and by the test suite (tests/conftest.py), so a
machine without `msgfmt` (the slim Docker image, CI) still gets the catalogues.
Handles what our catalogues use: msgid/msgstr with continuation lines and the
header entry; no plurals or contexts (a .po that uses them is refused)."""

from __future__ import annotations

import ast
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "locale"


def parse(po: Path) -> dict[str, str]:
    entries: dict[str, str] = {}
    key: str | None = None
    msgid = msgstr = ""
    for n, raw in enumerate(po.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith(("msgctxt", "msgid_plural", "msgstr[")):
            raise SystemExit(f"{po}:{n}: plurals and contexts are not supported here")
        if line.startswith("msgid "):
            if key == "msgstr":
                entries[msgid] = msgstr
            key, msgid, msgstr = "msgid", ast.literal_eval(line[6:]), ""
        elif line.startswith("msgstr "):
            key, msgstr = "msgstr", ast.literal_eval(line[7:])
        elif line.startswith('"') and key == "msgid":
            msgid += ast.literal_eval(line)
        elif line.startswith('"') and key == "msgstr":
            msgstr += ast.literal_eval(line)
        else:
            raise SystemExit(f"{po}:{n}: cannot read {raw!r}")
    if key == "msgstr":
        entries[msgid] = msgstr
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
