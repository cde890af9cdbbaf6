"""The command line as a user meets it: exit codes, streams, no tracebacks."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import TESTDATA, run_cli

from markergen import __version__, report

KEP = TESTDATA / "kep"


def test_version_and_help() -> None:
    res = run_cli(["--version"], KEP)
    assert (res.code, res.stdout.strip()) == (0, f"markergen {__version__}")
    res = run_cli(["--help"], KEP)
    assert res.code == 0
    for command in ("check", "generate", "explain", "dump"):
        assert command in res.stdout


def test_dump_prints_the_model_as_json() -> None:
    res = run_cli(["dump", "./kep004openapi"], KEP)
    assert res.code == 0, res.stderr
    model = json.loads(res.stdout)
    union = model["structs"]["example.com/kep/kep004openapi.Union"]["unions"][0]
    assert union["discriminator"]["json_name"] == "union1"
    assert [m["json_name"] for m in union["members"]] == ["fieldA", "fieldB"]


def test_check_exit_codes_follow_severity() -> None:
    assert run_cli(["check", "./kep000"], KEP).code == 0  # warnings only
    res = run_cli(["check", "./kep004inline"], KEP)
    assert res.code == 1
    assert "kep004inline/types.go:" in res.stdout and "error MG303" in res.stdout


def test_check_json_has_the_fixed_shape() -> None:
    res = run_cli(["check", "--format", "json", "./kep004inline"], KEP)
    assert res.code == 1
    diags = json.loads(res.stdout)
    assert diags and all(
        {"code", "severity", "message", "file", "line", "column"} <= set(d) for d in diags
    )
    # from the repository top, as every format and `diff` give them
    assert {d["file"] for d in diags} == {
        report.display_path(str(KEP / "kep004inline/types.go"), report.repository_top(KEP))
    }


def test_missing_path_is_a_one_line_error_with_exit_2(tmp_path: Path) -> None:
    res = run_cli(["check", "./nowhere/..."], tmp_path)
    assert res.code == 2
    assert "nowhere" in res.stderr and "Traceback" not in res.stderr


def test_directory_without_go_files_is_exit_2(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    res = run_cli(["check", "./empty"], tmp_path)
    assert res.code == 2 and "Traceback" not in res.stderr


def test_non_utf8_file_is_mg002_and_the_run_goes_on(tmp_path: Path) -> None:
    (tmp_path / "go.mod").write_text("module example.com/x\n")
    (tmp_path / "good.go").write_text('package x\n\n// +enum\ntype T string\n\nconst A T = "a"\n')
    (tmp_path / "bad.go").write_bytes(b"package x\n// \xff\xfe caf\xe9\n")
    res = run_cli(["check", "--format", "json", "."], tmp_path)
    assert res.code == 1
    codes = {(d["code"], d["file"]) for d in json.loads(res.stdout)}
    assert ("MG002", "bad.go") in codes
    dump = json.loads(run_cli(["dump", "."], tmp_path).stdout)
    assert "example.com/x.T" in dump["enums"]


def test_syntax_error_is_mg001_error_and_other_declarations_are_read(tmp_path: Path) -> None:
    (tmp_path / "go.mod").write_text("module example.com/x\n")
    (tmp_path / "a.go").write_text(
        'package x\n\ntype Broken struct {\n\tA int `json:"a"`\n\tB ][\n}\n\n'
        'type Fine struct {\n\tC string `json:"c"`\n}\n'
    )
    res = run_cli(["check", "--format", "json", "."], tmp_path)
    diags = json.loads(res.stdout)
    assert res.code == 1
    mg001 = [d for d in diags if d["code"] == "MG001"]
    assert mg001 and all(d["severity"] == "error" for d in mg001)
    assert all("in type Broken" in d["message"] and d["line"] == 5 for d in mg001), mg001
    dump = json.loads(run_cli(["dump", "."], tmp_path).stdout)
    assert "example.com/x.Fine" in dump["structs"]


def test_explain_prints_docs_and_rejects_unknown_codes() -> None:
    res = run_cli(["explain", "mg205"], KEP)
    assert res.code == 0 and res.stdout.startswith("MG205: ")
    res = run_cli(["explain", "MG999"], KEP)
    assert res.code == 2 and "MG999" in res.stderr


def test_unknown_format_is_a_usage_error() -> None:
    res = run_cli(["check", "--format", "xml", "./kep000"], KEP)
    assert res.code == 2 and "xml" in res.stderr
