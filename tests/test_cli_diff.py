"""`markergen diff` through the command line, on a real git repository."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from helpers import TESTDATA, run_cli

DIFF = TESTDATA / "diff"


def git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def test_breaking_change_against_a_revision_fails_the_check(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(DIFF / "base", repo)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    # The working tree gets the version that renames members.
    heads = sorted(p.name for p in (DIFF / "heads").iterdir())
    assert "member-renamed" in heads, heads
    shutil.rmtree(repo / "api")
    shutil.copytree(DIFF / "heads" / "member-renamed" / "api", repo / "api")

    res = run_cli(["diff", "HEAD", "--format", "json", "--fail-on", "breaking"], repo)
    assert res.code == 1, res.stderr
    report = json.loads(res.stdout)
    assert report["breaking"] >= 1
    assert any(c["kind"] == "member-renamed" for c in report["changes"])

    res = run_cli(["diff", "HEAD", "--format", "markdown"], repo)
    assert res.code == 0  # no --fail-on: the report alone
    assert res.stdout.splitlines()[0].startswith("**markergen**")
    assert "| " in res.stdout


def test_unknown_revision_is_exit_2_naming_the_side(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(DIFF / "base", repo)
    git(repo, "init", "-q")
    res = run_cli(["diff", "no-such-rev"], repo)
    assert res.code == 2
    assert "no-such-rev" in res.stderr and "Traceback" not in res.stderr


def test_bad_options_are_usage_errors(tmp_path: Path) -> None:
    res = run_cli(["diff", ".", ".", "--fail-on", "sometimes"], tmp_path)
    assert res.code == 2 and "sometimes" in res.stderr


def _repo_with_head(tmp_path: Path, head: str) -> Path:
    repo = tmp_path / "repo"
    shutil.copytree(DIFF / "base", repo)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    shutil.rmtree(repo / "api")
    shutil.copytree(DIFF / "heads" / head / "api", repo / "api")
    return repo


def test_patterns_after_base_narrow_both_sides(tmp_path: Path) -> None:
    repo = _repo_with_head(tmp_path, "member-renamed")
    # `./api/...` is a pattern (it has `...`), not HEAD: the working tree is the head.
    res = run_cli(["diff", "HEAD", "./api/...", "--format", "json"], repo)
    assert res.code == 0, res.stderr
    assert any(c["kind"] == "member-renamed" for c in json.loads(res.stdout)["changes"])
    # A pattern naming nothing on either side is an error, not an empty report.
    res = run_cli(["diff", "HEAD", "./nothing/...", "--format", "json"], repo)
    assert res.code == 2 and "nothing" in res.stderr


def test_github_format_and_breaking_any_stage_through_the_cli(tmp_path: Path) -> None:
    repo = _repo_with_head(tmp_path, "member-renamed")
    res = run_cli(["diff", "HEAD", "--format", "github", "--fail-on", "breaking-any-stage"], repo)
    assert res.code == 1, res.stderr
    lines = res.stdout.splitlines()
    assert any(line.startswith(("::error file=", "::warning file=")) for line in lines), lines
    # Workflow commands, then one summary line for the log.
    assert all(line.startswith("::") for line in lines[:-1]), lines
    assert "breaking" in lines[-1]


REPORT_J2 = """{#- a project's own PR comment: one line per change, under its own heading -#}
## API review
{{ summary }}
{% for section in sections %}
{% for group in section.groups %}
{% for row in group.rows %}
- {{ section.title }}: {{ row.kind }} {{ row.field }} ({{ row.location }})
{% endfor %}
{% endfor %}
{% endfor %}
{{ comment_tag }}
"""


def test_a_project_template_replaces_the_markdown_report(tmp_path: Path) -> None:
    """The `templates` setting names the project's templates for `diff` too: its
    diff-report.md.j2 renders `--format markdown` (the other formats do not change), and
    `generate` does not take it for an output of its own."""
    repo = _repo_with_head(tmp_path, "member-renamed")
    builtin = run_cli(["diff", "HEAD", "--format", "markdown"], repo)
    assert builtin.stdout.startswith("**markergen**")
    text = run_cli(["diff", "HEAD"], repo).stdout

    (repo / "hack" / "templates").mkdir(parents=True)
    (repo / "hack" / "templates" / "diff-report.md.j2").write_text(REPORT_J2, encoding="utf-8")
    (repo / "markergen.yaml").write_text("templates: hack/templates\n", encoding="utf-8")
    own = run_cli(["diff", "HEAD", "--format", "markdown"], repo)
    assert own.code == 0, own.stderr
    lines = own.stdout.splitlines()
    assert lines[0] == "## API review"
    assert lines[1] == builtin.stdout.splitlines()[0].removeprefix("**markergen**: ")
    changes = [line for line in lines if line.startswith("- ")]
    assert changes and any("member-renamed" in line for line in changes)
    assert all(line.startswith("- Breaking: ") or line.startswith("- Compatible: ") for line in changes)
    assert lines[-1] == "<!-- markergen-diff -->"
    assert run_cli(["diff", "HEAD"], repo).stdout == text  # text is no template's

    generate = run_cli(["generate"], repo)
    assert generate.code == 0, generate.stderr
    assert not (repo / "openapi" / "diff-report.md").exists()

    # a templates directory that does not exist is an error, as for generate
    (repo / "markergen.yaml").write_text("templates: hack/no-templates\n", encoding="utf-8")
    missing = run_cli(["diff", "HEAD", "--format", "markdown"], repo)
    assert missing.code == 2 and missing.stderr.count("\n") == 1, missing.stderr
    assert "hack/no-templates: template error: the templates directory does not exist" in (
        missing.stderr
    )
    assert run_cli(["diff", "HEAD", "--format", "json"], repo).code == 0  # not read there
    (repo / "markergen.yaml").write_text("templates: hack/templates\n", encoding="utf-8")
    # a broken project template: one line with its file and line, exit 2
    (repo / "hack" / "templates" / "diff-report.md.j2").write_text(
        "{{ summary }}\n{{ no_such_name }}\n", encoding="utf-8"
    )
    broken = run_cli(["diff", "HEAD", "--format", "markdown"], repo)
    assert broken.code == 2 and broken.stdout == ""
    assert broken.stderr == (
        "markergen: error: hack/templates/diff-report.md.j2:2: template error: "
        "'no_such_name' is undefined\n"
    )


def test_the_templates_flag_of_diff_overrides_the_setting(tmp_path: Path) -> None:
    """`diff --templates DIR` is the `templates` setting as a flag, as for generate: it
    wins over markergen.yaml's value, and names the directory without any file."""
    repo = _repo_with_head(tmp_path, "member-renamed")
    (repo / "review").mkdir()
    (repo / "review" / "diff-report.md.j2").write_text(REPORT_J2, encoding="utf-8")
    flag = run_cli(["diff", "HEAD", "--format", "markdown", "--templates", "review"], repo)
    assert flag.code == 0, flag.stderr
    assert flag.stdout.splitlines()[0] == "## API review"
    (repo / "markergen.yaml").write_text("templates: hack/no-templates\n", encoding="utf-8")
    both = run_cli(["diff", "HEAD", "--format", "markdown", "--templates", "review"], repo)
    assert both.code == 0 and both.stdout == flag.stdout, both.stderr
    setting = run_cli(["diff", "HEAD", "--format", "markdown"], repo)
    assert setting.code == 2 and "hack/no-templates" in setting.stderr


def test_two_directories_of_crds_are_base_and_head(tmp_path: Path) -> None:
    """`diff DIR DIR` with two folders of CRDs (no go.mod in either): the second folder
    is the head side, not a package pattern of the working tree."""
    crd = (DIFF / "crd" / "example.com_widgets.yaml").read_text()
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    (tmp_path / "old" / "widgets.yaml").write_text(crd)
    assert "                - Large\n" in crd
    (tmp_path / "new" / "widgets.yaml").write_text(crd.replace("                - Large\n", ""))
    res = run_cli(["diff", "old", "new", "--format", "json", "--fail-on", "breaking"], tmp_path)
    assert res.code == 1, res.stderr
    report = json.loads(res.stdout)
    assert [(c["kind"], c["crd"]["file"]) for c in report["changes"]] == [
        ("enum-value-removed", "new/widgets.yaml")
    ]
    # the same with explicit relative paths
    res = run_cli(["diff", "./old", "./new", "--format", "json"], tmp_path)
    assert res.code == 0, res.stderr
    assert json.loads(res.stdout)["breaking"] == 1
