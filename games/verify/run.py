"""Every check together: `verify(rows)` runs what an export allows and returns the Report.

The chain, seed, commitment and salt checks always run; the replay runs when the
export is complete (no redacted line) and the seed is known and right. The
engine is the registry's for the export's ruleset unless one is given (tests,
``--ruleset-module``); `seed` may be given by the server for a running game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from games.rules import registry
from games.rules.base import Ruleset

from .chain import check_chain
from .commitments import check_commitments, check_salts, check_seed
from .reading import is_redacted
from .replay import replay
from .report import Report, VerifyError


def verify(
    rows: Sequence[Mapping[str, Any]],
    rules: Ruleset | None = None,
    seed: str | None = None,
    deep: bool = True,
    on_state: Callable[[int, Any], None] | None = None,
) -> Report:
    """Run every check that the rows allow. `rules` defaults to the registry's
    engine for core.GameStarted's ruleset; `seed` may be given for a running
    game by whoever holds it (the server)."""
    report = Report(events=len(rows))
    check_chain(rows, report)
    check_seed(rows, report, seed)
    check_commitments(rows, report)
    known = (
        rules
        if rules is not None
        else (registry.get(report.ruleset) if isinstance(report.ruleset, str) else None)
    )
    check_salts(rows, report, getattr(known, "salted_since", 1))
    if not deep or report.problems and any(p.check == "format" for p in report.problems):
        return report
    if any(is_redacted(r) for r in rows):
        report.notes.append("redacted events: replay needs the full export of a finished game")
        return report
    if not report.seed_ok:
        return report
    if rules is None:
        rules = registry.get(report.ruleset) if isinstance(report.ruleset, str) else None
        if rules is None:
            raise VerifyError(
                f"ruleset {report.ruleset!r} is not available here "
                f"(known: {registry.available()}; add one with --ruleset-module)"
            )
    try:
        # seed_ok: the seed is known, and with it the stream key (entropy.py)
        replay(rows, rules, cast(str, report.stream_seed or report.seed), report, on_state)
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        report.replayed = False
        report.add(None, "format", f"malformed event during replay: {type(exc).__name__}: {exc}")
    except Exception as exc:  # an engine crash on a recorded history is a finding, not a verifier crash
        report.replayed = False
        report.add(None, "replay", f"the engine failed while replaying: {type(exc).__name__}: {exc}")
    return report
