"""`markergen diff` with a CRD file it cannot read, on either side, through the command
line on real files: a clear error naming the side, the file, line and column (exit 2, as
an unknown revision or a malformed JSON document), never a report that lists the file's
versions as removed (or added)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from helpers import Result, run_cli

DATA = Path(__file__).parent.parent / "testdata" / "diff"
CRD = DATA / "crd" / "example.com_widgets.yaml"
PROJECT = DATA / "crdproject"
CRD_IN_PROJECT = "config/crd/bases/example.com_widgets.yaml"
# a line of the CRD made into YAML that does not parse (a second `:` after a key)
GOOD_LINE = "  scope: Namespaced\n"
BAD_LINE = "  scope: Namespaced: [\n"


def _bad_yaml(text: str) -> str:
    assert text.count(GOOD_LINE) == 1
    return text.replace(GOOD_LINE, BAD_LINE)


def _yaml_mark(text: str) -> str:
    """Where PyYAML, a reader independent of markergen's, says the text breaks."""
    with pytest.raises(yaml.MarkedYAMLError) as err:
        list(yaml.safe_load_all(text))
    mark = err.value.problem_mark
    assert mark is not None
    return f"{mark.line + 1}:{mark.column + 1}"


def _versions_not_a_list(text: str) -> tuple[str, str]:
    """The CRD with spec.versions a mapping (its first version), and where that starts."""
    doc = yaml.safe_load(text)
    doc["spec"]["versions"] = doc["spec"]["versions"][0]
    out = yaml.safe_dump(doc, sort_keys=False)
    node = yaml.compose(out)
    spec = next(v for k, v in node.value if k.value == "spec")
    versions = next(v for k, v in spec.value if k.value == "versions")
    return out, f"{versions.start_mark.line + 1}:{versions.start_mark.column + 1}"


def _v1beta1(text: str) -> tuple[str, str]:
    """The CRD as apiextensions.k8s.io/v1beta1, which the server no longer serves, and
    where its apiVersion's value starts."""
    old = "apiVersion: apiextensions.k8s.io/v1\n"
    assert text.count(old) == 1
    out = text.replace(old, "apiVersion: apiextensions.k8s.io/v1beta1\n")
    node = yaml.compose(out)
    api = next(v for k, v in node.value if k.value == "apiVersion")
    return out, f"{api.start_mark.line + 1}:{api.start_mark.column + 1}"


CONFIG_MAP = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: widgets\n"


def _bad_files(good: str) -> list[tuple[str, str, str]]:
    """(name, text, what the message says after `FILE:`) of each unreadable kind."""
    not_a_list, at = _versions_not_a_list(good)
    beta, beta_at = _v1beta1(good)
    bad = _bad_yaml(good)
    return [
        (
            "v1beta1",
            beta,
            f"{beta_at}: a CustomResourceDefinition of 'apiextensions.k8s.io/v1beta1'",
        ),
        ("yaml", bad, f"{_yaml_mark(bad)}: not valid YAML: "),
        ("versions", not_a_list, f"{at}: spec.versions: expected a list of versions"),
        ("configmap", CONFIG_MAP, "1:1: a ConfigMap document, not a CustomResourceDefinition"),
    ]


def _one_error_line(res: Result, side: str, spec: str, file: str, says: str) -> None:
    assert res.code == 2, (res.stdout, res.stderr)
    assert res.stdout == "", "no report: nothing is listed as removed or added"
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr, res.stderr
    prefix = f"markergen: error: {side} {spec!r}: {file}:{says}"
    assert res.stderr.startswith(prefix), (prefix, res.stderr)


@pytest.mark.parametrize("which", ["yaml", "versions", "v1beta1", "configmap"])
def test_an_unreadable_crd_file_on_either_side_is_an_error(tmp_path: Path, which: str) -> None:
    good = CRD.read_text(encoding="utf-8")
    _name, text, says = next(b for b in _bad_files(good) if b[0] == which)
    (tmp_path / "good.yaml").write_text(good, encoding="utf-8")
    (tmp_path / "bad.yaml").write_text(text, encoding="utf-8")
    # the same pair of readable files is a report (exit 0): the error is the file's
    assert run_cli(["diff", "good.yaml", "good.yaml"], tmp_path).code == 0
    head = run_cli(["diff", "good.yaml", "bad.yaml"], tmp_path)
    _one_error_line(head, "head", "bad.yaml", "bad.yaml", says)
    base = run_cli(["diff", "bad.yaml", "good.yaml", "--fail-on", "none"], tmp_path)
    _one_error_line(base, "base", "bad.yaml", "bad.yaml", says)


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "widgets"
    shutil.copytree(PROJECT, root)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "base")
    return root


@pytest.mark.parametrize("which", ["yaml", "versions"])
def test_an_unreadable_crd_of_a_kubebuilder_project_is_an_error(tmp_path: Path, which: str) -> None:
    """The project's CRD broken in the working tree (the head) and, committed, in the
    base revision: each is an error at its place, never its versions removed or added."""
    root = _project(tmp_path)
    crd = root / CRD_IN_PROJECT
    good = crd.read_text(encoding="utf-8")
    _name, text, says = next(b for b in _bad_files(good) if b[0] == which)
    ok = run_cli(["diff", "HEAD"], root)
    assert ok.code == 0 and "no changes" in ok.stdout, ok.stdout + ok.stderr

    crd.write_text(text, encoding="utf-8")
    head = run_cli(["diff", "HEAD"], root)
    _one_error_line(head, "head", "working tree", CRD_IN_PROJECT, says)
    assert "fix " in head.stderr

    _git(root, "commit", "-qam", "broken")
    crd.write_text(good, encoding="utf-8")
    base = run_cli(["diff", "HEAD", "--no-cache"], root)
    _one_error_line(base, "base", "HEAD", CRD_IN_PROJECT, says)
    assert "the file is so in HEAD: fix it in a new commit" in base.stderr
    # following the hint: the fix committed, the diff from there reads
    _git(root, "commit", "-qam", "fixed")
    fixed = run_cli(["diff", "HEAD"], root)
    assert fixed.code == 0 and "no changes" in fixed.stdout, fixed.stdout + fixed.stderr


def test_a_kustomize_patch_beside_the_crds_is_no_crd_and_no_error(tmp_path: Path) -> None:
    """A CustomResourceDefinition document without spec.group (a kustomize patch of
    config/crd/patches) is a part of a CRD: a directory side reads past it."""
    for side in ("base", "head"):
        (tmp_path / side).mkdir()
        shutil.copy(CRD, tmp_path / side / "widgets.yaml")
    (tmp_path / "head" / "webhook_in_widgets.yaml").write_text(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
        "metadata:\n  name: widgets.example.com\nspec:\n  conversion:\n    strategy: Webhook\n",
        encoding="utf-8",
    )
    res = run_cli(["diff", "base", "head"], tmp_path)
    assert res.code == 0 and "no changes" in res.stdout, res.stdout + res.stderr
