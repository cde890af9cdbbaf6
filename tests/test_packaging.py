"""The wheel is what users install: it must carry the rule docs and work on its own.

The test builds a real wheel, installs it (not editable) into a fresh virtual
environment and renders the outputs from the installed copy. Third-party
dependencies come from this test run's own environment through PYTHONPATH, because
tests never touch the network; markergen itself must come from the new venv.
"""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
import sysconfig
from pathlib import Path

from helpers import REPO

PROBE = r"""
import json, sys
import markergen
from markergen.emit.options import EmitOptions
from markergen.emit.outputs import render_outputs
from markergen.explain import explain
from markergen.model import Model
text = render_outputs(Model(packages=()), EmitOptions())["unions_table.json"]
print(json.dumps({"file": markergen.__file__, "rendered": text, "explain": explain("MG303")}))
"""


def test_wheel_renders_outputs_and_ships_rule_docs(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "-q", "-w", str(wheels), str(REPO)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    (wheel,) = wheels.glob("markergen-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
         "--no-index", "-q", str(wheel)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    deps = os.pathsep.join([*site.getsitepackages(), sysconfig.get_paths()["purelib"]])
    out = subprocess.run(
        [str(python), "-c", PROBE],
        cwd=tmp_path,  # not the repository: nothing may be imported from the checkout
        env={**os.environ, "PYTHONPATH": deps},
        check=True,
        capture_output=True,
        text=True,
    )
    probe = json.loads(out.stdout)
    assert Path(probe["file"]).is_relative_to(venv), probe["file"]
    assert json.loads(probe["rendered"]) == {"version": 1, "types": {}}
    assert probe["explain"].startswith("## MG303")
