"""bench/bench_corpus.py, the corpus gate, end to end on the example project: the table
row, the comparison with hand classifications, and the exit code that gates."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "bench" / "bench_corpus.py"
WARNING_AT = "api/v1/union_types.go:197"  # the example's one MG201 warning


def _corpus(tmp_path: Path, verdict: bool | None) -> tuple[Path, Path, Path]:
    root = tmp_path / "checkouts"
    shutil.copytree(REPO / "testdata" / "example", root / "example+guestbook")
    projects = tmp_path / "projects.yaml"
    projects.write_text(
        yaml.safe_dump(
            {
                "projects": [
                    {
                        "name": "guestbook",
                        "dir": "example+guestbook",
                        "repo": "example/guestbook",
                        "commit": "0" * 40,
                    }
                ]
            }
        )
    )
    expectations = tmp_path / "expectations.yaml"
    entries = []
    if verdict is not None:
        entries.append(
            {
                "project": "guestbook",
                "code": "MG201",
                "at": WARNING_AT,
                "verdict": verdict,
                "reason": "test",
            }
        )
    expectations.write_text(yaml.safe_dump(entries))
    return root, projects, expectations


def _run(
    root: Path, projects: Path, expectations: Path, *extra: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            str(root),
            "--projects",
            str(projects),
            "--expectations",
            str(expectations),
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_classified_project_passes_and_checkout_is_untouched(tmp_path: Path) -> None:
    root, projects, expectations = _corpus(tmp_path, verdict=True)
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    proc = _run(root, projects, expectations)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    row = next(line for line in proc.stdout.splitlines() if line.startswith("guestbook"))
    cells = row.split()
    # err warn info MG001 generate CRDs crd-wrote...
    assert cells[1:6] == ["0", "1", "0", "0", "ok"]
    assert cells[6] == "1/1" and cells[7:9] == [
        "1",
        "yes",
    ]  # one CRD found, patched by inserts only
    assert "config/crd/bases (Makefile:" in row
    assert "classification: true warning 1" in proc.stdout
    assert "gate passes" in proc.stdout
    # every command ran on a copy: the checkout is byte for byte as it was
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before


def test_unclassified_and_false_findings_are_listed(tmp_path: Path) -> None:
    root, projects, expectations = _corpus(tmp_path, verdict=None)
    out = tmp_path / "unclassified.yaml"
    proc = _run(
        root, projects, expectations, "--only", "guestbook", "--write-unclassified", str(out)
    )
    assert "unclassified findings (1)" in proc.stdout
    assert f"guestbook MG201 warning {WARNING_AT}" in proc.stdout
    # an unclassified warning is listed, not gating; written out to be classified by hand
    assert proc.returncode == 0, proc.stdout
    [entry] = yaml.safe_load(out.read_text())
    assert (entry["project"], entry["code"], entry["at"], entry["verdict"]) == (
        "guestbook",
        "MG201",
        WARNING_AT,
        None,
    )

    root, projects, expectations = _corpus(tmp_path / "false", verdict=False)
    proc = _run(root, projects, expectations)
    assert "false findings (1)" in proc.stdout
    assert proc.returncode == 0  # a false warning is listed; only false errors gate


def test_missing_checkout_is_reported_not_raised(tmp_path: Path) -> None:
    root, projects, expectations = _corpus(tmp_path, verdict=True)
    shutil.rmtree(root / "example+guestbook")
    proc = _run(root, projects, expectations)
    assert proc.returncode == 1
    assert "guestbook: missing checkout" in proc.stdout
    assert "Traceback" not in proc.stderr
