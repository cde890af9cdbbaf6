"""Where each change is: Go source positions in every format, the markdown grouping of
one change repeated across versions, GitHub annotations, and package patterns."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from test_diff_rules import PAYMENT, PRIORITY, module, src

from markergen.diff import Change, DiffInputError, run_diff
from markergen.diff.render import render

CASH = '\t// +unionMember\n\t// +optional\n\tCash *Cash `json:"cash,omitempty"`\n'
VERSIONS = ("v1", "v1beta1", "v1beta2", "v1alpha1", "v1alpha2", "v1alpha3", "v2")


def versions(root: Path, body: str, names: tuple[str, ...] = VERSIONS) -> Path:
    return module(root, {f"api/{v}/types.go": src(body, v) for v in names})


def test_every_format_names_file_line_go_names_and_definition(tmp_path: Path) -> None:
    base = module(tmp_path / "base", {"api/v1/types.go": src(PAYMENT)})
    head = module(tmp_path / "head", {"api/v1/types.go": src(PAYMENT.replace(CASH, ""))})
    doc = json.loads(run_diff(str(base), str(head), tmp_path, "json").text)
    (change,) = doc["changes"]
    # Removed: only the BASE side has the field.
    assert change["file"] == "base/api/v1/types.go"
    line = (tmp_path / change["file"]).read_text().splitlines()[change["line"] - 1]
    assert 'Cash *Cash `json:"cash,omitempty"`' in line
    assert (change["go_type"], change["go_field"]) == ("Payment", "Cash")
    assert change["type"] == "com.example.shop.api.v1.Payment"
    where = f"base/api/v1/types.go:{change['line']}"
    text = run_diff(str(base), str(head), tmp_path, "text").text
    assert text.startswith(
        f"{where} (base): breaking: com.example.shop.api.v1.Payment.cash (Payment.Cash)"
    )
    markdown = run_diff(str(base), str(head), tmp_path, "markdown").text
    assert f"`{where} (base)`" in markdown and "`cash` (Cash)" in markdown
    assert "OpenAPI: `com.example.shop.api.v1.Payment`" in markdown
    github = run_diff(str(base), str(head), tmp_path, "github").text
    # A removal: GitHub annotates head lines only, so it goes on the type in the head.
    head_line = next(
        n
        for n, text in enumerate((head / "api/v1/types.go").read_text().splitlines(), 1)
        if text.startswith("type Payment struct")
    )
    assert github.startswith(f"::error file=head/api/v1/types.go,line={head_line},")


def test_head_side_position_wins(tmp_path: Path) -> None:
    # The member stays, so its HEAD line is reported, even though the line moved.
    base = module(tmp_path / "base", {"api/v1/types.go": src(PAYMENT)})
    moved = "\n\n\n" + PAYMENT.replace(
        "\t// +unionMember\n\t// +optional\n\tCash",
        "\t// +unionMember=Cash,optional\n\t// +optional\n\tCash",
    )
    head = module(tmp_path / "head", {"api/v1/types.go": src(moved)})
    (change,) = run_diff(str(base), str(head), tmp_path, "json").changes
    assert change.kind == "member-required-to-optional"
    assert change.file == "head/api/v1/types.go"
    lines = (tmp_path / change.file).read_text().splitlines()
    assert 'json:"cash,omitempty"' in lines[change.line - 1]


def test_markdown_merges_one_change_across_versions_into_one_row(tmp_path: Path) -> None:
    base = versions(tmp_path / "base", PAYMENT)
    head = versions(tmp_path / "head", PAYMENT.replace(CASH, ""))
    result = run_diff(str(base), str(head), tmp_path, "markdown")
    assert result.breaking == len(VERSIONS)
    rows = [r for r in result.text.splitlines() if r.startswith("| :x:")]
    assert len(rows) == 1
    # GA versions first, then beta, then alpha, each labelled with its stage.
    assert (
        "| v1, v2, v1beta1 (beta), v1beta2 (beta), v1alpha1 (alpha), v1alpha2 (alpha), v1alpha3 (alpha) |"
        in rows[0]
    )
    assert "`base/api/v1/types.go:" in rows[0] and "and 6 more" in rows[0]
    assert result.text.count("#### `Payment (example.com/shop/api)`") == 1
    assert "`com.example.shop.api.v1alpha3.Payment`, `com.example.shop.api.v1beta1.Payment`" in (
        result.text
    )


def test_markdown_of_a_hundred_changes_stays_short(tmp_path: Path) -> None:
    # 7 versions x (1 member removed + 14 enum values added) = 105 changes, 2 rows.
    values = "".join(f'\tPriorityP{i} Priority = "P{i}"\n' for i in range(14))
    enum_priority = PRIORITY.replace("type Priority string", "// +enum\ntype Priority string")
    base = versions(tmp_path / "base", PAYMENT + enum_priority)
    head = versions(
        tmp_path / "head",
        PAYMENT.replace(CASH, "") + enum_priority.replace('"High"\n', '"High"\n' + values),
    )
    result = run_diff(str(base), str(head), tmp_path, "markdown")
    assert len(result.changes) == 105
    rows = [r for r in result.text.splitlines() if r.startswith("| :")]
    assert len(rows) == 15  # one per distinct change, whatever the number of versions
    assert "<details><summary>Compatible (98)</summary>" in result.text


def test_github_annotations_escape_and_levels() -> None:
    c = Change(
        "breaking",
        "member-removed",
        "T",
        "f",
        "50% off,\nnow",
        go_type="T",
        go_field="F",
        file="a,b:c.go",
        line=7,
    )
    alpha = Change("breaking", "member-removed", "T", "f", "m", stage="alpha", file="x.go", line=1)
    ok = Change("compatible", "member-added", "T", "f", "m", file="x.go", line=2)
    unknown = Change("not-compared", "marker-not-compared", "T", "f", "m", file="x.go", line=3)
    lines = render([c, alpha, ok, unknown], "github").splitlines()
    assert lines[0] == (
        "::error file=a%2Cb%3Ac.go,line=7,title=markergen diff%3A breaking member-removed"
        "::T.F (T.f): 50%25 off,%0Anow"
    )
    assert lines[1].startswith("::warning file=x.go,line=1,") and "[alpha]" in lines[1]
    assert lines[2].startswith("::notice file=x.go,line=2,")
    assert lines[3].startswith("::warning file=x.go,line=3,")
    assert lines[4].startswith(
        "2 breaking (1 at GA, ungated), 1 compatible changes, 1 not compared"
    )


def test_documents_have_no_file_and_say_so_in_json(tmp_path: Path) -> None:
    doc = {
        "swagger": "2.0",
        "definitions": {"a.v1.T": {"properties": {"p": {"type": "string", "enum": ["x", "y"]}}}},
    }
    after = {
        "swagger": "2.0",
        "definitions": {"a.v1.T": {"properties": {"p": {"type": "string", "enum": ["x"]}}}},
    }
    (tmp_path / "a.json").write_text(json.dumps(doc))
    (tmp_path / "b.json").write_text(json.dumps(after))
    out = json.loads(run_diff("a.json", "b.json", tmp_path, "json").text)
    (change,) = out["changes"]
    assert (change["file"], change["line"], change["go_type"]) == (None, None, "T")
    assert (
        change["message"]
        == '"p" no longer accepts "y": stored objects and clients that use it fail validation'
    )


# Patterns


def two_groups(root: Path, with_shipping: bool = True) -> Path:
    files = {"api/pay/v1/types.go": src(PAYMENT)}
    if with_shipping:
        files["api/ship/v1/types.go"] = src(
            PRIORITY.replace("type Priority string", "// +enum\ntype Priority string")
        )
    return module(root, files)


def test_patterns_narrow_both_sides(tmp_path: Path) -> None:
    base = two_groups(tmp_path / "base")
    head = module(
        tmp_path / "head",
        {
            "api/pay/v1/types.go": src(PAYMENT.replace(CASH, "")),
            "api/ship/v1/types.go": src(PRIORITY),
        },
    )
    everything = run_diff(str(base), str(head), tmp_path, "json")
    assert {c.kind for c in everything.changes} == {"member-removed", "enum-removed"}
    pay = run_diff(str(base), str(head), tmp_path, "json", patterns=["./api/pay/..."])
    assert [c.kind for c in pay.changes] == ["member-removed"]


def test_pattern_missing_on_one_side_is_an_addition_or_removal(tmp_path: Path) -> None:
    base = two_groups(tmp_path / "base", with_shipping=False)
    head = two_groups(tmp_path / "head")
    added = run_diff(str(base), str(head), tmp_path, "json", patterns=["./api/ship/..."])
    assert [(c.classification, c.kind) for c in added.changes] == [("compatible", "package-added")]
    removed = run_diff(str(head), str(base), tmp_path, "json", patterns=["./api/ship/..."])
    (change,) = removed.changes
    assert (change.classification, change.kind) == ("breaking", "package-removed")
    assert change.message.endswith("1 type(s) that carry unions or enums: Order")
    assert (change.type, change.package) == (
        "com.example.shop.api.ship.v1",
        "example.com/shop/api/ship/v1",
    )
    assert change.file == "head/api/ship/v1/types.go"


def test_pattern_missing_on_both_sides_is_an_error(tmp_path: Path) -> None:
    base = two_groups(tmp_path / "base")
    with pytest.raises(DiffInputError, match="name no Go package on either side"):
        run_diff(str(base), str(base), tmp_path, "json", patterns=["./api/typo/..."])


def git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def test_patterns_on_revisions_and_a_directory_new_in_head(tmp_path: Path) -> None:
    repo = two_groups(tmp_path / "repo", with_shipping=False)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "v1")
    git(repo, "tag", "v0.1.0")
    shutil.copytree(two_groups(tmp_path / "next") / "api" / "ship", repo / "api" / "ship")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "ship")
    result = run_diff("v0.1.0", "HEAD", repo, "json", patterns=["./api/ship/..."])
    (change,) = result.changes
    assert (change.kind, change.file) == ("package-added", "api/ship/v1/types.go")
    # Run from a sub-directory that only HEAD has: the BASE side is empty, not an error.
    sub = repo / "api" / "ship"
    result = run_diff("v0.1.0", "HEAD", sub, "json", patterns=["./..."])
    assert [c.kind for c in result.changes] == ["package-added"]
    assert result.changes[0].file == "api/ship/v1/types.go"  # from the repository's top


def test_github_paths_are_from_the_repository_root(tmp_path: Path) -> None:
    # A kubebuilder project in a sub-directory of its repository, run from there.
    repo = tmp_path / "repo"
    project = module(repo / "operator", {"api/v1/types.go": src(PAYMENT)})
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "v1")
    (project / "api" / "v1" / "types.go").write_text(src(PAYMENT.replace(CASH, "")))
    result = run_diff("HEAD", None, project, "github")
    assert result.changes[0].file == "operator/api/v1/types.go"  # from the repository's top
    assert result.text.startswith("::error file=operator/api/v1/types.go,line=")
