"""What a Ctrl-C looks like to a user, and how one is recognized.

A leaf: the console script (markergen.entry) reports an interrupt that lands while the
command line's own modules are still being imported, before markergen.cli exists.
"""

from __future__ import annotations

INTERRUPTED = "markergen: interrupted; every output is as it was or completely written"


def caused_by_interrupt(e: BaseException) -> bool:
    """Whether `e` is a KeyboardInterrupt or was raised while handling one: a Ctrl-C
    inside the interpreter's machinery (a class being created at import) reaches the
    caller wrapped in another exception."""
    seen: set[int] = set()
    current: BaseException | None = e
    while current is not None and id(current) not in seen:
        if isinstance(current, KeyboardInterrupt):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False
