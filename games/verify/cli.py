"""The command line: ``python -m games.verify GAME.jsonl [--ruleset-module M:ATTR] [--json] [--shallow]
[--keys KEYS.json [--receipts RECEIPTS.jsonl]]``.

Prints the report (text, or JSON with ``--json``) of a game's JSON Lines export.
Exit status: 0 when every check that could run passed, 1 on any mismatch, 2 when
the file cannot be read or its ruleset is unknown. ``--keys`` (the /keys document)
checks the export's signed checkpoints and the ``--receipts`` kept (receipts.py):
a signed head the export contradicts prints INCONSISTENT (exit 1). ``--ruleset-module`` registers
an extra engine object (the test-only toy ruleset, a ruleset not shipped here)
under its own ``id``; ``--shallow`` skips the replay.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys

from games.rules import registry

from . import anchors, receipts
from .reading import load_jsonl
from .report import VerifyError, format_report
from .run import verify

# `sengoku-verify` (the verifier/ distribution) runs this same main under its own name.
DESCRIPTION = "The standalone verifier: audit an exported game without Django or a database."


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m games.verify", description=DESCRIPTION)
    ap.add_argument("file", help="a game's JSON Lines export")
    ap.add_argument(
        "--ruleset-module",
        action="append",
        default=[],
        metavar="MODULE:ATTR",
        help="register an extra engine object, e.g. tests.support.toy:RULES (repeatable)",
    )
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    ap.add_argument("--shallow", action="store_true", help="chain, seed and commitments only (no replay)")
    ap.add_argument("--keys", metavar="FILE", help="the server's GET /api/v1/keys document")
    ap.add_argument(
        "--receipts", metavar="FILE", help="signed checkpoints you kept (JSON Lines); needs --keys"
    )
    ap.add_argument(
        "--tsa-cert",
        metavar="FILE",
        help="the timestamp authority's certificate (PEM; its chain may follow): checks the anchor's token",
    )
    args = ap.parse_args(argv)
    if args.receipts and not args.keys:
        ap.error("--receipts needs --keys (the server's GET /api/v1/keys document)")
    try:
        for target in args.ruleset_module:
            register_module(target)
        rows = load_jsonl(args.file)
        report = verify(rows, deep=not args.shallow)
        if args.keys:
            kept = receipts.load_receipts(args.receipts) if args.receipts else []
            receipts.check_receipts(rows, kept, receipts.load_keys(args.keys), report)
        tsa = anchors.load_certificates(args.tsa_cert) if args.tsa_cert else []
        anchors.check_anchor(rows, report, tsa)  # the final head's anchor, when the export has one
    except VerifyError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(report.as_json(), indent=2) if args.json else format_report(report, args.file))
    return 0 if report.ok else 1


def register_module(target: str) -> None:
    """Register the engine object at MODULE:ATTR under its own `id`."""
    module, _, attr = target.partition(":")
    if not module or not attr:
        raise VerifyError(f"--ruleset-module wants MODULE:ATTR, not {target!r}")
    try:
        obj = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as exc:
        raise VerifyError(f"cannot load {target}: {exc}") from exc
    registry.register(obj.id, target)
