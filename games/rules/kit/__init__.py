"""The engine kit: the few pieces every ruleset is built from (pure Python).

Why, with the measurements and history: docs/modules.md, `games/rules/kit/__init__.py`.
"""

from . import position
from .commands import Shape, parse_command
from .context import Context
from .cow import ALL, copy_on_write, deep_copy
from .decisions import Command, Decided, Decision, decision_of
from .evolves import Evolver, UnknownEvent
from .header import ViewHeader, view_header

__all__ = [
    "ViewHeader",
    "view_header",
    "ALL",
    "Command",
    "Context",
    "Decided",
    "Decision",
    "Evolver",
    "Shape",
    "UnknownEvent",
    "copy_on_write",
    "decision_of",
    "deep_copy",
    "parse_command",
    "position",
]
