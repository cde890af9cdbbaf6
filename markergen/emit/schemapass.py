"""One pass over the definitions for every OpenAPI output of a run.

The OpenAPI v2 and v3 documents and their two fragments are drawn from the same
schemas: each definition's schema is built once, as a (v2, v3) pair
(`SchemaBuilder.pairs`), and its fragments once from that pair. Each output reads the
pass through its own queue (`Reader`): a definition built for one output waits in the
queues of the others until they read it.

The writer writes the outputs side by side, a piece of each in turn
(markergen.emit.writer), and each of these outputs writes one piece per definition, so
the queues hold a definition or two: the documents are streamed, never held whole. A
reader that joins after the pass has begun (outputs rendered one after the other:
`--verify`, `render_outputs`) starts a pass of its own instead, which builds the schemas
again but never holds them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Any, Literal

from markergen.emit.fragments import fragment_pair
from markergen.emit.openapi import Schema, SchemaBuilder
from markergen.emit.options import EmitOptions
from markergen.model import Model

# What an output reads of each definition: its schema in one version, or its fragment.
Part = Literal["v2", "v3", "v2-fragment", "v3-fragment"]
_FRAGMENTS = ("v2-fragment", "v3-fragment")
_INDEX = {"v2": 1, "v3": 2, "v2-fragment": 3, "v3-fragment": 4}

# (name, v2 schema, v3 schema, v2 fragment, v3 fragment); fragments None when no reader
# wants them.
_Entry = tuple[str, Schema, Schema, Any, Any]


class SchemaPass:
    """The definitions' schemas, built once and read by every output that joined
    before the first was built."""

    def __init__(self, model: Model, options: EmitOptions) -> None:
        self._builder = SchemaBuilder(model, options)
        self.names = self._builder.names_in_order()
        self._entries = self._build()
        self._queues: list[deque[_Entry]] = []
        self._fragments = False
        self.started = False

    def reader(self, part: Part) -> Reader:
        """A new reader of the pass (only before it has started)."""
        if self.started:
            raise RuntimeError("a reader joined a pass that has started")
        if part in _FRAGMENTS:
            self._fragments = True
        queue: deque[_Entry] = deque()
        self._queues.append(queue)
        return Reader(self, queue, _INDEX[part])

    def external(self) -> list[str]:
        """The definitions the schemas refer to that are not in them (complete once
        the last definition is built)."""
        return sorted(self._builder.external - set(self.names))

    def _build(self) -> Iterator[_Entry]:
        for name, schema2, schema3 in self._builder.pairs(self.names):
            fragment2 = fragment3 = None
            if self._fragments:
                fragment2, fragment3 = fragment_pair(schema2, schema3)
            yield name, schema2, schema3, fragment2, fragment3

    def _advance(self) -> bool:
        """Build the next definition into every queue; False when there is none."""
        self.started = True
        entry = next(self._entries, None)
        if entry is None:
            return False
        for queue in self._queues:
            queue.append(entry)
        return True

    def _leave(self, queue: deque[_Entry]) -> None:
        # A reader that is done (or abandoned) no longer collects definitions.
        self._queues = [q for q in self._queues if q is not queue]


class Reader:
    """One output's view of a pass: (name, schema or fragment) per definition, in
    name order. A definition without a fragment reads as None in a fragment reader
    (one piece per definition for every reader keeps them in step)."""

    def __init__(self, source: SchemaPass, queue: deque[_Entry], index: int) -> None:
        self._source = source
        self._queue = queue
        self._index = index

    def external(self) -> list[str]:
        return self._source.external()

    def __iter__(self) -> Iterator[tuple[str, Any] | None]:
        queue, index, source = self._queue, self._index, self._source
        fragment = index >= 3
        try:
            while queue or source._advance():
                entry = queue.popleft()
                value = entry[index]
                if fragment and not value:
                    yield None
                else:
                    yield entry[0], value
        finally:
            source._leave(queue)
