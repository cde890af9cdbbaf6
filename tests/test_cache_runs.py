"""Runs served from the cache (docs/performance.md, "Cache"): outputs streamed to disk
are stored as their texts would be; `check` and `dump` served from the cache print
what a computed run prints; `--no-cache`, changed settings, an edited input and the
CRDs and samples of a project are in the key, so a result is never served stale."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from helpers import count_model_loads, run_main
from threepackages import A_GO, write_module

from markergen.cache import CachedRun, OutputCache
from markergen.config import load_config
from markergen.generate import generate


@pytest.fixture
def module(tmp_path: Path) -> Path:
    return write_module(tmp_path)


def test_cache_of_streamed_outputs_is_the_cache_of_their_texts(tmp_path: Path) -> None:
    texts = {"b.json": "é\n" * 5000, "a.py": "TABLE = {}\n"}
    files = {}
    for name, text in texts.items():
        path = tmp_path / name
        path.write_text(text)
        data = text.encode()
        files[name] = (path, len(data), hashlib.sha256(data).hexdigest())
    one = OutputCache(tmp_path / "c1", "slot", "key")
    two = OutputCache(tmp_path / "c2", "slot", "key")
    assert one.store(CachedRun((), texts))
    assert two.store_files((), files)
    assert one.path.read_bytes() == two.path.read_bytes()
    hit = two.lookup()
    assert hit is not None and hit.outputs == texts
    # A file edited between writing and storing stores nothing.
    (tmp_path / "a.py").write_text("TABLE = {1: 2}\n")
    three = OutputCache(tmp_path / "c3", "slot", "key")
    assert not three.store_files((), files)
    assert not three.path.exists() and not list((tmp_path / "c3").glob(".tmp-*"))


def test_generate_stores_what_it_streamed(module: Path) -> None:
    cfg = load_config(module)
    cache = module / "cache"
    first = generate(cfg, ["./..."], module, verify=False, cache_dir=cache)
    assert first.exit_code == 0
    written = {p.name: p.read_bytes() for p in (module / "openapi").iterdir()}
    for p in (module / "openapi").iterdir():
        p.unlink()
    hit = generate(cfg, ["./..."], module, verify=False, cache_dir=cache)
    assert hit.exit_code == 0
    assert {p.name: p.read_bytes() for p in (module / "openapi").iterdir()} == written


def _cli(args: list[str], cwd: Path) -> tuple[int, str, str]:
    r = run_main(args, cwd)
    return r.code, r.stdout, r.stderr


@pytest.mark.parametrize(
    "args", [["check"], ["check", "--format", "json"], ["dump"], ["dump", "./a"]]
)
def test_check_and_dump_are_served_from_the_cache(
    module: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    monkeypatch.setenv("MARKERGEN_CACHE_DIR", str(module / "cache"))
    loads = count_model_loads(monkeypatch)
    computed = _cli(args, module)
    assert computed[0] == 0 and len(loads) == 1
    assert _cli(args, module) == computed
    assert len(loads) == 1  # served from the cache
    # An edited input is never served stale.
    a = module / "a" / "types.go"
    a.write_text(A_GO.replace("Holder refers to", "Holder now refers to"))
    edited = _cli(args, module)
    assert len(loads) == 2
    if args[0] == "dump":
        assert "Holder now refers to" in edited[1]


def test_no_cache_and_changed_settings_recompute(
    module: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MARKERGEN_CACHE_DIR", str(module / "cache"))
    loads = count_model_loads(monkeypatch)
    _cli(["check"], module)
    _cli(["dump"], module)
    _cli(["check", "--no-cache"], module)
    _cli(["dump", "--no-cache"], module)
    assert len(loads) == 4
    # A setting that changes the diagnostics is part of check's key.
    (module / "markergen.yaml").write_text("severity: {MG201: error}\n")
    _cli(["check"], module)
    assert len(loads) == 5
    _cli(["check"], module)
    assert len(loads) == 5


def test_check_with_crds_is_cached_with_the_crds_and_samples_in_its_key(
    module: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With CRDs, check's findings also depend on the CRD files (MG520, MG521) and the
    # project's objects (MG511): their digests are part of the key, so an unchanged
    # project is served from the cache and a changed CRD or object is recomputed.
    monkeypatch.setenv("MARKERGEN_CACHE_DIR", str(module / "cache"))
    bases = module / "config" / "crd" / "bases"
    bases.mkdir(parents=True)
    loads = count_model_loads(monkeypatch)
    _cli(["check"], module)
    _cli(["check"], module)
    assert len(loads) == 1
    (bases / "widgets.yaml").write_text("# a CRD file\n")
    _cli(["check"], module)
    assert len(loads) == 2
    samples = module / "config" / "samples"
    samples.mkdir(parents=True)
    (samples / "widget.yaml").write_text("kind: Widget\n")
    _cli(["check"], module)
    _cli(["check"], module)
    assert len(loads) == 3
