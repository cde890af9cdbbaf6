"""Shared helpers of the tests/test_crd_*.py files: the example project, patched copies."""

from __future__ import annotations

import shutil
from pathlib import Path

from helpers import TESTDATA

from markergen.model import Model
from markergen.pipeline import load_model

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
