"""The standalone verifier: audit an exported game without Django or a database.

    python -m games.verify GAME.jsonl [--ruleset-module tests.support.toy:RULES] [--json]

One module per check, each reported separately (docs/audit.md has the exact rules):
chain (links and hashes), commitments (seed, commitments of secret choices, salts),
replay (re-decide every recorded command with the revealed seed), receipts (signed
checkpoints held against the chain: ``--keys``, ``--receipts``); run.verify runs
them all into a report.Report, cli is the command line. It imports only the standard
library, ``cryptography``, ``games.rules``, ``games.core_events`` and ``events.codec``,
never Django (its own import-linter contract), so anyone can run it on an export;
`pip install ./verifier` installs it as the distribution below (`sengoku-verify`).
"""

from events.codec import platform_salt
from games.rules.base import sha256_hex
from games.rules.registry import engine_for, rules_upcasters

from .chain import check_chain
from .cli import main, register_module
from .commitments import check_commitments, check_salts, check_seed
from .reading import ABORTED, FINISHED, SEED, STARTED, is_redacted, load_jsonl, parse_lines, read_core
from .replay import FACTIONS_PURPOSE, expected_factions, replay
from .report import Problem, Report, VerifyError, format_report
from .run import verify

# The verifier as its own distribution (verifier/pyproject.toml reads the version here).
DISTRIBUTION = "sengoku-verify"
__version__ = "1.0.0"

__all__ = [
    "ABORTED",
    "DISTRIBUTION",
    "FACTIONS_PURPOSE",
    "FINISHED",
    "SEED",
    "STARTED",
    "Problem",
    "Report",
    "VerifyError",
    "check_chain",
    "check_commitments",
    "check_salts",
    "check_seed",
    "engine_for",
    "expected_factions",
    "format_report",
    "is_redacted",
    "load_jsonl",
    "main",
    "parse_lines",
    "platform_salt",
    "read_core",
    "register_module",
    "replay",
    "rules_upcasters",
    "sha256_hex",
    "verify",
]
