"""Python's cyclic garbage collector paused around a block, then restored as it was.

Reading an API tree, or a CRD of megabytes, builds hundreds of thousands of small
records that form no reference cycles. With the collector on, every 700 allocations
start a collection that walks the young objects, and every tenth of those the older
ones too: the full passes over a tree's syntax records were a third of a cold
`generate` (kubernetes/api: 0.3 s of 1.2 s), and collecting cost a cold `crd` as much
CPU as libyaml spent composing envoyproxy/gateway's CRD files (0.54 s against 0.27 s).
Nothing is lost: reference counting still frees everything that is dropped, and what a
block leaves unreachable in a cycle (through an error's traceback, say) is collected
once the collector runs again.

A leaf with no markergen import, so that the YAML reader of a cached run and the Go
front end can both use it without importing anything more.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Run the block without the cyclic collector; leave it on or off as it was found,
    also when the block raises."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
