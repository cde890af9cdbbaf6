"""The fixture CRDs of testdata/ are what controller-gen v0.23.0 writes for the fixtures'
Go types today (tests/cgenfixtures.py lists them; `python tests/cgenfixtures.py` rewrites
them), and every other CRD file of testdata/ says in its name and a README beside it that
controller-gen did not write it.

The comparison is of bytes, not of parsed YAML: `markergen crd` patches a CRD's text in
place (its output differs from the input only by added lines), and `check`, `crd` and
`diff` cite file:line in the CRD, so how controller-gen folds a description or quotes a
rule is part of what the tests read, and a fixture folded differently is a different input.
"""

from __future__ import annotations

import difflib
import subprocess
from pathlib import Path

import cgenfixtures
import pytest
from cgenfixtures import TESTDATA

TARGETS = cgenfixtures.targets()
CRD_FILES = cgenfixtures.crd_files()


@pytest.fixture(scope="module")
def generated(controller_gen: Path) -> dict[str, bytes]:
    return cgenfixtures.generate_all(controller_gen)


def test_controller_gen_is_the_pinned_version(controller_gen: Path) -> None:

    out = subprocess.run(
        [str(controller_gen), "--version"], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == f"Version: {cgenfixtures.CONTROLLER_TOOLS}"


@pytest.mark.parametrize("path", sorted(TARGETS))
def test_fixture_crd_is_what_controller_gen_writes(path: str, generated: dict[str, bytes]) -> None:
    want = generated[path]
    # a crdwant fixture's trailing `# want` comments are not controller-gen's (tests/crdwant.py)
    have = cgenfixtures.as_generated(TESTDATA / path)
    if have != want:
        diff = "".join(
            difflib.unified_diff(
                have.decode().splitlines(keepends=True),
                want.decode().splitlines(keepends=True),
                f"testdata/{path}",
                f"controller-gen {cgenfixtures.CONTROLLER_TOOLS}",
            )
        )
        pytest.fail(
            f"testdata/{path} is not controller-gen's output; if the Go changed on purpose, "
            f"run `python tests/cgenfixtures.py` and read the diff:\n{diff}"
        )


@pytest.mark.parametrize("path", CRD_FILES, ids=lambda p: p.relative_to(TESTDATA).as_posix())
def test_every_fixture_crd_is_generated_or_says_it_is_handwritten(path: Path) -> None:
    kind = cgenfixtures.covered(path)
    assert kind != "unaccounted", (
        f"{path.relative_to(TESTDATA)} is neither in tests/cgenfixtures.py's JOBS nor named "
        f"{' or '.join(cgenfixtures.HANDWRITTEN_MARKS)} with a README.md beside it"
    )
    if kind == "handwritten":
        readme = (path.resolve().parent / "README.md").read_text(encoding="utf-8")
        assert path.resolve().name in readme, "the README must say why this file is hand-written"


def test_the_generated_targets_are_crd_files_of_testdata() -> None:
    on_disk = {p.resolve().relative_to(TESTDATA.resolve()).as_posix() for p in CRD_FILES}
    assert set(TARGETS) <= on_disk


def test_a_changed_byte_is_a_difference(generated: dict[str, bytes]) -> None:
    path = sorted(generated)[0]
    assert cgenfixtures.differing({path: generated[path]}) == []
    assert cgenfixtures.differing({path: generated[path] + b"\n"}) == [path]


def test_a_crdwant_fixtures_trailing_wants_are_no_difference(generated: dict[str, bytes]) -> None:
    # tests/crdwant.py: a want at the end of a generated line is the test's, not the CRD's
    path = "crdwant/mg508-bad/config/crd/bases/relay.example.com_relays.yaml"
    assert '# want "MG508"' in (TESTDATA / path).read_text(encoding="utf-8")
    assert cgenfixtures.differing({path: generated[path]}) == []
    changed = generated[path].replace(b"where the relay connects.", b"where the relay goes.")
    assert changed != generated[path]
    assert cgenfixtures.differing({path: changed}) == [path]
