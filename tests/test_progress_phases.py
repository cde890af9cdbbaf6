"""The progress line of a long `generate` names each phase (reading N packages,
checking, rendering and writing) and counts packages, not directories: a `./...` walk
also selects directories without Go files. No timing: a fake clock makes every reading
two seconds later, so every draw is shown."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from markergen.config import load_config
from markergen.generate import generate
from markergen.progress import Progress

TYPES_GO = """package {name}

// Thing is a thing.
type Thing struct {{
	// Name is a name.
	Name string `json:"name"`
}}
"""


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "go.mod").write_text("module example.com/phases\n")
    for name in ("a", "b"):
        (tmp_path / "api" / name).mkdir(parents=True)
        (tmp_path / "api" / name / "types.go").write_text(TYPES_GO.format(name=name))
    # Directories that are no package: no Go file at all, and only a test file.
    (tmp_path / "api" / "docs").mkdir()
    (tmp_path / "api" / "docs" / "README.md").write_text("docs\n")
    (tmp_path / "api" / "tests").mkdir()
    (tmp_path / "api" / "tests" / "x_test.go").write_text("package tests\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MARKERGEN_CACHE_DIR", raising=False)
    return tmp_path


def _draws(text: str) -> list[str]:
    return [part for part in text.split("\r\x1b[K") if part]


def test_generate_names_each_phase_and_counts_packages(module: Path) -> None:
    now = [0.0]

    def clock() -> float:
        now[0] += 2.0
        return now[0]

    stream = FakeTTY()
    progress = Progress(stream, clock=clock)
    result = generate(load_config(module), ["./api/..."], module, verify=False,
                      use_cache=False, progress=progress)
    assert result.exit_code == 0
    draws = _draws(stream.getvalue())
    assert "markergen: reading 2 packages 0/2" in draws
    assert "markergen: reading 2 packages 2/2" in draws
    assert "markergen: checking" in draws
    assert "markergen: rendering and writing outputs 4/4" in draws
    # The phases come in the order the run does them.
    firsts = [next(i for i, d in enumerate(draws) if d.startswith(f"markergen: {label}"))
              for label in ("reading", "checking", "rendering")]
    assert firsts == sorted(firsts)
    assert stream.getvalue().endswith("\r\x1b[K")  # erased at the end


def test_a_stage_without_a_count_shows_its_name_alone() -> None:
    stream = FakeTTY()
    now = [5.0]
    progress = Progress(stream, clock=lambda: now[0])
    now[0] = 10.0
    progress.stage("checking")
    assert stream.getvalue() == "\r\x1b[Kmarkergen: checking"
