"""What start-up imports: `--version`, the help of every command and a run served from
the cache import only what they use; none of them reads Go, builds a model, renders a
template or parses YAML it does not need (issue 29, "Start-up"; docs/performance.md).

Each case runs markergen in a fresh interpreter and lists the modules it imported, so
that one eager import anywhere (a settings annotation that needs the model, a choice
list in a module that imports the diff) shows here by name.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest
from helpers import TESTDATA

import markergen.model
import markergen.semantics
from markergen.cli import COMMANDS
from markergen.runtime.table import SEMANTICS

# Runs `markergen ARGS` for each argument list given as JSON and prints, for each, the
# modules it imported that were not imported before.
PROBE = r"""
import json, sys
from markergen.cli import main
seen = set(sys.modules)
out = []
for args in json.loads(sys.argv[1]):
    code = main(args)
    new = sorted(set(sys.modules) - seen)
    seen.update(new)
    out.append([args, code, new])
sys.stderr.write("@@" + json.dumps(out) + "\n")
"""

# Modules that reading Go, building the model, checking, rendering, the runtime, the
# diff and the CRD commands bring in: none is needed to print a help text.
HEAVY = (
    "markergen.golang",
    "markergen.model",
    "markergen.markers",
    "markergen.diagnostics",
    "markergen.rules",
    "markergen.pipeline",
    "markergen.runtime",
    "markergen.diff.classify",
    "markergen.crd",
    "tree_sitter",
    "jinja2",
    "yaml",
)


def probe(arg_lists: list[list[str]], cwd: Path) -> list[tuple[list[str], int, list[str]]]:
    env = {k: v for k, v in os.environ.items() if k != "_MARKERGEN_COMPLETE"}
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(arg_lists)],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert "@@" in proc.stderr, proc.stderr
    return [tuple(r) for r in json.loads(proc.stderr.rsplit("@@", 1)[1])]  # type: ignore[misc]


def heavy(modules: list[str]) -> list[str]:
    return [m for m in modules if m.startswith(HEAVY)]


def test_version_and_every_help_import_nothing_heavy(tmp_path: Path) -> None:
    # One interpreter for all of them: each command's help may add only light modules
    # to what the ones before it imported, so each is checked for what it adds.
    arg_lists = [["--version"], ["--help"]] + [[c.name, "--help"] for c in COMMANDS]
    results = probe(arg_lists, tmp_path)
    assert [(args, code) for args, code, _ in results] == [(a, 0) for a in arg_lists]
    assert {" ".join(args): heavy(new) for args, _, new in results} == {
        " ".join(args): [] for args in arg_lists
    }
    # `--version` alone is answered before typer and click are imported.
    version_new = results[0][2]
    assert not [m for m in version_new if m.split(".")[0] in ("typer", "click")]


@pytest.fixture
def example(tmp_path: Path) -> Path:
    dest = tmp_path / "example"
    shutil.copytree(TESTDATA / "example", dest)
    return dest


def test_a_run_served_from_the_cache_reads_no_go_and_builds_no_model(
    example: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MARKERGEN_CACHE_DIR", raising=False)
    cold = probe([["generate", "-q"], ["check", "-q"]], example)
    assert [code for _, code, _ in cold] == [0, 0]
    # the cold runs did the work (so the warm ones below are served from the cache)
    assert "markergen.model.builder" in cold[0][2] and "tree_sitter" in cold[0][2]
    warm = probe([["generate", "-q"], ["check", "-q"]], example)
    assert [code for _, code, _ in warm] == [0, 0]
    generate, check = warm[0][2], warm[1][2]
    not_for_a_hit = (
        "markergen.model",
        "markergen.markers",
        "markergen.rules",
        "markergen.pipeline",
        "markergen.golang.parser",
        "markergen.emit.templating",
        "markergen.emit.openapi",
        "markergen.explain",
        "tree_sitter",
        "jinja2",
    )
    assert [m for m in generate if m.startswith(not_for_a_hit)] == []
    # check digests the project's CRDs and samples (their YAML is read for that), and
    # proves nothing: no CEL engine, no CRD patcher nor its run
    assert [
        m
        for m in check
        if m.startswith((*not_for_a_hit, "markergen.crd.patch", "markergen.crd.run", "cel"))
    ] == []


def test_the_semantics_names_are_the_runtimes() -> None:
    # markergen.runtime installs alone and keeps its own copy of the names.
    assert markergen.semantics.SEMANTICS == get_args(markergen.semantics.Semantics) == SEMANTICS
    assert markergen.model.Semantics is markergen.semantics.Semantics


def test_a_cold_generate_without_openshifts_union_style_parses_no_cel(
    example: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the CEL parser reads the rules beside openshift's `+union` members only
    # (markergen.accept.selected); every other cold generate would pay for its import
    monkeypatch.delenv("MARKERGEN_CACHE_DIR", raising=False)
    [(_, code, new)] = probe([["generate", "-q", "--no-cache"]], example)
    assert code == 0
    assert "markergen.model.builder" in new
    assert [
        m for m in new if m.startswith(("markergen.celcost.syntax", "markergen.accept.reads"))
    ] == []
