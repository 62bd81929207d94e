"""Bot policies: pure functions of (rules, state, seat, random source) -> a
command. They import the engine protocol only (no Django, no Celery), so the
services that play bot seats and deadline defaults, the audit driver and the
tests all share one policy."""

from .random_bot import choose

POLICIES = {"random": choose}

__all__ = ["POLICIES", "choose"]
