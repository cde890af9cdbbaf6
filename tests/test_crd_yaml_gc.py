"""Reading CRD YAML pauses Python's cyclic collector (markergen/yamlio.py) and must leave it
exactly as it found it: on, off, and after a text that is not YAML."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from markergen.yamlio import YamlError, load_documents, load_value

TEXT = "a: 1\nb: [x, 'y', true]\n---\nc: {d: null}\n"


@pytest.fixture
def collector() -> Iterator[None]:
    was = gc.isenabled()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


@pytest.mark.parametrize("enabled", [True, False])
def test_reading_leaves_the_collector_as_it_was(collector: None, enabled: bool) -> None:
    if enabled:
        gc.enable()
    else:
        gc.disable()
    docs = load_documents(TEXT)
    assert [d.value for d in docs] == [{"a": 1, "b": ["x", "y", True]}, {"c": {"d": None}}]
    assert gc.isenabled() is enabled
    assert load_value("k: [1, 2]\n") == {"k": [1, 2]}
    assert gc.isenabled() is enabled
    with pytest.raises(YamlError):
        load_documents("a: [1,\n")
    assert gc.isenabled() is enabled
    with pytest.raises(Exception):  # noqa: B017 - PyYAML's own error, whichever it is
        load_value("a: [1,\n")
    assert gc.isenabled() is enabled
