"""A run frees its model by reference counting, without the cyclic collector.

`generate`, `check` and `crd` build the model with the collector paused
(markergen.gcpause). A reference cycle through the model (a recursive closure over it,
say) kept all of it alive until the collector came back, and its first pass then walked
every record of the model: 0.35-0.45 s of CPU at 10,000 types (docs/performance.md).
These tests run each command with the collector off and count the models left alive.
"""

from __future__ import annotations

import gc
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import TESTDATA, run_main

from markergen.model import Model


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "example"
    shutil.copytree(TESTDATA / "example", root)
    monkeypatch.setenv("MARKERGEN_CACHE_DIR", str(tmp_path / "cache"))
    return root


@pytest.fixture
def collector_off() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _models() -> int:
    return sum(1 for o in gc.get_objects() if type(o) is Model)


@pytest.mark.parametrize(
    "args",
    [
        ["generate", "--no-cache"],
        ["check", "--no-cache"],
        ["crd", "--no-cache"],
    ],
    ids=["generate", "check", "crd"],
)
def test_no_model_outlives_the_run(project: Path, collector_off: None, args: list[str]) -> None:
    before = _models()
    result = run_main(args, project)
    assert result.code in (0, 1), result.stderr
    assert _models() == before, "a reference cycle keeps the model alive after the run"
