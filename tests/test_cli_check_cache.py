"""`markergen check` in a project with CRDs (the example kubebuilder project) is served
from the cache when nothing it read changed (the Go files, the CRDs, the sample objects
the proof evaluates rules on), and recomputed when any of them changes, appears or goes."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from helpers import TESTDATA, count_model_loads, run_main

# An object of the example's kind whose delivery union the union rule rejects (Email
# selected, webhook set): `check` reports it as MG511.
BAD_SAMPLE = """apiVersion: webapp.example.com/v1
kind: Guestbook
metadata:
  name: bad
spec:
  delivery:
    method: Email
    email:
      address: a@example.com
    webhook:
      url: https://example.com
"""
GOOD_SAMPLE = BAD_SAMPLE.replace("    webhook:\n      url: https://example.com\n", "")


@pytest.fixture
def example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    dest = tmp_path / "example"
    shutil.copytree(TESTDATA / "example", dest)
    monkeypatch.chdir(dest)
    monkeypatch.setenv("MARKERGEN_CACHE_DIR", str(tmp_path / "cache"))
    return dest


def _check(*args: str) -> tuple[int, str, str]:
    r = run_main(["check", "--format", "json", *args])
    return r.code, r.stdout, r.stderr


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Grows by one whenever a run loads the model (a run not served from the cache)."""
    return count_model_loads(monkeypatch)


def test_check_with_crds_is_served_from_the_cache(example: Path, loads: list[int]) -> None:
    first = _check()
    assert first[0] == 0 and len(loads) == 1
    assert _check() == first and len(loads) == 1  # served: nothing changed


def test_a_new_edited_or_removed_sample_is_never_served_stale(
    example: Path, loads: list[int]
) -> None:
    clean = _check()
    assert "MG511" not in clean[1]
    samples = example / "config" / "samples"
    samples.mkdir(parents=True)
    bad = samples / "webapp_v1_guestbook.yaml"
    bad.write_text(BAD_SAMPLE)  # a new file the proof reads
    found = _check()
    assert len(loads) == 2 and "MG511" in found[1]
    assert _check() == found and len(loads) == 2
    bad.write_text(GOOD_SAMPLE)  # the same file, edited
    assert "MG511" not in _check()[1] and len(loads) == 3
    bad.write_text(BAD_SAMPLE)
    assert "MG511" in _check()[1] and len(loads) == 4
    bad.unlink()  # gone
    assert _check() == clean and len(loads) == 5


def test_an_edited_crd_or_no_cache_recomputes(example: Path, loads: list[int]) -> None:
    _check()
    crd = example / "config" / "crd" / "bases" / "webapp.example.com_guestbooks.yaml"
    crd.write_text(crd.read_text() + "# edited\n")
    _check()
    assert len(loads) == 2
    _check("--no-cache")
    assert len(loads) == 3


def test_check_served_from_the_cache_never_imports_a_cel_engine(example: Path) -> None:
    # What a warm check pays for: no CEL engine and no YAML parsing of the CRDs. A cold
    # run proves each union's rules (markergen.crd.prove) and imports an engine for it.
    import subprocess

    code = (
        "import sys\n"
        "from markergen.cli import main\n"
        "rc = main(['check', '--quiet'])\n"
        "engines = [m for m in ('cel', 'celpy', 'cel_expr_python') if m in sys.modules]\n"
        "print(rc, bool(engines), file=sys.stderr)\n"
    )
    seen = []
    for _ in range(2):  # the first run fills the cache, the second is served from it
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              cwd=example, env=dict(os.environ), timeout=300, check=False)  # fmt: skip
        seen.append(proc.stderr.strip().splitlines()[-1])
    assert seen == ["0 True", "0 False"]
