"""markergen-runtime (runtime/pyproject.toml) installs alone: its wheel, built from
markergen/runtime, in a fresh virtual environment with nothing else, validates and
normalizes objects with a table `markergen generate` wrote (docs/runtime.md,
"Installing the runtime alone").

The wheel is built with this test environment's hatchling and installed without an
index (tests never use the network); the script runs isolated (`python -I`, from a
directory outside the checkout), so nothing of the checkout or this environment can
stand in for the installed copy.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from helpers import REPO, TESTDATA

import markergen
from markergen.emit.options import EmitOptions
from markergen.emit.outputs import render_outputs
from markergen.pipeline import load_model

SCRIPT = r"""
import importlib.metadata as md
import importlib.util
import json
import sys

import markergen.runtime
from markergen.runtime import Table, TableError, normalize, validate

out = {"file": markergen.runtime.__file__}
out["dists"] = sorted(d.metadata["Name"] for d in md.distributions())
out["requires"] = md.requires("markergen-runtime")
table = Table.load(sys.argv[1])
spec = importlib.util.spec_from_file_location("unions_table", sys.argv[2])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
assert Table.from_module(module) == table

bad = {"method": "Email", "webhook": {"url": "https://example.com"}}
out["errors"] = [str(e) for e in validate(table, "Delivery", bad)]
out["valid"] = validate(table, "v1.Delivery", {"method": "Manual"})
old = {"backend": "S3", "s3": {"name": "a"}}
new = {"backend": "GCS", "s3": {"name": "a"}, "gcs": {"name": "b"}}
out["normalized"] = normalize(table, "Storage", old, new)
for name in ("Delivry", "v2.Delivery"):
    try:
        validate(table, name, {})
    except TableError as e:
        out.setdefault("unknown", []).append(str(e))
try:
    Table.load(sys.argv[1] + ".missing")
except TableError as e:
    out["missing"] = str(e)
for name in ("markergen.cli", "markergen.emit", "yaml", "jinja2", "tree_sitter"):
    try:
        __import__(name)
        out.setdefault("importable", []).append(name)
    except ImportError:
        pass
print(json.dumps(out))
"""


def _run(args: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, check=True, timeout=300, **kw)  # type: ignore[call-overload, no-any-return]


@pytest.fixture(scope="module")
def runtime_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wheels = tmp_path_factory.mktemp("wheels")
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
          "-w", str(wheels), str(REPO / "runtime")])  # fmt: skip
    (wheel,) = wheels.glob("markergen_runtime-*.whl")
    return wheel


def test_the_wheel_is_the_runtime_folder_and_nothing_else(runtime_wheel: Path) -> None:
    names = zipfile.ZipFile(runtime_wheel).namelist()
    code = sorted(n for n in names if not n.startswith("markergen_runtime-"))
    source = sorted(
        p.relative_to(REPO).as_posix() for p in (REPO / "markergen" / "runtime").glob("*.py")
    )
    assert code == source  # no markergen/__init__.py: alone, markergen is a namespace
    metadata = zipfile.ZipFile(runtime_wheel).read(
        next(n for n in names if n.endswith("/METADATA"))
    ).decode()
    assert "Requires-Dist" not in metadata
    assert f"Version: {markergen.__version__}\n" in metadata


def test_the_runtime_validates_and_normalizes_alone(runtime_wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-index",
          "--no-deps", "-q", str(runtime_wheel)])  # fmt: skip
    texts = render_outputs(load_model(["./..."], TESTDATA / "example"), EmitOptions())
    for name in ("unions_table.json", "unions_table.py"):
        (tmp_path / name).write_text(texts[name])
    script = tmp_path / "use_runtime.py"
    script.write_text(SCRIPT)
    proc = _run([str(python), "-I", str(script), str(tmp_path / "unions_table.json"),
                 str(tmp_path / "unions_table.py")], cwd=tmp_path)  # fmt: skip
    out = json.loads(proc.stdout)
    assert Path(out["file"]).is_relative_to(venv)
    assert out["dists"] == ["markergen-runtime"] and out["requires"] is None
    assert "importable" not in out  # not the tool, none of its dependencies
    assert out["errors"] == [
        'email: Required value: must be set when method is "Email"',
        'webhook: Forbidden: may only be set when method is "Webhook"',
    ]
    assert out["valid"] == []
    assert out["normalized"] == {"backend": "GCS", "gcs": {"name": "b"}}
    ambiguous_or_unknown = out["unknown"]
    assert ambiguous_or_unknown[0] == (
        "types: unknown type 'Delivry'; did you mean com.example.guestbook.api.v1.Delivery?"
    )
    assert ambiguous_or_unknown[1].startswith("types: unknown type 'v2.Delivery'")
    assert "`markergen generate` writes it" in out["missing"]


def test_the_tool_depends_on_the_runtime_of_its_own_version() -> None:
    tool = (REPO / "pyproject.toml").read_text()
    runtime = (REPO / "runtime" / "pyproject.toml").read_text()
    version = re.compile(r'^version = "([^"]+)"', re.MULTILINE)
    assert version.findall(runtime) == version.findall(tool) == [markergen.__version__]
    assert "\ndependencies = []\n" in runtime
    # the dependency on it is added by hack/hatch_metadata.py (by path in a checkout, by
    # this version in hack/wheels.sh): tests/test_wheels.py builds both and reads them
    assert '\npath = "hack/hatch_metadata.py"\n' in tool
    # the tool's wheel leaves the runtime's files to markergen-runtime
    assert '\nexclude = ["markergen/runtime"]\n' in tool
    assert re.search(r"extend_path\(__path__, __name__\)", Path(markergen.__file__).read_text())


def test_validate_without_a_table_says_which_command_writes_it(tmp_path: Path) -> None:
    from helpers import run_cli

    (tmp_path / "obj.yaml").write_text("method: Email\n")
    res = run_cli(["validate", "--type", "Delivery", "obj.yaml"], tmp_path)
    assert res.code == 2 and "Traceback" not in res.stderr
    assert "unions_table.json: no runtime table here: `markergen generate` writes it" in (
        res.stderr
    )


def test_the_command_line_takes_the_same_short_names(tmp_path: Path) -> None:
    from helpers import run_cli

    texts = render_outputs(load_model(["./..."], TESTDATA / "kep"), EmitOptions())
    (tmp_path / "t.json").write_text(texts["unions_table.json"])
    (tmp_path / "obj.yaml").write_text("unionType: FieldA\n")
    res = run_cli(["validate", "--table", "t.json", "--type", "Union", "obj.yaml"], tmp_path)
    assert res.code == 2
    assert "type 'Union' is ambiguous: it may be com.example.kep.kep000.Union, " in res.stderr
    res = run_cli(["validate", "--table", "t.json", "--type", "kep000.Union", "obj.yaml"],
                  tmp_path)  # fmt: skip
    assert res.code in (0, 1) and "ambiguous" not in res.stderr, res.stderr
    res = run_cli(["validate", "--table", "t.json", "--type", "kep000.Unoin", "obj.yaml"],
                  tmp_path)  # fmt: skip
    assert res.code == 2 and "did you mean com.example.kep.kep000.Union" in res.stderr
