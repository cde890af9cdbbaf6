"""End to end on the KEP examples (testdata/kep): real Go text through the real front
end, then every output compared with reviewed golden files in testdata/emit/kep.

Regenerate the goldens after an intended change with
`MARKERGEN_UPDATE_GOLDEN=1 pytest tests/test_emit_golden.py`, then read the diff.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import REPO, TESTDATA
from openapi_spec_validator import OpenAPIV2SpecValidator, OpenAPIV30SpecValidator

from markergen.emit.options import EmitOptions
from markergen.emit.outputs import OUTPUT_NAMES, render_outputs
from markergen.emit.writer import verify_outputs, write_outputs
from markergen.pipeline import load_model

KEP = TESTDATA / "kep"
GOLDEN = TESTDATA / "emit" / "kep"

_RENDER = """
import json, sys
from pathlib import Path
from markergen.emit.options import EmitOptions
from markergen.emit.outputs import render_outputs
from markergen.pipeline import load_model
m = load_model(["./..."], Path(sys.argv[1]))
json.dump(render_outputs(m, EmitOptions(), frozenset({"fragments"})), sys.stdout)
"""


@pytest.fixture(scope="module")
def outputs() -> dict[str, str]:
    # every output, the fragments (off by default) included
    return render_outputs(load_model(["./..."], KEP), EmitOptions(), frozenset({"fragments"}))


def test_outputs_match_golden_files(outputs: dict[str, str]) -> None:
    files = {GOLDEN / name: text for name, text in outputs.items()}
    if os.environ.get("MARKERGEN_UPDATE_GOLDEN") == "1":
        write_outputs(files)
    assert verify_outputs(files) == []


def test_same_bytes_under_other_hash_seeds(outputs: dict[str, str]) -> None:
    for seed in ("1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        proc = subprocess.run([sys.executable, "-c", _RENDER, str(KEP)], cwd=REPO, env=env,
                              capture_output=True, text=True, timeout=120, check=True)
        assert json.loads(proc.stdout) == outputs


def test_kep000_openapi_gen_parity(outputs: dict[str, str]) -> None:
    """The 2019 KEP "OpenAPI" on the "Go tags" example, as openapi-gen emits it."""
    defs = json.loads(outputs["openapi-v2.json"])["definitions"]
    union = {"discriminator": "unionType",
             "fields-to-discriminateBy": {"fieldA": "FieldA", "fieldB": "FieldB"}}
    union2 = {"discriminator": "type",
              "fields-to-discriminateBy": {"alpha": "Alpha", "beta": "Beta"}}
    members = {"fields-to-discriminateBy": {"field1": "Field1", "field2": "Field2"}}
    p = "com.example.kep.kep000."
    assert defs[p + "InlinedUnion"]["x-kubernetes-unions"] == [union, union2, members]
    assert defs[p + "InlinedUnion"]["required"] == ["name", "type"]
    assert defs[p + "TopLevelUnion"]["x-kubernetes-unions"] == [union]
    assert defs[p + "Union"]["x-kubernetes-unions"] == [union]
    assert defs[p + "Union2"]["x-kubernetes-unions"] == [union2]


def test_kep004_openapi_example(outputs: dict[str, str]) -> None:
    """The current KEP "OpenAPI": x-kubernetes-unions on the discriminator's property."""
    schemas = json.loads(outputs["openapi-v3.json"])["components"]["schemas"]
    prop = schemas["com.example.kep.kep004openapi.Union"]["properties"]["union1"]
    assert prop["x-kubernetes-unions"] == {"fieldMembers": {
        "": None, "FieldA": {"name": "fieldA", "optional": False},
        "FieldB": {"name": "fieldB", "optional": True}, "FieldC": None, "FieldD": None}}
    assert prop["enum"] == ["", "FieldA", "FieldB", "FieldC", "FieldD"]


def test_kep_documents_are_valid(outputs: dict[str, str]) -> None:
    v2: dict[str, Any] = json.loads(outputs["openapi-v2.json"])
    v3: dict[str, Any] = json.loads(outputs["openapi-v3.json"])
    assert list(OpenAPIV2SpecValidator(v2).iter_errors()) == []
    assert list(OpenAPIV30SpecValidator(v3).iter_errors()) == []
    assert sorted(outputs) == sorted(OUTPUT_NAMES)


def test_golden_dir_holds_only_the_four_outputs() -> None:
    assert sorted(p.name for p in Path(GOLDEN).iterdir()) == sorted(OUTPUT_NAMES)
