"""`markergen generate` end to end, through the real command line in a subprocess."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers import TESTDATA, run_cli

OUTPUTS = ("openapi-v2.json", "openapi-v3.json", "unions_table.json", "unions_table.py")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the KEP examples module (outputs are written below it)."""
    dest = tmp_path / "kep"
    shutil.copytree(TESTDATA / "kep", dest)
    return dest


def read_all(out: Path) -> dict[str, bytes]:
    return {name: (out / name).read_bytes() for name in OUTPUTS}


def test_writes_four_outputs_then_verify_is_clean(project: Path) -> None:
    res = run_cli(["generate", "./kep000/...", "./kep004inline/..."], project)
    # kep004inline holds KEP-text errors (MG303 for `Beta = "BETA"`): nothing is written.
    assert res.code == 1, res.stderr
    assert "MG303" in res.stderr
    assert not (project / "openapi").exists()

    res = run_cli(["generate", "./kep000/...", "./kep004openapi/..."], project)
    # MG202 (the KEP's example discriminator is not omitempty) is a warning: outputs are written
    assert res.code == 0, res.stderr
    res = run_cli(["generate", "./kep000/..."], project)
    assert res.code == 0, res.stderr
    files = read_all(project / "openapi")
    v2 = json.loads(files["openapi-v2.json"])
    assert v2["swagger"] == "2.0"
    assert "com.example.kep.kep000.InlinedUnion" in v2["definitions"]

    res = run_cli(["generate", "--verify", "./kep000/..."], project)
    assert (res.code, res.stdout) == (0, "")


def test_verify_prints_a_diff_and_exits_1_without_writing(project: Path) -> None:
    assert run_cli(["generate", "./kep000/..."], project).code == 0
    table = project / "openapi" / "unions_table.json"
    table.write_text(table.read_text().replace('"fieldA"', '"renamed"'))
    stale = table.read_bytes()
    res = run_cli(["generate", "--verify", "./kep000/..."], project)
    assert res.code == 1
    assert "--- a/" in res.stdout and "+++ b/" in res.stdout
    assert '-        "renamed"' in res.stdout or '"renamed"' in res.stdout
    assert table.read_bytes() == stale  # --verify writes nothing


def test_output_is_byte_identical_across_hash_seeds_and_input_order(tmp_path: Path) -> None:
    outputs = []
    for seed, patterns in (("1", ["./kep000/...", "./kep001/..."]),
                           ("4242", ["./kep001/...", "./kep000/..."])):  # fmt: skip
        dest = tmp_path / f"run{seed}"
        shutil.copytree(TESTDATA / "kep", dest)
        res = run_cli(["generate", *patterns, "--union-format", "both"], dest,
                      env={"PYTHONHASHSEED": seed})  # fmt: skip
        assert res.code == 0, res.stderr
        outputs.append(read_all(dest / "openapi"))
    assert outputs[0] == outputs[1]


def test_unchanged_outputs_keep_their_mtime(project: Path) -> None:
    assert run_cli(["generate", "./kep000/..."], project).code == 0
    out = project / "openapi"
    before = {n: (out / n).stat().st_mtime_ns for n in OUTPUTS}
    res = run_cli(["generate", "./kep000/..."], project)
    assert res.code == 0
    assert "4 unchanged" in res.stderr
    assert {n: (out / n).stat().st_mtime_ns for n in OUTPUTS} == before


def test_unwritable_output_is_exit_2_naming_the_file(project: Path) -> None:
    blocker = project / "openapi"
    blocker.write_text("a file where the output directory should be\n")
    res = run_cli(["generate", "./kep000/..."], project)
    assert res.code == 2
    assert "openapi" in res.stderr and "Traceback" not in res.stderr
    assert blocker.read_text() == "a file where the output directory should be\n"


def test_config_file_keys_are_honoured(project: Path) -> None:
    (project / "markergen.yaml").write_text(
        "inputs: [./kep000/...]\nout-dir: gen\nunion-format: both\n"
    )
    res = run_cli(["generate"], project)
    assert res.code == 0, res.stderr
    assert sorted(p.name for p in (project / "gen").iterdir()) == sorted(OUTPUTS)


def test_bad_config_is_exit_2(project: Path) -> None:
    (project / "markergen.yaml").write_text("union-format: sideways\n")
    res = run_cli(["generate", "./kep000/..."], project)
    assert res.code == 2
    assert "union-format" in res.stderr and "fieldMembers" in res.stderr


def test_a_missing_templates_directory_is_reported(project: Path) -> None:
    (project / "markergen.yaml").write_text("templates: hack/templates\n")
    res = run_cli(["generate", "./kep000/..."], project)
    assert res.code == 2 and res.stderr.count("\n") == 1, res.stderr
    assert "hack/templates: template error: the templates directory does not exist" in res.stderr


def test_every_config_key_is_also_a_flag(project: Path) -> None:
    from markergen.config import settings

    # `inputs` are the commands' PATTERNS, `crd-dir` is crd's PATHS, `samples`, `severity`
    # and `crd-check-options` are mappings: those are file-only, every other key is a flag
    # (`crd-checks` has `--crd-checks LEVEL` for every check at once).
    file_only = {s.key for s in settings() if s.in_file and not s.commands}
    assert file_only == {"inputs", "crd-dir", "samples", "severity", "crd-check-options"}
    flags = sorted({s.key for s in settings() if s.in_file and "generate" in s.commands})
    assert {"out-dir", "v2", "table-py", "union-format", "api-version"} <= set(flags)
    res = run_cli(["generate", "--help"], project, env={"COLUMNS": "200"})
    assert res.code == 0
    missing = [k for k in flags if f"--{k}" not in res.stdout]
    assert missing == []
    res = run_cli(
        ["generate", "./kep000/...", "--title", "Guest API", "--api-version", "v9"], project
    )
    assert res.code == 0, res.stderr
    info = json.loads((project / "openapi" / "openapi-v3.json").read_text())["info"]
    assert info == {"title": "Guest API", "version": "v9"}
