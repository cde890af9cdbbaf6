"""API packages in modules nested below the root (`api/go.mod`): `./...` stops at a
directory with its own go.mod, as the go command does, so zero-config runs name them
(`nested_api_patterns`, used by the configuration's defaults)."""

from __future__ import annotations

from pathlib import Path

from helpers import run_cli

from markergen.config import load_config
from markergen.golang.packages import nested_api_patterns

GROUP = "// +groupName=example.com\npackage v1\n"


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_an_api_module_is_read_whole_and_other_modules_by_their_api_directories(
    tmp_path: Path,
) -> None:
    _tree(
        tmp_path,
        {
            "go.mod": "module example.com/root\n",
            "api/go.mod": "module example.com/root/api\n",
            "api/core/v1/doc.go": GROUP,
            "api/ipam/v1/doc.go": GROUP,
            "test/go.mod": "module example.com/root/test\n",
            "test/infra/docker/api/v1/doc.go": GROUP,
            "test/infra/docker/api/v2/doc.go": GROUP,
            "test/e2e/e2e.go": "package e2e\n",
            "hack/tools/go.mod": "module example.com/root/tools\n",  # no API: not read
            "hack/tools/tools.go": "package tools\n",
            "vendor/x.io/api/go.mod": "module x.io/api\n",
            "vendor/x.io/api/v1/doc.go": GROUP,
            "testdata/mod/go.mod": "module t\n",
            "testdata/mod/v1/doc.go": GROUP,
        },
    )
    assert nested_api_patterns(tmp_path) == ("./api/...", "./test/infra/docker/api/...")


def test_a_group_name_past_the_package_comment_or_in_a_test_file_does_not_count(
    tmp_path: Path,
) -> None:
    _tree(
        tmp_path,
        {
            "go.mod": "module example.com/root\n",
            "sub/go.mod": "module example.com/root/sub\n",
            "sub/v1/doc_test.go": GROUP,
            "sub/v1/types.go": "package v1\n\n// see +groupName= in the docs\n",
        },
    )
    assert nested_api_patterns(tmp_path) == ()


def test_zero_config_inputs_are_the_api_packages_of_the_nested_modules(tmp_path: Path) -> None:
    """The packages the API types reach (issue 39): the root module's own packages
    declare no group and are imported by none of them, so they are not read."""
    root = _tree(
        tmp_path / "repo",
        {
            "go.mod": "module example.com/root\n",
            "main.go": "package main\n",
            "api/go.mod": "module example.com/root/api\n",
            "api/v1/doc.go": GROUP,
        },
    )
    assert load_config(root).inputs == ("./api/v1",)
    # a repository whose only module sits below it: the same
    (root / "go.mod").unlink()
    assert load_config(root).inputs == ("./api/v1",)
    # markergen.yaml's inputs replace the default
    (root / "markergen.yaml").write_text("inputs: [./api/v1]\n", encoding="utf-8")
    assert load_config(root).inputs == ("./api/v1",)


def test_a_kubebuilder_project_keeps_its_api_default(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "go.mod": "module example.com/root\n",
            "PROJECT": "domain: example.com\n",
            "api/go.mod": "module example.com/root/api\n",
            "api/v1/doc.go": GROUP,
            "other/go.mod": "module example.com/root/other\n",
            "other/v1/doc.go": GROUP,
        },
    )
    assert load_config(root).inputs == ("./api/...",)


def test_in_a_workspace_dot_dot_dot_reaches_the_modules_go_work_uses(tmp_path: Path) -> None:
    """The go command's rule: with a go.work that uses ./api, `./...` at the root matches
    the packages of api/ too, so zero-config needs no extra pattern for it."""
    from markergen.golang.packages import load_packages

    root = _tree(
        tmp_path,
        {
            "go.mod": "module example.com/root\n",
            "main.go": "package main\n",
            "api/go.mod": "module example.com/root/api\n",
            "api/v1/doc.go": GROUP,
            "tools/go.mod": "module example.com/root/tools\n",
            "tools/tools.go": "package tools\n",
        },
    )
    without = {p.import_path for p in load_packages(["./..."], root).packages}
    assert without == {"example.com/root"}
    (root / "go.work").write_text("go 1.22\n\nuse (\n\t.\n\t./api\n)\n", encoding="utf-8")
    within = {p.import_path for p in load_packages(["./..."], root).packages}
    assert within == {"example.com/root", "example.com/root/api/v1"}
    assert nested_api_patterns(root) == ()
    # zero-config reads the API package alone, workspace or not
    assert load_config(root).inputs == ("./api/v1",)


UNION_GO = """package v1

type Mode string

const (
	ModeA Mode = "A"
	ModeB Mode = "B"
)

// +union
type Source struct {
	// +unionDiscriminator
	// +kubebuilder:validation:Enum=A;B
	Type Mode `json:"type"`
	// +optional
	A *string `json:"a,omitempty"`
	// +optional
	B *string `json:"b,omitempty"`
}
"""


def _nested_repo(root: Path) -> Path:
    return _tree(
        root,
        {
            "go.mod": "module example.com/root\n\ngo 1.24\n",
            "cmd/main.go": "package main\n\nfunc main() {}\n",
            "api/go.mod": "module example.com/root/api\n\ngo 1.24\n",
            "api/v1/doc.go": GROUP,
            "api/v1/types.go": UNION_GO,
            "api/v2/doc.go": GROUP,
            # an API package of the root module too, with an enum
            "apis/legacy/v1/doc.go": GROUP + "\n// +enum\ntype Level string\n\n"
            'const (\n\tLow Level = "Low"\n\tHigh Level = "High"\n)\n',
        },
    )


# each module read, with the unions and enums declared there (issue 39); cmd/ is not
# read: no API type reaches it
READ = (
    "markergen: read ./api/v1, ./api/v2 and ./apis/legacy/v1: 1 package of example.com/root "
    "(0 unions, 1 enum), 2 of example.com/root/api (1 union, 0 enums); found 1 union and "
    "1 enum\n"
)


def test_a_zero_config_run_says_which_modules_it_read_and_what_it_found(
    tmp_path: Path,
) -> None:
    """check, generate and dump, cold and from the cache: one line on stderr naming the
    patterns markergen picked, the packages of each module, and the unions and enums;
    stdout is the result alone."""
    root = _nested_repo(tmp_path / "repo")
    for args in (["check"], ["check"], ["generate"], ["generate"], ["dump"], ["dump"]):
        run = run_cli(args, root)
        assert run.code == 0, run.stderr
        assert run.stderr.startswith(READ), (args, run.stderr)
        assert "markergen: read" not in run.stdout
    # the second run of each was served from the cache: same line
    assert (root / ".markergen-cache").is_dir()


def test_no_line_when_the_inputs_are_named_or_quiet(tmp_path: Path) -> None:
    root = _nested_repo(tmp_path / "repo")
    assert "markergen: read" not in run_cli(["check", "./..."], root).stderr
    assert "markergen: read" not in run_cli(["check", "-q"], root).stderr
    assert "markergen: read" not in run_cli(["generate", "--quiet"], root).stderr
    (root / "markergen.yaml").write_text("inputs: [./api/...]\n", encoding="utf-8")
    assert "markergen: read" not in run_cli(["check", "--no-cache"], root).stderr


def test_a_run_that_found_nothing_says_how_to_name_the_api(tmp_path: Path) -> None:
    root = _tree(
        tmp_path / "repo",
        {
            "go.mod": "module example.com/tool\n\ngo 1.24\n",
            "main.go": 'package main\n\ntype Options struct {\n\tName string `json:"name"`\n}\n',
        },
    )
    run = run_cli(["generate", "--no-cache"], root)
    assert run.code == 0
    (line,) = [s for s in run.stderr.splitlines() if s.startswith("markergen: read")]
    assert line.startswith(
        "markergen: read ./...: 1 package of example.com/tool (0 unions, 0 enums); "
    )
    assert "no union or enum marker there" in line and "`inputs`" in line
