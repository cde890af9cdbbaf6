"""A folder of wheels installs anywhere with docs/ci.md's one command: the build command
docs/ci.md gives runs in a copy of this checkout, the copy is deleted, and the install
command docs/ci.md gives runs in a fresh virtual environment (its third-party
dependencies from the package index, as on a CI runner); markergen then checks the
example project from there. The docs name the dependencies pyproject.toml names.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import tomllib
import yaml
from helpers import REPO, TESTDATA
from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

CI_MD = REPO / "docs" / "ci.md"


def _pyproject() -> dict[str, Any]:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def _requirements() -> dict[str, Requirement]:
    data = _pyproject()
    listed = data["tool"]["hatch"]["metadata"]["hooks"]["custom"]["dependencies"]
    extras = [r for group in data["project"]["optional-dependencies"].values() for r in group]
    reqs = [Requirement(r) for r in [*listed, *extras]]
    return {canonicalize_name(r.name): r for r in reqs}


def _documented_commands() -> tuple[str, str]:
    """docs/ci.md's build command and install command, as a user copies them."""
    text = CI_MD.read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", text, flags=re.S)
    build = [b for b in blocks if "hack/wheels.sh" in b]
    install = [b for b in blocks if "pip install" in b]
    assert len(build) == len(install) == 1, blocks
    lines = [ln for ln in build[0].splitlines() if ln and not ln.startswith("#")]
    (install_line,) = install[0].strip().splitlines()
    return "\n".join(lines), install_line


def _metadata(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as z:
        (name,) = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")]
        return z.read(name).decode("utf-8")


def _copy_checkout(dest: Path) -> None:
    # Tracked and untracked files, not the ignored ones (.venv, .tools, caches).
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO,
                            capture_output=True, check=True, timeout=60).stdout  # fmt: skip
    for rel in filter(None, listed.decode("utf-8").split("\0")):
        src = REPO / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "PYTHONPATH", "MARKERGEN_RUNTIME_PIN")}  # fmt: skip
    # `python3` is this test run's interpreter (with pip), as in an activated venv.
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.update(extra)
    return env


def test_the_documented_wheels_install_with_the_checkout_gone(tmp_path: Path) -> None:
    build, install = _documented_commands()
    assert install == "pip install hack/wheels/*.whl"
    checkout, api = tmp_path / "markergen", tmp_path / "api"
    _copy_checkout(checkout)
    shutil.copytree(TESTDATA / "example", api)
    subprocess.run(["bash", "-euo", "pipefail", "-c", build], cwd=checkout,
                   env=_env(API_REPO=str(api)), check=True, capture_output=True,
                   timeout=600)  # fmt: skip
    wheels = sorted(p.name for p in (api / "hack" / "wheels").iterdir())
    assert wheels == ["markergen-0.1.0-py3-none-any.whl",
                      "markergen_runtime-0.1.0-py3-none-any.whl"]  # fmt: skip
    assert "Requires-Dist: markergen-runtime==0.1.0\n" in _metadata(
        api / "hack" / "wheels" / wheels[0]
    )
    shutil.rmtree(checkout)

    runner = tmp_path / "runner"
    subprocess.run([sys.executable, "-m", "venv", str(runner)], check=True, timeout=300)
    env = _env()
    env["PATH"] = os.pathsep.join([str(runner / "bin"), env["PATH"]])
    env["VIRTUAL_ENV"] = str(runner)
    proc = subprocess.run(["bash", "-euo", "pipefail", "-c", install], cwd=api, env=env,
                          capture_output=True, text=True, timeout=900, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    where = subprocess.run(
        [str(runner / "bin" / "python"), "-c",
         "import markergen, markergen.runtime, markergen.cli; "
         "print(markergen.__file__); print(markergen.runtime.__file__)"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=True,
    ).stdout.split()  # fmt: skip
    assert all(path.startswith(str(runner)) for path in where), where
    check = subprocess.run([str(runner / "bin" / "markergen"), "check"], cwd=api, env=env,
                           capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_wheel_built_in_a_checkout_names_the_runtime_by_path(tmp_path: Path) -> None:
    # `pip install .` in a checkout: markergen-runtime is built from the checkout's
    # runtime/, as nothing is published (hack/hatch_metadata.py).
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path), str(REPO)],
        env=_env(), check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("markergen-*.whl")
    uri = (REPO / "runtime").as_uri()
    assert f"Requires-Dist: markergen-runtime @ {uri}\n" in _metadata(wheel)


def test_the_wheel_carries_every_dependency_of_pyproject(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path), str(REPO)],
        env=_env(MARKERGEN_RUNTIME_PIN="1"), check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("markergen-*.whl")
    found = {
        canonicalize_name(Requirement(line.split(": ", 1)[1]).name)
        for line in _metadata(wheel).splitlines()
        if line.startswith("Requires-Dist: ") and "extra ==" not in line
    }
    listed = _pyproject()["tool"]["hatch"]["metadata"]["hooks"]["custom"]["dependencies"]
    assert found == {canonicalize_name(Requirement(r).name) for r in listed} | {"markergen-runtime"}


def _doc_pages() -> list[Path]:
    return [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


# `name>=1.0`, `name>=0.24,<0.26` in backquotes: a requirement the prose states.
_SPEC = re.compile(r"`([A-Za-z0-9][A-Za-z0-9._-]*\s*(?:[<>=!~]=?\s*[0-9][^`,\s]*)"
                   r"(?:\s*,\s*[<>=!~]=?\s*[0-9][^`,\s]*)*)`")  # fmt: skip


def test_every_requirement_the_docs_state_is_pyprojects() -> None:
    reqs = _requirements()
    wrong = []
    for page in _doc_pages():
        for spec in _SPEC.findall(page.read_text(encoding="utf-8")):
            try:
                req = Requirement(spec)
            except InvalidRequirement:
                continue  # `NAME=1` and the like: a setting, not a requirement
            known = reqs.get(canonicalize_name(req.name))
            if known is not None and req.specifier != known.specifier:
                wrong.append(f"{page.name}: `{spec}`, pyproject.toml: `{known}`")
    assert wrong == []


# Packages the docs name in `pip install` to say why markergen does not depend on them.
NOT_DEPENDENCIES = {"typer-slim"}  # docs/architecture.md, "Which typer"


def test_every_package_a_doc_installs_is_a_dependency() -> None:
    # A hand-written `pip install a b c` drifts from pyproject.toml (it once named
    # common-expression-language instead of cel-expr-python, and no click): the docs
    # install markergen's wheels, a checkout, or packages pyproject.toml names.
    reqs = _requirements()
    stray = []
    for page in _doc_pages():
        text = page.read_text(encoding="utf-8")
        blocks = re.findall(r"```(?:sh|bash|yaml)\n(.*?)```", text, flags=re.S)
        prose = re.sub(r"```.*?```", "", text, flags=re.S)
        inline = [re.sub(r"\s+", " ", code) for code in prose.split("`")[1::2]]
        for text in [*blocks, *inline]:
            for command in re.findall(r"pip install ([^&|;#\n]*)", text):
                for word in command.split():
                    if word.startswith(("-", ".", "/", "'", '"', "$")) or "/" in word:
                        continue  # an option, a path, a wheel file, a checkout
                    name = canonicalize_name(Requirement(word).name)
                    if name not in reqs and name not in NOT_DEPENDENCIES:
                        stray.append(f"{page.name}: pip install {command.strip()}")
    assert stray == []


def test_the_python_version_the_docs_give_is_pyprojects() -> None:
    wanted = _pyproject()["project"]["requires-python"]
    assert wanted.startswith(">=")
    version = wanted[2:]
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    ci_md = CI_MD.read_text(encoding="utf-8")
    stated = re.findall(r"Python\s+(3\.\d+) or later", readme + ci_md)
    assert stated and set(stated) == {version}
    workflow = yaml.safe_load(ci_md.split("```yaml\n# .github/workflows/api.yaml\n")[1]
                              .split("\n```")[0])  # fmt: skip
    setups = [s for s in workflow["jobs"]["markergen"]["steps"]
              if s.get("uses", "").startswith("actions/setup-python")]  # fmt: skip
    assert [s["with"]["python-version"] for s in setups] == [version]
