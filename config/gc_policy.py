"""Keep the cyclic garbage collector's full passes short in web processes.

A full (generation 2) pass walks every tracked object, and a web process holds
many long-lived ones: Django and the rulesets' data, and above all the state
cache (games/services/state.py, 512 folded game states). Measured under the
streams bench (docs/benchmarks.md): a full pass every few seconds per process,
150-310 ms each, during which nothing else in the process runs. That was the
p99 of every request and of /health.

Why, with the measurements and history: docs/modules.md, `config/gc_policy.py`.
"""

from __future__ import annotations

import gc
import os
import time

UNFREEZE_SECONDS = float(os.environ.get("GC_UNFREEZE_SECONDS", "600"))
# "off": leave the collector as Python sets it (the test run, which imports the ASGI
# app in a process that is not a server and keeps no state cache worth freezing)
ENABLED = os.environ.get("GC_POLICY", "freeze") != "off"

_state = {"installed": False, "unfrozen_at": 0.0}


def _after_full_pass(phase: str, info: dict) -> None:
    if phase != "stop" or info.get("generation") != 2:
        return
    now = time.monotonic()
    if now - _state["unfrozen_at"] >= UNFREEZE_SECONDS:
        # Let the next full pass see everything once: cycles that died frozen get collected.
        _state["unfrozen_at"] = now
        gc.unfreeze()
        return
    gc.freeze()


def install() -> None:
    """For a long-lived web process, after its code and data are loaded."""
    if _state["installed"] or not ENABLED:
        return
    _state["installed"] = True
    _state["unfrozen_at"] = time.monotonic()
    gc.collect()
    gc.freeze()  # what is loaded now lives as long as the process
    gc.callbacks.append(_after_full_pass)
