"""A one-line progress display for long runs, on a terminal only.

Nothing is shown with `--quiet` (`hidden`), nothing for the first second (most runs are done by then, and a flash of
progress is noise), nothing ever when the stream is not a terminal (CI logs, pipes,
tests), and the line is erased when the work ends, so the output that follows is what
it would have been without it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO


class Progress:
    """Counts work items and redraws `label done/total` at most every `interval` s."""

    def __init__(
        self,
        stream: TextIO,
        *,
        delay: float = 1.0,
        interval: float = 0.1,
        clock: Callable[[], float] = time.monotonic,
        force: bool = False,
        hidden: bool = False,
    ) -> None:
        self._stream = stream
        self._enabled = not hidden and (force or _isatty(stream))
        self._delay = delay
        self._interval = interval
        self._clock = clock
        self._start = clock()
        self._last_draw = -1.0
        self._shown = False
        self.label = ""
        self.done = 0
        self.total = 0

    def stage(self, label: str, total: int = 0) -> None:
        """Start counting a new stage of `total` items (0: a stage without a count)."""
        self.label, self.done, self.total = label, 0, total
        self._draw()

    def advance(self, count: int = 1) -> None:
        self.done += count
        self._draw()

    def finish(self) -> None:
        """Erase the line (if one was drawn)."""
        if self._shown:
            self._stream.write("\r\x1b[K")
            self._stream.flush()
            self._shown = False

    def _draw(self) -> None:
        if not self._enabled:
            return
        now = self._clock()
        if now - self._start < self._delay or now - self._last_draw < self._interval:
            return
        self._last_draw = now
        self._shown = True
        # A stage without a count (checking) shows its name alone.
        count = f" {self.done}/{self.total}" if self.total else ""
        self._stream.write(f"\r\x1b[Kmarkergen: {self.label}{count}")
        self._stream.flush()


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
