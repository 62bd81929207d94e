"""``python -m games.verify``: the standalone verifier's command line (games/verify/cli.py)."""

import sys

from .cli import main

sys.exit(main())
