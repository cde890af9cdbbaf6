"""The cyclic collector never walks the model of a run.

`generate`, `check` and `crd` build the model and use it (rules, rendering, patching)
with the collector paused (markergen.gcpause), then free it by reference counting
before the collector is back. Each pass of the collector over a live model walks every
record of it: at 10,000 types, 1.2 s of a cold `check` ran in the collector, and a
reference cycle through the model (a recursive closure over it) kept it alive until
the collector's first pass after generate's pause: 0.35-0.45 s (docs/performance.md).
"""

from __future__ import annotations

import gc
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import TESTDATA, run_main

from markergen.gcpause import gc_paused
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
        ["dump", "--no-cache"],
    ],
    ids=["generate", "check", "crd", "dump"],
)
def test_no_model_outlives_the_run(project: Path, collector_off: None, args: list[str]) -> None:
    before = _models()
    result = run_main(args, project)
    assert result.code in (0, 1), result.stderr
    assert _models() == before, "a reference cycle keeps the model alive after the run"


@pytest.mark.parametrize(
    ("args", "module", "name"),
    [
        (["generate", "--no-cache"], "markergen.pipeline", "check_model"),
        (["check", "--no-cache"], "markergen.pipeline", "check_model"),
        (["crd", "--no-cache"], "markergen.crd.run", "plan_files"),
    ],
    ids=["generate", "check", "crd"],
)
def test_the_model_is_used_with_the_collector_paused(
    project: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], module: str, name: str
) -> None:
    import importlib

    target = importlib.import_module(module)
    real = getattr(target, name)
    seen: list[bool] = []

    def watched(*a: object, **k: object) -> object:
        seen.append(gc.isenabled())
        return real(*a, **k)

    monkeypatch.setattr(target, name, watched)
    assert gc.isenabled()
    result = run_main(args, project)
    assert result.code in (0, 1), result.stderr
    assert seen == [False], f"{name} ran with the collector on"
    assert gc.isenabled(), "the collector is back after the run"


def test_the_crd_diff_map_leaves_no_cycle_through_the_model(collector_off: None) -> None:
    """`diff` maps each CRD schema node to its Go struct with a walk over the model; a
    recursive closure there was the same cycle as MG105's."""
    from markergen.diff.crdgo import GoMap
    from markergen.diff.crdsource import read_paths
    from markergen.pipeline import load_model

    example = TESTDATA / "example"
    before = _models()
    model = load_model(["./api/..."], example)
    crds = read_paths([example / "config" / "crd" / "bases"], example, "test")
    go_map = GoMap(model, crds, "openapi-gen")
    assert go_map.fields, "the walk found no field: nothing was tested"
    del model, go_map
    assert _models() == before, "a reference cycle keeps the model alive after the walk"


def test_gc_paused_restores_the_collector() -> None:
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError), gc_paused():
        raise ValueError
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()  # a caller's own choice is left alone
    finally:
        gc.enable()
