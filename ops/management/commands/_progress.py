"""A progress bar on stderr (only when it is a terminal, unless forced)."""

from __future__ import annotations

import sys


class Progress:
    def __init__(self, enabled: bool | None = None, stream=None):
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.drawn = False

    def __call__(self, n: int, total: int, label: str) -> None:
        if not self.enabled or not total:
            return
        width = 30
        filled = width * n // total
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {n}/{total} {label[:48]:<48}")
        self.stream.flush()
        self.drawn = True

    def done(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
