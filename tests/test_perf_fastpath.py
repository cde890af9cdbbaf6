"""The typer-free entry (markergen.fastpath) and the TTY progress display
(markergen.progress): behaviour only, no timing."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from helpers import run_cli

from markergen import __version__
from markergen.fastpath import fast_main
from markergen.progress import Progress

TYPES_GO = """package v1

// +enum
type Kind string

const (
\t// KindA selects a.
\tKindA Kind = "A"
)

type Thing struct {
\t// +unionDiscriminator
\t// +required
\tKind Kind `json:"kind"`
\t// +unionMember=A
\t// +optional
\tA *string `json:"a,omitempty"`
\t// +optional
\tUnrelated int32 `json:"unrelated,omitempty"`
}

// +enum
type Empty string
"""


@pytest.fixture
def module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "go.mod").write_text("module example.com/fast\n")
    (tmp_path / "api").mkdir()
    (tmp_path / "api" / "types.go").write_text(TYPES_GO)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MARKERGEN_CACHE_DIR", raising=False)
    return tmp_path


def call(argv: list[str]) -> tuple[int | None, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = fast_main(argv, out, err)
    return code, out.getvalue(), err.getvalue()


def test_version_without_typer() -> None:
    assert call(["--version"]) == (0, f"markergen {__version__}\n", "")


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--help"],
        ["check", "./..."],
        ["generate", "--help"],
        ["generate", "--no-cache"],
        ["generate", "--out-dir"],  # missing value: typer's message
        ["generate", "--unknown-flag"],
        ["--version", "extra"],
    ],
)
def test_everything_else_falls_through_silently(module: Path, argv: list[str]) -> None:
    assert call(argv) == (None, "", "")
    assert not (module / "openapi").exists()


def test_generate_is_answered_from_the_cache_exactly_as_the_cli_answers(module: Path) -> None:
    args = ["generate", "./api/...", "--out-dir", "gen"]
    assert call(args) == (None, "", "")  # cold: a miss does nothing
    cli = run_cli(args, module)
    assert cli.code == 0
    assert "MG102" in cli.stderr  # the warning is part of the answer
    (module / "gen" / "openapi-v3.json").unlink()
    code, out, err = call(args)
    assert code == 0 and out == ""
    # The same diagnostics as the typer run, then the writer's own summary line.
    diagnostics, _, summary = err.rpartition("markergen: ")
    assert diagnostics == cli.stderr.rpartition("markergen: ")[0]
    assert summary == "wrote gen/openapi-v3.json (3 unchanged)\n"
    assert (module / "gen" / "openapi-v3.json").is_file()


def test_verify_from_the_cache_reports_stale_output(module: Path) -> None:
    assert run_cli(["generate", "./api/..."], module).code == 0
    table = module / "openapi" / "unions_table.json"
    table.write_text(table.read_text().replace('"A"', '"Z"'))
    code, out, err = call(["generate", "./api/...", "--verify"])
    assert code == 1
    assert "unions_table.json" in out and '-' in out
    assert "1 output(s) are stale" in err


def test_edited_input_is_a_miss_for_the_fast_path(module: Path) -> None:
    assert run_cli(["generate", "./api/..."], module).code == 0
    assert call(["generate", "./api/..."])[0] == 0
    types = module / "api" / "types.go"
    types.write_text(types.read_text() + "\ntype More struct{}\n")
    assert call(["generate", "./api/..."]) == (None, "", "")


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_appears_only_after_a_second_on_a_terminal() -> None:
    now = [0.0]
    stream = FakeTTY()
    progress = Progress(stream, clock=lambda: now[0])
    progress.stage("reading packages", 3)
    progress.advance()
    assert stream.getvalue() == ""  # quick runs never show anything
    now[0] = 1.5
    progress.advance()
    assert stream.getvalue().endswith("markergen: reading packages 2/3")
    progress.finish()
    assert stream.getvalue().endswith("\r\x1b[K")


def test_progress_never_writes_to_a_pipe() -> None:
    now = [0.0]
    stream = io.StringIO()
    progress = Progress(stream, clock=lambda: now[0])
    progress.stage("reading packages", 2)
    now[0] = 5.0
    progress.advance()
    progress.advance()
    progress.finish()
    assert stream.getvalue() == ""


def test_generate_drives_the_progress_display(module: Path) -> None:
    from markergen.config import load_config
    from markergen.generate import generate

    now = [0.0]
    stream = FakeTTY()

    def clock() -> float:
        now[0] += 2.0  # every reading of the clock is two seconds later
        return now[0]

    progress = Progress(stream, clock=clock)
    result = generate(load_config(module), ["./api/..."], module, verify=False,
                      use_cache=False, progress=progress)
    assert result.exit_code == 0
    text = stream.getvalue()
    assert "markergen: reading packages 1/1" in text and text.endswith("\r\x1b[K")
