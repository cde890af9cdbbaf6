"""Shared helpers of the tests/test_crd_*.py files: the example project, patched copies."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers import TESTDATA

from markergen.crd.files import CrdResult, crd_files, finish
from markergen.crd.run import patch_text, plan_files
from markergen.diagnostics import Diagnostic
from markergen.emit.options import EmitOptions
from markergen.emit.table import build_table
from markergen.model import Model
from markergen.pipeline import load_model
from markergen.runtime import Table
from markergen.yamlio import load_documents

EXAMPLE = TESTDATA / "example"
CRD_NAME = "webapp.example.com_guestbooks.yaml"
EXAMPLE_CRD = EXAMPLE / "config" / "crd" / "bases" / CRD_NAME


def copy_example(dest: Path) -> Path:
    """A private copy of the example project (tests patch files in place)."""
    target = dest / "example"
    shutil.copytree(EXAMPLE, target)
    return target


def example_model(root: Path = EXAMPLE) -> Model:
    return load_model(["./api/..."], root)


@dataclass(frozen=True)
class PatchedGo:
    """One Go file's package and a one-version CRD of it, patched in memory."""

    model: Model
    crd: dict[str, Any]  # the patched CRD's value
    diagnostics: list[Diagnostic]
    table: Table  # the runtime table: validation-gen's verdicts to compare CEL with


def patch_go(root: Path, go: str, crd: str) -> PatchedGo:
    """`go` as package v1 of a module under `root`, and `crd` patched from its model."""
    (root / "go.mod").write_text("module example.com/k8s\n\ngo 1.24\n")
    (root / "v1").mkdir()
    (root / "v1" / "types.go").write_text(go)
    model = load_model(["./..."], root)
    text, diags = patch_text(model, crd, "crd.yaml")
    (doc,) = load_documents(text)
    table = Table.from_dict(build_table(model, EmitOptions()))
    return PatchedGo(model, doc.value, diags, table)


def spec_schema(crd: dict[str, Any]) -> dict[str, Any]:
    """The schema of `spec` in the CRD's first version."""
    node: dict[str, Any] = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    return node["properties"]["spec"]  # type: ignore[no-any-return]


def rules_of(node: dict[str, Any]) -> list[str]:
    return [r["rule"] for r in node.get("x-kubernetes-validations", [])]


def run_crd(paths: list[Path], model: Model, verify: bool, **options: Any) -> CrdResult:
    """`markergen crd` on the CRD files under `paths` with a loaded model, as `run_project`
    runs it after locating them: all files written or none, or with `verify` only the
    diffs. `options` are plan_files' (root, samples_include, strict, ...)."""
    files = crd_files(paths)
    outputs, found = plan_files(files, model, **options)
    return finish(files, outputs, [f.for_crd() for f in found], verify)
