"""controller-gen's output for the fixture CRDs under testdata/, and the command that
rewrites them.

Every CRD under testdata/ that stands for controller-gen's output of Go types in the same
fixture is listed in JOBS: which Go it is generated from, with which controller-gen
arguments (those of the fixture's own Makefile), and which fixture files it becomes.
A fixture CRD that controller-gen would never write (a stale CRD, a trimmed third-party
CRD, another code generator's output) is named `*-handwritten*` or `*-stale*` and has a
README.md beside it; `covered()` sorts every CRD file of testdata/ into one or the other.

controller-gen (controller-tools v0.23.0, pinned in harness/controller-gen/go.mod) runs on
a temporary copy of the fixture: the fixtures' go.mod files have no go.sum (markergen
reads them, Go never builds them), so the copy gets one from `go mod tidy` against the
module proxy, and testdata/ is written only by this command:

    python tests/cgenfixtures.py            # rewrite the fixture CRDs, then read `git diff`
    python tests/cgenfixtures.py --check    # list the fixture CRDs that differ, exit 1 if any

tests/test_controllergen_fixtures.py fails when a fixture CRD differs from this output.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import kubeserver
from crdwant import reattach_wants, strip_wants

TESTDATA = kubeserver.REPO / "testdata"
CONTROLLER_TOOLS = "v0.23.0"

# The markers of a fixture CRD that is not controller-gen's output (see the module doc).
HANDWRITTEN_MARKS = ("-handwritten", "-stale")

# The gameserver Makefile wraps each chart copy so that users can skip the CRDs.
_HELM_IF = "{{- if .Values.crds.install }}\n"
_HELM_END = "{{- end }}\n"


@dataclass(frozen=True)
class Target:
    """One fixture file made from a CRD controller-gen writes (a path under testdata/)."""

    path: str
    header: str = ""
    footer: str = ""


@dataclass(frozen=True)
class Job:
    """One controller-gen run over a fixture's Go types.

    `source` (under testdata/) is copied, links followed, as the root of a Go module;
    `module` is the module path of the go.mod written there when `source` has none.
    `outputs` maps each file controller-gen writes to the fixture files it becomes.
    """

    name: str
    source: str
    args: tuple[str, ...]
    outputs: tuple[tuple[str, tuple[Target, ...]], ...]
    module: str | None = None


def _one(written: str, *targets: str) -> tuple[str, tuple[Target, ...]]:
    return (written, tuple(Target(t) for t in targets))


JOBS: tuple[Job, ...] = (
    Job(
        "defaulted",
        "projects/defaulted",
        ("crd", "paths=./..."),
        (
            _one(
                "faults.example.com_injectors.yaml",
                "projects/defaulted/config/crd/bases/faults.example.com_injectors.yaml",
            ),
        ),
    ),
    Job(
        "example",
        "example",
        ("crd", "paths=./..."),
        (
            _one(
                "webapp.example.com_guestbooks.yaml",
                "example/config/crd/bases/webapp.example.com_guestbooks.yaml",
            ),
        ),
    ),
    Job(
        "crd-cost",
        "crd/cost",
        ("crd", "paths=./..."),
        (
            _one(
                "routing.example.com_routers.yaml",
                "crd/cost/config/crd/bases/routing.example.com_routers.yaml",
            ),
        ),
    ),
    Job(
        # testdata/diff/crd holds the same CRD without its project, for the CRD-only diffs.
        "diff-crdproject",
        "diff/crdproject",
        ("crd", "paths=./..."),
        (
            _one(
                "example.com_widgets.yaml",
                "diff/crdproject/config/crd/bases/example.com_widgets.yaml",
                "diff/crd/example.com_widgets.yaml",
            ),
        ),
    ),
    Job(
        # The layout fixtures (copydelete, nested, openshift, submake) link to this CRD.
        "projects-layout",
        "projects/_layout",
        ("crd", "paths=./..."),
        (
            _one(
                "webapp.example.com_guestbooks.yaml",
                "projects/_layout/crd/webapp.example.com_guestbooks.yaml",
            ),
        ),
        module="example.com/guestbook",
    ),
    Job(
        # The vendored openshift API module; hack/update-payload-crds.sh copies its CRD.
        "projects-openshift",
        "projects/openshift/vendor/github.com/openshift/api",
        ("crd", "paths=./..."),
        (
            _one(
                "config.openshift.io_guestbooks.yaml",
                "projects/openshift/vendor/github.com/openshift/api/config/v1/"
                "zz_generated.crd-manifests/0000_10_config-operator_01_guestbooks.crd.yaml",
                "projects/openshift/manifests/0000_10_config-operator_01_guestbooks.crd.yaml",
            ),
        ),
        module="github.com/openshift/api",
    ),
    Job(
        "projects-fleetnet",
        "projects/fleetnet",
        ("crd", "paths=./..."),
        (
            _one(
                "net.example.com_uplinks.yaml",
                "projects/fleetnet/config/crd/bases/net.example.com_uplinks.yaml",
            ),
        ),
    ),
    Job(
        # tools/make/gen.mk: the same CRD for kustomize and, wrapped, for the Helm chart.
        "projects-gameserver",
        "projects/gameserver",
        ("crd", "paths=./..."),
        (
            (
                "games.example.com_fleets.yaml",
                (
                    Target("projects/gameserver/config/crd/bases/games.example.com_fleets.yaml"),
                    Target(
                        "projects/gameserver/charts/gameserver/templates/crds/games.example.com_fleets.yaml",
                        _HELM_IF,
                        _HELM_END,
                    ),
                ),
            ),
        ),
    ),
    Job(
        "projects-relay",
        "projects/relay",
        ("crd", "paths=./..."),
        (
            _one(
                "relay.example.com_relays.yaml",
                "projects/relay/config/crd/bases/relay.example.com_relays.yaml",
            ),
        ),
    ),
    Job(
        # openshift's union style in a kubebuilder project (tests/test_apiserver_unionrules.py)
        "projects-unionrules",
        "projects/unionrules",
        ("crd", "paths=./..."),
        (
            _one(
                "metrics.example.com_collectors.yaml",
                "projects/unionrules/config/crd/bases/metrics.example.com_collectors.yaml",
            ),
        ),
    ),
    Job(
        "projects-rootfind",
        "projects/rootfind",
        ("crd", "paths=./api/...;./exp/api/..."),
        tuple(
            _one(name, f"projects/rootfind/config/crd/bases/{name}")
            for name in (
                "core.example.com_gears.yaml",
                "core.example.com_widgets.yaml",
                "exp.example.com_gadgets.yaml",
                "gizmo.example.com_gizmoes.yaml",
            )
        ),
    ),
)


# The fixtures of tests/test_crd_want.py (testdata/crdwant/<name>/), each a small project
# whose Makefile-less layout controller-gen writes to config/crd/bases/: name -> the files.
_RELAYS = ("relay.example.com_relays.yaml",)
CRDWANT: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("mg501-good", _RELAYS),
    ("mg502-bad", _RELAYS),
    ("mg502-good", _RELAYS),
    ("mg503-good", _RELAYS),
    ("mg505-good", _RELAYS),
    ("mg506-bad", _RELAYS),
    ("mg506-good", _RELAYS),
    ("mg506-good-ignored", _RELAYS),
    ("mg506-good-severity-off", _RELAYS),
    ("mg508-bad", _RELAYS),
    ("mg508-good", _RELAYS),
    ("mg508-good-ignored", _RELAYS),
    ("mg508-good-severity-off", _RELAYS),
    ("mg509-bad", _RELAYS),
    ("mg509-good", _RELAYS),
    ("mg510-bad", _RELAYS),
    ("mg510-bad-enum", _RELAYS),
    ("mg510-good", _RELAYS),
    ("mg510-good-ignored", _RELAYS),
    ("mg512-bad", _RELAYS),
    ("mg512-good", _RELAYS),
    ("mg513-bad", _RELAYS),
    ("mg513-good", _RELAYS),
    ("mg514-good", _RELAYS),
    ("mg516-bad", _RELAYS),
    ("mg516-good", _RELAYS),
    ("mg520-good", _RELAYS),
    ("mg521-good", _RELAYS),
)

JOBS += tuple(
    Job(
        f"crdwant-{name}",
        f"crdwant/{name}",
        ("crd", "paths=./..."),
        tuple(_one(file, f"crdwant/{name}/config/crd/bases/{file}") for file in files),
    )
    for name, files in CRDWANT
)


def targets() -> dict[str, tuple[Job, str, Target]]:
    """Every fixture CRD controller-gen writes: path -> (job, file written, target)."""
    return {t.path: (job, written, t) for job in JOBS for written, ts in job.outputs for t in ts}


_KIND = re.compile(rb"^kind: CustomResourceDefinition\s*$", re.M)


def crd_files() -> list[Path]:
    """Every YAML file under testdata/ that holds a CRD (links included, as found)."""
    return [
        path
        for path in sorted(TESTDATA.rglob("*"))
        if path.suffix in (".yaml", ".yml") and path.is_file() and _KIND.search(path.read_bytes())
    ]


def is_handwritten(path: Path) -> bool:
    return any(mark in path.name for mark in HANDWRITTEN_MARKS)


def covered(path: Path) -> str:
    """'generated', 'handwritten' or 'unaccounted' for a CRD file of testdata/."""
    real = path.resolve()
    rel = real.relative_to(TESTDATA.resolve()).as_posix()
    if rel in targets():
        return "generated"
    if is_handwritten(real) and (real.parent / "README.md").is_file():
        return "handwritten"
    return "unaccounted"


def _env() -> dict[str, str]:
    # -mod=mod: the copy's go.mod is tidied here, and a vendor/ directory of the fixture
    # (projects/openshift) is a fixture of markergen's reading, not a Go vendor tree.
    return dict(os.environ, GOFLAGS="-mod=mod", GOWORK="off", GOTOOLCHAIN="local")


def _run(argv: list[str], cwd: Path) -> None:
    proc = subprocess.run(
        argv, cwd=cwd, env=_env(), capture_output=True, text=True, check=False, timeout=1800
    )
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} (in {cwd}) failed:\n{proc.stdout}{proc.stderr}")


def generate(job: Job, controller_gen: Path, workdir: Path) -> dict[str, bytes]:
    """Run controller-gen for `job` in a copy under `workdir`: fixture path -> its bytes."""
    src = workdir / job.name / "src"
    out = workdir / job.name / "out"
    shutil.copytree(TESTDATA / job.source, src, symlinks=False)
    if job.module is not None:
        if (src / "go.mod").exists():
            raise RuntimeError(f"{job.source} has a go.mod: drop `module` from job {job.name}")
        (src / "go.mod").write_text(f"module {job.module}\n\ngo 1.22\n", encoding="utf-8")
    gobin = kubeserver.go()
    _run([gobin, "mod", "tidy"], src)
    _run([str(controller_gen), *job.args, f"output:crd:artifacts:config={out}"], src)
    written = sorted(p.name for p in out.iterdir()) if out.is_dir() else []
    expected = sorted(name for name, _ in job.outputs)
    if written != expected:
        raise RuntimeError(
            f"controller-gen wrote {written} for {job.source}, the job expects {expected}"
        )
    result = {}
    for name, ts in job.outputs:
        text = (out / name).read_text(encoding="utf-8")
        for t in ts:
            result[t.path] = (t.header + text + t.footer).encode("utf-8")
    return result


def generate_all(controller_gen: Path, jobs: Iterable[Job] = JOBS) -> dict[str, bytes]:
    with tempfile.TemporaryDirectory(prefix="markergen-cgen-") as tmp:
        result: dict[str, bytes] = {}
        for job in jobs:
            result.update(generate(job, controller_gen, Path(tmp)))
        return result


def as_generated(path: Path) -> bytes:
    """A fixture CRD's bytes as controller-gen wrote them: without the trailing `# want`
    comments of tests/crdwant.py, which only the crdwant fixtures carry."""
    data = path.read_bytes()
    if "crdwant" not in path.relative_to(TESTDATA).parts:
        return data
    return strip_wants(data.decode("utf-8")).encode("utf-8")


def differing(generated: Mapping[str, bytes]) -> list[str]:
    return [
        path
        for path, data in sorted(generated.items())
        if not (TESTDATA / path).is_file() or as_generated(TESTDATA / path) != data
    ]


def rewrite(path: str, data: bytes) -> list[str]:
    """Write controller-gen's `data` to the fixture `path`, its trailing wants put back
    on the lines of the same text; returns the wants that found no such line."""
    target = TESTDATA / path
    if not target.is_file() or "crdwant" not in Path(path).parts:
        target.write_bytes(data)
        return []
    text, lost = reattach_wants(target.read_text(encoding="utf-8"), data.decode("utf-8"))
    target.write_text(text, encoding="utf-8")
    return lost


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python tests/cgenfixtures.py",
        description=f"Rewrite the fixture CRDs of testdata/ from controller-gen {CONTROLLER_TOOLS}.",
    )
    parser.add_argument("--check", action="store_true", help="only list the CRDs that differ")
    args = parser.parse_args(argv)
    unaccounted = [p for p in crd_files() if covered(p) == "unaccounted"]
    for crd in unaccounted:
        print(f"not generated and not marked hand-written: {crd.relative_to(TESTDATA)}")
    generated = generate_all(kubeserver.build("controller-gen"))
    changed = differing(generated)
    for path in changed:
        if args.check:
            print(f"differs from controller-gen {CONTROLLER_TOOLS}: testdata/{path}")
        else:
            target = TESTDATA / path
            target.parent.mkdir(parents=True, exist_ok=True)
            for want in rewrite(path, generated[path]):
                print(f"testdata/{path}: no line left for the want {want}; place it again")
            print(f"rewrote testdata/{path}")
    if not changed:
        print(f"{len(generated)} fixture CRD(s) are controller-gen {CONTROLLER_TOOLS}'s output")
    return 1 if unaccounted or (args.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())
