"""Kept objects (issue 39): the ```yaml blocks of a project's Markdown pages are kept
objects; only those the project's CRD accepts today prove anything (the others are
named once, MG516); objects the project marks as invalid are negative cases, never kept
(testdata/projects/keptdocs)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers import TESTDATA, run_cli

from markergen.accept.admit import rejection
from markergen.accept.celeval import CelEvaluator
from markergen.project.samples import is_negative, load_samples, markdown_blocks

PROJECT = TESTDATA / "projects" / "keptdocs"
CRD = Path("config/crd/bases/net.example.com_tunnels-handwritten.yaml")


def test_markdown_blocks_are_kept_objects_and_invalid_files_are_not(tmp_path: Path) -> None:
    root = tmp_path / "keptdocs"
    shutil.copytree(PROJECT, root)
    run = run_cli(["crd"], root)
    assert run.code == 0, run.stderr
    lines = run.stderr.splitlines()
    # the Plain tunnel of docs/guide.md (its block starts at line 20) keeps the rule
    # "tls only with TLS" out
    (mg510,) = [line for line in lines if "MG510" in line]
    assert "tls may only be set" in mg510 and "Tunnel at docs/guide.md:20;" in mg510
    # the proposal (line 35) and the old port (line 47) are rejected by the CRD today:
    # one note, and neither keeps "tls must be set" out (the old port would)
    (mg516,) = [line for line in lines if "MG516" in line]
    assert mg516.startswith("docs/guide.md:35:1: info MG516: 2 kept object(s) of Tunnel")
    assert "'QUIC' is not one of" in mg516 and "docs/guide.md:47" in mg516
    # the invalid example (TLS without tls) would reject the same rule: not kept either
    assert "invalid-examples" not in run.stderr
    text = (root / CRD).read_text(encoding="utf-8")
    assert 'rule: has(self.tls) || !(has(self.mode) && self.mode == "TLS")' in text


def test_markdown_blocks_and_their_lines() -> None:
    text = "# t\n\n```yaml\na: 1\n```\n\n  ~~~yml title\n  b: 2\n  ~~~\n```go\nc\n```\n"
    assert list(markdown_blocks(text)) == [(3, "a: 1\n"), (7, "b: 2\n")]


@pytest.mark.parametrize(
    ("path", "negative"),
    [
        ("hack/invalid-examples/x/a.yaml", True),
        ("examples/invalid/a.yaml", True),
        ("config/samples/invalid-port.yaml", True),
        ("test/e2e/route_invalid.yaml", True),
        ("docs/invalidation.md", False),
        ("config/samples/valid.yaml", False),
    ],
)
def test_what_a_project_marks_as_invalid(path: str, negative: bool) -> None:
    assert is_negative(path) == negative


def test_invalid_files_and_the_suites_failing_cases_are_not_kept(tmp_path: Path) -> None:
    root = tmp_path / "p"
    shutil.copytree(PROJECT, root)
    suite = root / "net" / "v1" / "tests" / "tunnels.net.example.com"
    suite.mkdir(parents=True)
    (suite / "Default.yaml").write_text(
        "apiVersion: apiextensions.k8s.io/v1\nname: Tunnel\ncrdName: tunnels.net.example.com\n"
        "tests:\n  onCreate:\n"
        "  - name: ok\n    initial: |\n      apiVersion: net.example.com/v1\n"
        "      kind: Tunnel\n      spec:\n        mode: Plain\n"
        "  - name: bad\n    initial: |\n      apiVersion: net.example.com/v1\n"
        "      kind: Tunnel\n      spec:\n        mode: Nope\n"
        "    expectedError: 'spec.mode: Unsupported value'\n",
        encoding="utf-8",
    )
    kept = load_samples(root, ["net.example.com"])
    assert [(o.file, o.line) for o in kept] == [
        ("docs/guide.md", 6),
        ("docs/guide.md", 20),
        ("docs/guide.md", 35),
        ("docs/guide.md", 47),
        ("net/v1/tests/tunnels.net.example.com/Default.yaml", 8),
    ]


SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "spec": {
            "type": "object",
            "properties": {
                "mode": {"type": "string", "enum": ["A", "B"]},
                "n": {"type": "integer", "maximum": 3},
                "tags": {"type": "array", "maxItems": 1, "items": {"type": "string"}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "level": {"type": "string", "default": "low", "enum": ["low", "high"]},
            },
            "required": ["mode", "level"],
            "x-kubernetes-validations": [
                {"rule": "self.mode != 'B' || has(self.n)", "message": "B needs n"},
                {"rule": "self.mode == oldSelf.mode", "message": "immutable"},
            ],
        }
    },
}


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ({"mode": "A"}, None),
        ({"mode": "B", "n": 2, "labels": {"x": "y"}, "tags": ["t"]}, None),
        ({"mode": "C"}, "spec.mode: 'C' is not one of ['A', 'B']"),
        ({"n": 1}, "spec.mode: Required value"),
        ({"mode": "A", "n": 4}, "spec.n: maximum 3"),
        ({"mode": "A", "n": True}, "spec.n: must be of type integer"),
        ({"mode": "A", "tags": ["a", "b"]}, "spec.tags: maxItems 1"),
        ({"mode": "A", "labels": {"x": 1}}, "spec.labels.x: must be of type string"),
        ({"mode": "A", "other": 1}, "spec.other: unknown field"),
        ({"mode": "B"}, "spec: B needs n"),
        ({"mode": "A", "n": None}, None),  # a null is pruned
        ({"mode": "A", "level": "mid"}, "spec.level: 'mid' is not one of ['low', 'high']"),
        # `level` is required, and the server defaults it before it validates
        ({"mode": "A", "level": None}, None),
    ],
)
def test_what_the_crd_accepts_today(spec: dict[str, Any], why: str | None) -> None:
    obj = {"apiVersion": "x/v1", "kind": "K", "metadata": {"name": "a"}, "spec": spec}
    assert rejection(obj, SCHEMA, CelEvaluator()) == why


def test_objects_of_a_version_the_crd_does_not_serve_are_no_proof(tmp_path: Path) -> None:
    root = tmp_path / "keptdocs"
    shutil.copytree(PROJECT, root)
    crd = root / CRD
    crd.write_text(crd.read_text(encoding="utf-8").replace("served: true", "served: false"))
    run = run_cli(["crd"], root)
    assert run.code == 0, run.stderr
    assert "MG510" not in run.stderr  # the Plain tunnel of docs/guide.md proves nothing now
    (mg516,) = [line for line in run.stderr.splitlines() if "MG516" in line]
    assert "4 kept object(s) of Tunnel" in mg516 and "version v1 is not served" in mg516
