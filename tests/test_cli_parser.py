"""The command line (markergen.cli): one typer app built from the command and settings
declarations, its help, streams, exit codes, "did you mean", --debug/--quiet anywhere,
colour, and the TTY progress display (markergen.progress). Behaviour only, no timing.
Shell completion: tests/test_completion.py."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run_cli

from markergen import __version__
from markergen.cli import COMMANDS, build, command_args, main, use_color
from markergen.config import settings, settings_of
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



def test_version() -> None:
    # `--version` alone is answered before typer is imported; with another option it goes
    # through the typer app: the same text either way.
    for args in (["--version"], ["--version", "--debug"], ["-q", "--version"]):
        res = run_cli(args, Path.cwd())
        assert (res.code, res.stdout, res.stderr) == (0, f"markergen {__version__}\n", ""), args


def test_version_and_help_import_neither_the_model_nor_yaml() -> None:
    # What keeps `--version` and `--help` quick: nothing heavy is imported for them.
    code = (
        "import sys\n"
        "from markergen.cli import main\n"
        "rc = main(sys.argv[1:])\n"
        "heavy = [m for m in ('yaml', 'tree_sitter', 'jinja2', 'markergen.model', 'rich',\n"
        "         'pydantic', 'cel') if m in sys.modules]\n"
        "print(rc, heavy, file=sys.stderr)\n"
    )
    for args in (["--version"], ["--help"]):
        proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                              text=True, timeout=120, check=False)
        assert proc.stderr.strip().splitlines()[-1] == "0 []", proc.stderr


def test_no_arguments_print_help_on_stderr_and_exit_2() -> None:
    res = run_cli([], Path.cwd())
    assert res.code == 2 and res.stdout == ""
    assert "Usage: markergen" in res.stderr and "generate" in res.stderr


@pytest.mark.parametrize("command", [c.name for c in COMMANDS])
@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_every_command_has_complete_help(command: str, flag: str) -> None:
    res = run_cli([command, flag], Path.cwd(), env={"COLUMNS": "80"})
    assert res.code == 0 and res.stderr == ""
    text = res.stdout
    assert text.startswith(f"Usage: markergen {command} [OPTIONS]")
    # No Python type names, nothing cut off, every option with its help.
    assert "<list" not in text and "[str]" not in text and "<str>" not in text
    assert all(len(line) <= 80 or " > " in line for line in text.splitlines()), text
    for arg in command_args(next(c for c in COMMANDS if c.name == command)):
        assert arg.names[0] in text
        first_words = " ".join(arg.help.split()[:3])
        assert first_words in " ".join(text.split()), (arg.names, first_words)


def test_every_setting_of_a_command_is_a_flag_of_it() -> None:
    import click

    app = build()
    assert isinstance(app, click.Group)
    for command in COMMANDS:
        flags = {o for p in app.commands[command.name].params
                 if isinstance(p, click.Option) for o in p.opts}  # fmt: skip
        for s in settings_of(command.name) if command.settings else ():
            assert s.flag in flags, (command.name, s.flag)
        # and nothing else: each flag comes from one declaration
        declared = {n for a in command_args(command) for n in a.names if n.startswith("-")}
        assert flags - declared == {"--debug", "--quiet", "-q"}, command.name


def test_every_file_setting_is_a_config_key_with_its_type(tmp_path: Path) -> None:
    from markergen.config import ConfigError, load_config

    (tmp_path / "go.mod").write_text("module example.com/x\n")
    for s in settings():
        if not s.in_file:
            continue
        bad = 3.5
        (tmp_path / "markergen.yaml").write_text(f"{s.key}: {bad}\n")
        with pytest.raises(ConfigError, match=s.key):
            load_config(tmp_path)


def test_usage_error_exits_2_with_one_message() -> None:
    res = run_cli(["check", "--format", "xml"], Path.cwd())
    assert res.code == 2 and res.stdout == ""
    assert "'xml' is not one of 'text', 'json', 'github', 'sarif'" in res.stderr
    assert res.stderr.startswith("Usage: markergen check") and "Traceback" not in res.stderr


def test_interrupt_exits_130(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import markergen.cli as cli

    def interrupted(args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_run_dump", interrupted)
    monkeypatch.setattr(cli, "COMMANDS", tuple(
        c if c.name != "dump" else type(c)(c.name, c.summary, c.description, c.args, interrupted)
        for c in cli.COMMANDS
    ))
    assert main(["dump"]) == 130
    assert "interrupted" in capsys.readouterr().err


def test_interrupt_wrapped_by_the_interpreter_exits_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Ctrl-C that lands while Python creates a class (at import) arrives as
    `RuntimeError: Error calling __set_name__ ...` caused by KeyboardInterrupt: still an
    interrupt (130 and its message), not an "internal error" (2). Seen under load."""
    import markergen.cli as cli

    def interrupted(args: object) -> int:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as e:
            raise RuntimeError("Error calling __set_name__ on 'Field' instance") from e

    monkeypatch.setattr(cli, "COMMANDS", tuple(
        c if c.name != "dump" else type(c)(c.name, c.summary, c.description, c.args, interrupted)
        for c in cli.COMMANDS
    ))
    assert main(["dump"]) == 130
    err = capsys.readouterr().err
    assert "interrupted" in err and "internal error" not in err


def test_interrupt_python_cannot_raise_is_still_reported_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Ctrl-C that lands in a weakref callback (the import machinery's module-lock
    clean-up, seen under load) cannot be raised: Python reports it as "Exception ignored
    in ... Traceback" and the run goes on. markergen finishes, prints its interrupt
    message instead of the traceback, and exits 130."""
    import gc

    import markergen.cli as cli

    class Callback:
        def __del__(self) -> None:
            raise KeyboardInterrupt

    def runs_to_its_end(args: object) -> int:
        Callback()  # dropped at once: its __del__ raises where nothing can catch it
        gc.collect()
        return 0

    monkeypatch.setattr(cli, "COMMANDS", tuple(
        c if c.name != "dump" else type(c)(c.name, c.summary, c.description, c.args, runs_to_its_end)
        for c in cli.COMMANDS
    ))
    hook = sys.unraisablehook
    assert main(["dump"]) == 130
    err = capsys.readouterr().err
    assert "interrupted" in err
    assert "Traceback" not in err and "Exception ignored" not in err
    assert sys.unraisablehook is hook  # restored for whatever runs next


def test_no_color_and_pipes_get_plain_text() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert use_color(Tty(), {}) is True
    assert use_color(Tty(), {"NO_COLOR": "1"}) is False
    assert use_color(Tty(), {"TERM": "dumb"}) is False
    assert use_color(io.StringIO(), {}) is False
    # FORCE_COLOR (https://force-color.org) colours a pipe too, and beats TERM=dumb;
    # NO_COLOR beats it (the order of Python's own _colorize).
    assert use_color(io.StringIO(), {"FORCE_COLOR": "1"}) is True
    assert use_color(io.StringIO(), {"FORCE_COLOR": "1", "TERM": "dumb"}) is True
    assert use_color(Tty(), {"FORCE_COLOR": "1", "NO_COLOR": "1"}) is False
    assert use_color(io.StringIO(), {"FORCE_COLOR": ""}) is False


def test_check_colours_severities_only_when_asked() -> None:
    from markergen.diagnostics import Diagnostic, Severity
    from markergen.golang.syntax import Position
    from markergen.report import render

    d = Diagnostic(Position("a.go", 1, 2), "MG205", Severity.WARNING, "m")
    assert "\x1b[" not in render([d], "text", Path.cwd())
    assert "\x1b[1;33mwarning\x1b[0m MG205" in render([d], "text", Path.cwd(), color=True)


def test_explain_is_plain_text_unless_markdown_is_asked() -> None:
    plain = run_cli(["explain", "MG205"], Path.cwd())
    md = run_cli(["explain", "MG205", "--format", "markdown"], Path.cwd())
    assert plain.code == md.code == 0
    assert md.stdout.startswith("## MG205") and "```go" in md.stdout
    assert plain.stdout.startswith("MG205: ") and "```" not in plain.stdout
    assert "**" not in plain.stdout and "    package v1" in plain.stdout


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
    assert "markergen: reading 1 package 1/1" in text and text.endswith("\r\x1b[K")




def test_the_settings_table_of_the_docs_is_the_registry() -> None:
    from helpers import REPO

    from markergen.config import settings_markdown

    doc = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    table = doc.split("<!-- settings:start -->\n")[1].split("\n<!-- settings:end -->")[0]
    assert table == settings_markdown()


def test_severity_and_warnings_as_errors_from_config_and_flag(tmp_path: Path) -> None:
    (tmp_path / "go.mod").write_text("module example.com/sev\n")
    (tmp_path / "api").mkdir()
    # MG205: a discriminator without members (info by default).
    (tmp_path / "api" / "t.go").write_text(
        "package v1\n\n// +enum\ntype K string\n\nconst (\n\tKA K = \"A\"\n)\n\n"
        "type T struct {\n\t// +unionDiscriminator\n\t// +required\n\tKind K `json:\"kind\"`\n}\n"
    )
    plain = run_cli(["check", "--format", "json"], tmp_path)
    codes = [(d["code"], d["severity"]) for d in __import__("json").loads(plain.stdout)]
    assert plain.code == 0 and ("MG205", "info") in codes
    (tmp_path / "markergen.yaml").write_text("severity:\n  mg205: warning\n")
    res = run_cli(["check", "--format", "json"], tmp_path)
    assert [d["severity"] for d in __import__("json").loads(res.stdout)] == ["warning"]
    assert run_cli(["check", "--warnings-as-errors"], tmp_path).code == 1
    (tmp_path / "markergen.yaml").write_text("severity:\n  MG205: off\nwarnings-as-errors: true\n")
    res = run_cli(["check", "--format", "json"], tmp_path)
    assert (res.code, res.stdout.strip()) == (0, "[]")
    (tmp_path / "markergen.yaml").write_text("severity:\n  MG999: off\n")
    res = run_cli(["check"], tmp_path)
    assert res.code == 2 and "MG999" in res.stderr and "Traceback" not in res.stderr


def test_mapping_settings_load_from_the_file(tmp_path: Path) -> None:
    from markergen.config import load_config

    (tmp_path / "go.mod").write_text("module example.com/m\n")
    (tmp_path / "markergen.yaml").write_text(
        "semantics:\n  kep2019: smd\nsamples:\n  include: [a/*.yaml]\nseverity:\n  MG205: off\n"
    )
    cfg = load_config(tmp_path)
    assert dict(cfg.semantics) == {"kep2019": "smd"}
    assert dict(cfg.samples) == {"include": ("a/*.yaml",)}
    assert dict(cfg.severity) == {"MG205": "off"}


def test_did_you_mean_for_a_command_and_a_flag() -> None:
    res = run_cli(["chek"], Path.cwd())
    assert res.code == 2 and res.stdout == ""
    assert res.stderr.count("Did you mean 'check'?") == 1, res.stderr
    res = run_cli(["generate", "--union-fromat", "list"], Path.cwd())
    assert res.code == 2 and "Did you mean '--union-format'?" in res.stderr, res.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["--debug", "explain", "MG205"],
        ["explain", "--debug", "MG205"],
        ["explain", "MG205", "--debug"],
        ["-q", "explain", "MG205"],
        ["explain", "MG205", "--quiet"],
    ],
)
def test_debug_and_quiet_anywhere_on_the_line(args: list[str]) -> None:
    res = run_cli(args, Path.cwd())
    assert (res.code, res.stderr) == (0, ""), res.stderr
    assert res.stdout.startswith("MG205: ")


def test_quiet_makes_a_no_op_generate_silent(module: Path) -> None:
    # (without the fixture's one warning: diagnostics are printed, --quiet or not)
    types_go = module / "api" / "types.go"
    types_go.write_text(types_go.read_text().replace("// +enum\ntype Empty string\n", ""))
    first = run_cli(["generate"], module)
    assert first.code == 0 and "markergen: wrote" in first.stderr
    again = run_cli(["generate"], module)
    # zero-config: what it read and found, then what it wrote
    assert again.stderr == (
        "markergen: read ./...: 1 package of example.com/fast (1 union, 1 enum)\n"
        "markergen: wrote nothing (4 unchanged)\n"
    )
    for args in (["generate", "--quiet"], ["--quiet", "generate"], ["generate", "-q", "--verify"]):
        res = run_cli(args, module)
        assert (res.code, res.stdout, res.stderr) == (0, "", ""), args
    # A failure still says why.
    (module / "openapi" / "unions_table.json").write_text("{}\n")
    res = run_cli(["generate", "-q", "--verify"], module)
    assert res.code == 1 and res.stderr == "markergen: 1 output is stale\n"


def test_counts_have_their_plural(module: Path) -> None:
    from markergen.report import count

    assert [count(n, "output") for n in (0, 1, 2)] == ["0 outputs", "1 output", "2 outputs"]
    assert run_cli(["generate"], module).code == 0
    for name in ("unions_table.json", "openapi-v2.json"):
        (module / "openapi" / name).write_text("{}\n")
    res = run_cli(["generate", "--verify"], module)
    assert res.code == 1 and res.stderr.endswith("markergen: 2 outputs are stale\n")


def test_check_report_is_its_result_on_stdout_and_the_summary_on_stderr(module: Path) -> None:
    # One rule for every command: what the command was asked for goes to stdout (check's
    # report, in any format), everything else (summary, progress, messages) to stderr.
    res = run_cli(["check"], module)
    assert res.code == 0
    assert "warning MG" in res.stdout and "warning MG" not in res.stderr
    assert res.stderr.startswith("markergen: read ./...: ")  # zero-config: what it read
    assert res.stderr.splitlines()[-1].startswith("0 errors, ")
    quiet = run_cli(["check", "-q"], module)
    assert (quiet.stdout, quiet.stderr) == (res.stdout, "")


def test_force_color_colours_check_in_a_pipe(module: Path) -> None:
    res = run_cli(["check"], module, env={"FORCE_COLOR": "1", "NO_COLOR": ""})
    assert "\x1b[1;33mwarning\x1b[0m MG" in res.stdout
    plain = run_cli(["check"], module, env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "\x1b[" not in plain.stdout


def test_a_closed_pipe_is_exit_0_without_a_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import markergen.cli as cli

    def reader_left(args: object) -> int:
        raise BrokenPipeError

    monkeypatch.setattr(cli, "_silence_stdout", lambda: None)  # keep pytest's stdout
    monkeypatch.setattr(cli, "COMMANDS", tuple(
        c if c.name != "dump" else type(c)(c.name, c.summary, c.description, c.args, reader_left)
        for c in cli.COMMANDS
    ))
    assert main(["dump"]) == 0
    assert capsys.readouterr().err == ""
