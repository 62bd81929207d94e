"""The Imjin hooks of the generic heuristic (games/bots/heuristic.py): the
evaluation (position.py) and the rule-based decisions (plan.py)."""

from __future__ import annotations

from .plan import decide
from .position import AVOID, evaluate

__all__ = ["AVOID", "decide", "evaluate"]
