"""The typer-free entry (markergen.fastpath) and the TTY progress display
(markergen.progress): behaviour only, no timing."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run_cli

from markergen import __version__
from markergen.fastpath import fast_main, program_name
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
        ["--debug", "--help"],
        ["check", "./..."],
        ["generate", "--help"],
        ["generate", "--no-cache", "--help"],
        ["generate", "--out-dir"],  # missing value: typer's message
        ["generate", "--unknown-flag"],
        ["--version", "extra"],
    ],
)
def test_everything_else_falls_through_silently(module: Path, argv: list[str]) -> None:
    assert call(argv) == (None, "", "")
    assert not (module / "openapi").exists()


def typer_generate(args: list[str], cwd: Path) -> tuple[int, str, str]:
    """`generate` through the typer application itself, bypassing the fast path."""
    code = (
        "import sys\n"
        "from markergen.cli import app\n"
        "app()\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "MARKERGEN_CACHE_DIR"}
    proc = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False,
    )
    return proc.returncode, proc.stdout, proc.stderr


def outputs(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((root / "gen").iterdir())}


@pytest.mark.parametrize("no_cache", [False, True])
def test_cold_generate_answers_exactly_as_the_typer_app(
    module: Path, tmp_path_factory: pytest.TempPathFactory, no_cache: bool
) -> None:
    twin = tmp_path_factory.mktemp("twin")
    shutil.copytree(module, twin, dirs_exist_ok=True)
    args = ["generate", "./api/...", "--out-dir", "gen"] + (["--no-cache"] if no_cache else [])
    code, out, err = call(args)
    typer_code, typer_out, typer_err = typer_generate(args, twin)
    assert (code, out, err) == (typer_code, typer_out, typer_err)
    assert code == 0 and "MG102" in err  # the warning is part of the answer
    assert outputs(module) == outputs(twin)
    # Only a run that may use the cache leaves one behind.
    assert (module / ".markergen-cache").exists() is (not no_cache)


def test_generate_is_answered_from_the_cache_exactly_as_the_cli_answers(module: Path) -> None:
    args = ["generate", "./api/...", "--out-dir", "gen"]
    cli = run_cli(args, module)
    assert cli.code == 0
    assert "MG102" in cli.stderr
    (module / "gen" / "openapi-v3.json").unlink()
    code, out, err = call(args)
    assert code == 0 and out == ""
    # The same diagnostics as the first run, then the writer's own summary line.
    diagnostics, _, summary = err.rpartition("markergen: ")
    assert diagnostics == cli.stderr.rpartition("markergen: ")[0]
    assert summary == "wrote gen/openapi-v3.json (3 unchanged)\n"
    assert (module / "gen" / "openapi-v3.json").is_file()


def test_a_failing_generate_is_answered_as_typer_would_and_writes_nothing(
    module: Path,
) -> None:
    # A missing package is an input error: the fast path reports it itself, in the
    # words of the typer path (markergen.errors), instead of running the command twice.
    args = ["generate", "./nowhere/...", "--out-dir", "gen"]
    code, out, err = call(args)
    assert (code, out, err) == typer_generate(args, module)
    assert code == 2 and err.startswith("markergen: error: ./nowhere/...")
    assert not (module / "gen").exists()
    assert not (module / ".markergen-cache").exists()


def test_a_bug_in_generate_still_falls_through_to_typer(
    module: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Only bugs fall through: typer runs again so that --debug can show a traceback.
    import markergen.generate

    def broken(*args: object, **kwargs: object) -> int:
        raise RuntimeError("a bug")

    monkeypatch.setattr(markergen.generate, "run_and_report", broken)
    assert call(["generate", "./api/...", "--out-dir", "gen"]) == (None, "", "")
    assert not (module / "gen").exists()


def test_error_diagnostics_are_answered_with_exit_1(module: Path) -> None:
    types = module / "api" / "types.go"
    # Two discriminators in one struct (MG2xx error): nothing may be written.
    types.write_text(types.read_text().replace(
        "\tUnrelated int32", "\t// +unionDiscriminator\n\tOther Kind `json:\"other\"`\n"
        "\tUnrelated int32"))
    code, out, err = call(["generate", "./api/...", "--out-dir", "gen"])
    typer_code, typer_out, typer_err = typer_generate(
        ["generate", "./api/...", "--out-dir", "gen"], module
    )
    assert (code, out, err) == (typer_code, typer_out, typer_err)
    assert code == 1 and "error" in err
    assert not (module / "gen").exists()


def typer_top_help(args: list[str], argv0: str, columns: int) -> tuple[int, str, str]:
    """typer's own rendering of the top-level help (fast path bypassed), in a real
    process whose program name is `argv0`."""
    code = (
        "import sys\n"
        f"sys.argv[0] = {argv0!r}\n"
        "from markergen.cli import app\n"
        "app()\n"
    )
    env = dict(os.environ, COLUMNS=str(columns))
    proc = subprocess.run(
        [sys.executable, "-c", code, *args],
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize("args", [["--help"], []])
def test_top_level_help_is_typers_own_text(
    args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(sys, "argv", ["/usr/local/bin/markergen", *args])
    # As a console script runs it (pytest itself may have been started with -m).
    monkeypatch.setattr(sys.modules["__main__"], "__package__", None, raising=False)
    expected = typer_top_help(args, "/usr/local/bin/markergen", 80)
    assert expected[0] == (0 if args else 2)
    assert "Commands:" in expected[1] + expected[2]
    assert call(args) == expected


def test_top_level_help_through_python_dash_m(tmp_path: Path) -> None:
    # The real entry point, as `python -m markergen` runs it: the program name is then
    # `python -m markergen`, and typer's text (rendered with the same name) must match.
    cli = run_cli(["--help"], tmp_path, {"COLUMNS": "80"})
    typer_text = typer_top_help(["--help"], "markergen", 80)[1]
    assert cli.code == 0
    assert cli.stdout == typer_text.replace("Usage: markergen ", "Usage: python -m markergen ", 1)


def test_narrow_terminals_are_left_to_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    # click wraps the help to the terminal below 80 columns; only typer knows how.
    monkeypatch.setenv("COLUMNS", "60")
    assert call(["--help"]) == (None, "", "")


def test_program_name_follows_clicks_rule() -> None:
    assert program_name("/usr/bin/markergen", "") == "markergen"
    assert program_name("/x/markergen/__main__.py", "markergen") == "python -m markergen"
    assert program_name("/x/markergen/cli.py", "markergen") == "python -m markergen.cli"


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
    code, _, err = call(["generate", "./api/..."])
    assert code == 0 and "wrote openapi/openapi-v2.json" in err  # recomputed, not stale


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


@pytest.mark.parametrize(
    "args", [["--help"], [], ["generate", "./api/...", "--no-cache", "--out-dir", "gen"]]
)
def test_answered_without_importing_typer(module: Path, args: list[str]) -> None:
    # The point of the fast entry (docs/performance.md): these never load typer.
    code = (
        "import io, sys\n"
        "from markergen.fastpath import fast_main\n"
        "rc = fast_main(sys.argv[1:], io.StringIO(), io.StringIO())\n"
        "print(rc, 'typer' in sys.modules, 'pydantic' in sys.modules)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=module, capture_output=True, text=True,
        env=dict(os.environ, COLUMNS="80"), timeout=120, check=False,
    )
    expected_rc = "2" if not args else "0"
    assert proc.stdout.split() == [expected_rc, "False", "False"], proc.stderr
