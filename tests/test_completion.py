"""Shell completion as a user meets it: `markergen completion SHELL` prints typer's
script, the real shell loads it, and pressing Tab asks markergen itself (with
`_MARKERGEN_COMPLETE` set) for commands, options and values: diagnostic codes, formats,
choices, `--fail-on`, and git revisions for `diff`. bash, zsh and fish are the real
shells (hack/test-tools.sh, which README's test command runs, installs zsh and fish); PowerShell's answer is checked at the protocol
its script speaks, since pwsh is not a Debian package."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import REPO, run_cli

from markergen.diagnostics import CATALOG

MG30X = [c for c in sorted(CATALOG) if c.startswith("MG30")]

# zsh completes only inside its line editor: a pseudo-terminal (zsh/zpty) runs an
# interactive zsh that loads the script, types the line and a Tab, and prints what the
# completion system offered (every compadd call) between markers (spelled with a "" in
# the input, so that the terminal's echo of the input never holds them).
ZSH_CAPTURE = r"""
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PS1='' ; PROMPT='' ; RPROMPT=''"
zpty -w z "autoload -U compinit && compinit -u -d $HOME/.zcompdump && source $1"
zpty -w z 'compadd () { local -a __hits; builtin compadd -O __hits "$@"; print -r -- "<hi""ts>${(j:|:)__hits}</hi""ts>"; }'
zpty -w -n z "$2"$'\t'
local line out
while zpty -r z line; do
  out+=$line
  [[ $out == *'</hits>'* ]] && break
done
print -r -- "$out"
zpty -d z
"""


@pytest.fixture
def shell_env(tmp_path: Path) -> dict[str, str]:
    """PATH with a `markergen` that runs this checkout with this interpreter (what the
    scripts call back), and a HOME of its own."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "markergen"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m markergen "$@"\n')
    wrapper.chmod(0o755)
    home = tmp_path / "home"
    home.mkdir()
    env = dict(os.environ, HOME=str(home), PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    env["PYTHONPATH"] = str(REPO)
    env.pop("_MARKERGEN_COMPLETE", None)
    return env


def _script(shell: str, tmp_path: Path) -> Path:
    res = run_cli(["completion", shell], REPO)
    assert res.code == 0 and res.stderr == "", res.stderr
    path = tmp_path / f"markergen.{shell}"
    path.write_text(res.stdout)
    return path


def _need(shell: str) -> None:
    if shutil.which(shell) is None:
        pytest.skip(
            f"{shell} is not installed: Debian package {shell} (hack/test-tools.sh as root)"
        )


Complete = Callable[..., list[str]]


@pytest.fixture
def bash(tmp_path: Path, shell_env: dict[str, str]) -> Complete:
    script = _script("bash", tmp_path)

    def complete(line: str, cwd: Path = tmp_path) -> list[str]:
        words = line.split(" ")
        quoted = " ".join(f"'{w}'" for w in words)
        program = (
            f"source {script}\n"
            f"COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}\n"
            "_markergen_completion markergen; printf '%s\\n' \"${COMPREPLY[@]}\"\n"
        )
        proc = subprocess.run(["bash", "-c", program], capture_output=True, text=True,
                              cwd=cwd, env=shell_env, check=True, timeout=120)  # fmt: skip
        return proc.stdout.split()

    return complete


@pytest.fixture
def zsh(tmp_path: Path, shell_env: dict[str, str]) -> Complete:
    _need("zsh")
    script = _script("zsh", tmp_path)
    capture = tmp_path / "capture.zsh"
    capture.write_text(ZSH_CAPTURE)

    def complete(line: str, cwd: Path = tmp_path) -> list[str]:
        proc = subprocess.run(["zsh", "-f", str(capture), str(script), line],
                              capture_output=True, text=True, cwd=cwd, env=shell_env,
                              check=False, timeout=120)  # fmt: skip
        hits = proc.stdout.split("<hits>")[1:] if "<hits>" in proc.stdout else []
        assert hits, (proc.stdout, proc.stderr)
        return hits[0].split("</hits>")[0].split("|")

    return complete


@pytest.fixture
def fish(tmp_path: Path, shell_env: dict[str, str]) -> Complete:
    _need("fish")
    script = _script("fish", tmp_path)

    def complete(line: str, cwd: Path = tmp_path) -> list[str]:
        program = f"source {script}; and complete -C '{line}'"
        proc = subprocess.run(["fish", "-c", program], capture_output=True, text=True,
                              cwd=cwd, env=shell_env, check=True, timeout=120)  # fmt: skip
        return [row.split("\t")[0] for row in proc.stdout.splitlines()]

    return complete


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_commands_options_and_values_complete_in_the_real_shell(
    shell: str, request: pytest.FixtureRequest
) -> None:
    complete: Complete = request.getfixturevalue(shell)
    assert complete("markergen ge") == ["generate"]
    assert "--union-format" in complete("markergen generate --un")
    assert complete("markergen generate --union-format l") == ["list"]
    assert complete("markergen explain MG30") == MG30X
    # (fish sorts what it offers)
    assert sorted(complete("markergen check --format ")) == ["github", "json", "sarif", "text"]
    assert complete("markergen diff --fail-on b") == ["breaking", "breaking-any-stage"]
    # an option given before the value changes nothing (the command is still found)
    assert complete("markergen --quiet explain MG30") == MG30X


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_diff_completes_git_revisions(
    shell: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    complete: Complete = request.getfixturevalue(shell)
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c",
           "init.defaultBranch=main"]  # fmt: skip
    for args in (["init", "-q"], ["commit", "-q", "--allow-empty", "-m", "x"],
                 ["branch", "feature-union"], ["tag", "v1.2.0"]):  # fmt: skip
        subprocess.run([*git, *args], cwd=repo, check=True, capture_output=True, timeout=60)
    assert complete("markergen diff feat", repo) == ["feature-union"]
    assert complete("markergen diff v1", repo) == ["v1.2.0"]
    assert complete("markergen diff main v", repo) == ["v1.2.0"]


def test_zsh_script_registers_itself_with_compinit(
    tmp_path: Path, shell_env: dict[str, str]
) -> None:
    # What a user's ~/.zshrc does: compinit, then the script (or the file on $fpath).
    _need("zsh")
    script = _script("zsh", tmp_path)
    assert script.read_text().startswith("#compdef markergen\n")
    proc = subprocess.run(
        ["zsh", "-c", f"autoload -U compinit && compinit -u && source {script} && "
         "print ${_comps[markergen]}"],
        capture_output=True, text=True, env=shell_env, timeout=60, check=False,
    )  # fmt: skip
    assert (proc.returncode, proc.stdout.strip(), proc.stderr) == (0, "_markergen_completion", "")


@pytest.mark.parametrize("shell", ["powershell", "pwsh"])
def test_powershell_answers_its_scripts_protocol(shell: str, shell_env: dict[str, str]) -> None:
    script = run_cli(["completion", shell], REPO).stdout
    assert "Register-ArgumentCompleter -Native -CommandName markergen" in script
    env = dict(shell_env, _MARKERGEN_COMPLETE="complete_powershell",
               _TYPER_COMPLETE_ARGS="markergen explain MG30",
               _TYPER_COMPLETE_WORD_TO_COMPLETE="MG30")  # fmt: skip
    proc = subprocess.run([sys.executable, "-m", "markergen"], capture_output=True, text=True,
                          env=env, timeout=120, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    rows = proc.stdout.splitlines()
    assert [r.split(":::")[0] for r in rows] == MG30X
    assert rows[0] == f"MG301:::{CATALOG['MG301'].title}"


def test_unknown_shell_is_a_usage_error() -> None:
    res = run_cli(["completion", "tcsh"], REPO)
    assert res.code == 2 and res.stdout == ""
    assert "'tcsh' is not one of" in res.stderr and "Traceback" not in res.stderr


def _install_lines() -> dict[str, str]:
    """`markergen completion --help`'s install text: the shell command of each shell, and
    the line it says to add to the shell's start-up file (as `cmd, and in FILE: line`)."""
    res = run_cli(["completion", "--help"], REPO)
    text = res.stdout.split("Install (then start a new shell):", 1)[1]
    rows: dict[str, str] = {}
    shell = ""
    for line in text.splitlines():
        words = line.split(None, 1)
        if len(words) == 2 and words[0] in ("bash", "zsh", "fish", "pwsh"):
            shell = words[0]
            rows[shell] = words[1]
        elif shell and line.strip():
            rows[shell] += "\n" + line.strip()
    return rows


def test_the_bash_install_line_works_in_a_new_home(
    tmp_path: Path, shell_env: dict[str, str]
) -> None:
    # A fresh HOME with no ~/.local/share and no bash-completion package in play: the
    # line as written, then a new interactive bash completes markergen's commands.
    command, _, rest = _install_lines()["bash"].partition(", and in ~/.bashrc:\n")
    home = Path(shell_env["HOME"])
    subprocess.run(["bash", "-c", command], env=shell_env, check=True, timeout=120)
    (home / ".bashrc").write_text(rest.strip() + "\n")
    program = ("COMP_WORDS=(markergen ge); COMP_CWORD=1\n"
               "_markergen_completion markergen; printf '%s\\n' \"${COMPREPLY[@]}\"")  # fmt: skip
    proc = subprocess.run(["bash", "-i", "-c", program], capture_output=True, text=True,
                          cwd=tmp_path, env=shell_env, check=False, timeout=120)  # fmt: skip
    assert proc.stdout.split() == ["generate"], proc.stderr


def test_the_fish_install_line_works_in_a_new_home(
    tmp_path: Path, shell_env: dict[str, str]
) -> None:
    _need("fish")
    env = {k: v for k, v in shell_env.items() if not k.startswith("XDG_")}
    line = _install_lines()["fish"]
    assert not (Path(env["HOME"]) / ".config").exists()
    subprocess.run(["fish", "-c", line], env=env, check=True, timeout=120)
    # fish loads ~/.config/fish/completions/markergen.fish by itself when asked.
    proc = subprocess.run(["fish", "-c", "complete -C 'markergen ge'"], capture_output=True,
                          text=True, cwd=tmp_path, env=env, check=True, timeout=120)  # fmt: skip
    assert [row.split("\t")[0] for row in proc.stdout.splitlines()] == ["generate"]
