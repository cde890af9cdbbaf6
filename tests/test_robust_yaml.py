"""Robustness: YAML whose aliases expand without bound ("billion laughs").

Issue 39 item 4: a kilobyte of nested aliases (ten lists of ten aliases, nine deep) in a
CRD made `markergen check` grow past 2 GB and never finish. Every YAML markergen reads is
composed by `markergen.yamlread` under the alias budget of Kubernetes' own decoder
(tests/test_apiserver_yaml_aliases.py holds the budget to the server's); here each reader
refuses the file with its file:line, and a run given it stays small: it is run in a
process of its own whose peak memory is measured.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from helpers import TESTDATA

from markergen.yamlio import load_documents
from markergen.yamlread import YamlError, compose_documents, load_value

# What a normal `check` of the example project peaks at is about a tenth of this; the
# unbounded expansion passed 2 GB.
PEAK_LIMIT_KB = 400 * 1024


def bomb(indent: str = "", levels: int = 9) -> str:
    """Ten lists of ten aliases, `levels` deep: 10^(levels+1) scalars once expanded."""
    lines = [f"{indent}a0: &a0 [{', '.join(['x'] * 10)}]\n"]
    for i in range(1, levels + 1):
        lines.append(f"{indent}a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n")
    return "".join(lines)


def _at_alias(text: str, line: int, column: int) -> bool:
    """Whether 1-based (line, column) of `text` is where an alias of the bomb is written."""
    return text.splitlines()[line - 1][column - 1 :].startswith("*a")


def _points_at_alias(output: str, path: Path, shown: str) -> bool:
    """Whether `output` names `shown`:line:column of an alias in the file at `path`."""
    found = re.search(re.escape(shown) + r":(\d+):(\d+):", output)
    return found is not None and _at_alias(
        path.read_text(), int(found.group(1)), int(found.group(2))
    )


def _measured(args: list[str], cwd: Path, stdin: str = "") -> tuple[int, str, int]:
    """Exit code, stderr and peak resident memory (KB) of `markergen args`, run in a
    fresh parent so that the peak is this run's alone. The address space is capped at
    4 GB so that a regression fails the test instead of the machine."""
    runner = textwrap.dedent(
        """
        import json, resource, subprocess, sys
        def cap():
            resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
        p = subprocess.run([sys.executable, "-m", "markergen", *sys.argv[1:]],
                           input=sys.stdin.read(), capture_output=True, text=True,
                           preexec_fn=cap, timeout=600)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        print(json.dumps([p.returncode, p.stderr + p.stdout, peak]))
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", runner, *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        check=True,
    )
    code, output, peak = json.loads(proc.stdout)
    return int(code), str(output), int(peak)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "example"
    shutil.copytree(TESTDATA / "example", root)
    return root


def _crd_bomb(root: Path) -> Path:
    path = root / "config" / "crd" / "bases" / "bombs.yaml"
    path.write_text(
        "apiVersion: apiextensions.k8s.io/v1\n"
        "kind: CustomResourceDefinition\n"
        "metadata:\n"
        "  name: bombs.webapp.example.com\n"
        "  labels:\n" + bomb("    ") + "spec:\n  group: webapp.example.com\n"
    )
    return path


def test_the_reader_refuses_the_bomb_at_its_alias() -> None:
    with pytest.raises(YamlError) as err:
        compose_documents(bomb())
    assert err.value.aliasing
    assert "excessive aliasing" in err.value.message
    assert _at_alias(bomb(), err.value.line, err.value.column), err.value


def test_each_document_of_a_stream_is_counted_alone() -> None:
    # three levels are within the budget; the same three in each of many documents too
    small = bomb(levels=2)
    assert len(compose_documents(("---\n" + small) * 50)) == 50
    with pytest.raises(YamlError) as err:
        load_documents("---\n" + small + "---\n" + bomb())
    # the line counts from the stream's start, past the first document
    assert err.value.line > 2 + len(small.splitlines())
    assert _at_alias(
        "\n" * (2 + len(small.splitlines())) + bomb(),
        err.value.line,
        err.value.column,
    )


def test_an_anchor_containing_itself_is_refused_not_recursed() -> None:
    with pytest.raises(YamlError) as err:
        load_value("a: &a [x, {b: *a}]\n")
    assert err.value.aliasing and "contains an alias of itself" in err.value.message
    assert err.value.line == 1


def test_ordinary_aliases_still_read_as_copies() -> None:
    text = "x: &s {type: string}\ny: *s\nz: {<<: *s, format: date}\n"
    assert load_value(text) == {
        "x": {"type": "string"},
        "y": {"type": "string"},
        "z": {"type": "string", "format": "date"},
    }


@pytest.mark.parametrize("command", ["check", "crd"])
def test_check_and_crd_refuse_a_crd_bomb_and_stay_small(project: Path, command: str) -> None:
    path = _crd_bomb(project)
    code, output, peak = _measured([command], project)
    assert code == 1, output
    assert _points_at_alias(output, path, "config/crd/bases/bombs.yaml"), output
    assert "MG504" in output and "excessive aliasing" in output, output
    assert "Traceback" not in output
    assert peak < PEAK_LIMIT_KB, f"peak {peak} KB"


def test_a_kept_object_bomb_is_reported_not_read(project: Path) -> None:
    samples = project / "config" / "samples"
    samples.mkdir(parents=True, exist_ok=True)
    path = samples / "bomb.yaml"
    path.write_text(
        "apiVersion: webapp.example.com/v1\nkind: Guestbook\nmetadata:\n  name: g\n"
        "  annotations:\n" + bomb("    ")
    )
    code, output, peak = _measured(["check"], project)
    assert _points_at_alias(output, path, "config/samples/bomb.yaml") and "MG513" in output, output
    assert code == 0, output  # a warning: the proof just has one file fewer
    assert peak < PEAK_LIMIT_KB, f"peak {peak} KB"


def test_a_markergen_yaml_bomb_is_an_input_error(project: Path) -> None:
    path = project / "markergen.yaml"
    path.write_text("labels:\n" + bomb("  "))
    code, output, peak = _measured(["check"], project)
    assert code == 2, output
    assert _points_at_alias(output, path, "markergen.yaml"), output
    assert "excessive aliasing" in output
    assert peak < PEAK_LIMIT_KB, f"peak {peak} KB"


@pytest.mark.parametrize("command", ["validate", "normalize"])
def test_validate_and_normalize_refuse_an_object_bomb(project: Path, command: str) -> None:
    table = project / "table.json"
    gen_code, gen_out, _ = _measured(["generate", "--table-json", str(table)], project)
    assert gen_code == 0 and table.is_file(), gen_out
    obj = project / "obj.yaml"
    obj.write_text(
        "apiVersion: webapp.example.com/v1\nkind: Guestbook\nmetadata:\n"
        "  annotations:\n" + bomb("    ")
    )
    code, output, peak = _measured(
        [command, "--table", str(table), "--type", "Guestbook", str(obj)], project
    )
    assert code == 2, output
    assert _points_at_alias(output, obj, "obj.yaml") and "excessive aliasing" in output, output
    assert peak < PEAK_LIMIT_KB, f"peak {peak} KB"


ALIAS_FORMS = [
    "a: &x [1]\nb: *x\n",
    "a: &x 1\nb: [*x, *x]\n",
    "{a: &x 1, b: *x}\n",
    '{"a": &x 1, "b":*x}\n',
    "- &x 1\n- *x\n",
    "? &x k\n: v\n*x : w\n",
    "a: &x-1_b 1\nb: *x-1_b\n",
    "a: &x\n  k: v\nb:\n  *x\n",
    "[&x 1,*x]\n",
]


@pytest.mark.parametrize("text", ALIAS_FORMS)
def test_the_pre_check_sees_every_alias_the_scanner_reads(text: str) -> None:
    # the budget is only counted for texts the pre-check flags: it must never miss one
    import yaml

    from markergen.yamlread import _has_token

    scanned = list(yaml.scan(text, Loader=yaml.SafeLoader))
    assert any(isinstance(t, yaml.AliasToken) for t in scanned)
    assert any(isinstance(t, yaml.AnchorToken) for t in scanned)
    assert _has_token(text, "&") and _has_token(text, "*")


def test_markdown_globs_and_cel_are_no_alias_tokens() -> None:
    from markergen.yamlread import _has_token

    text = (
        "description: |-\n  **Bold** text, *.example.com and *foo* here\n"
        "rule: self.a && self.b || x*y\n"
    )
    assert not (_has_token(text, "&") and _has_token(text, "*"))


def test_a_plain_equals_sign_is_the_string_go_yaml_reads() -> None:
    # PyYAML resolves a plain `=` to YAML 1.1's value key and cannot construct it;
    # Kubernetes' go-yaml reads the string "=" (prometheus-operator's CRDs list `- =`)
    text = "enum:\n- =\n- '!='\n- =~\n"
    assert load_value(text) == {"enum": ["=", "!=", "=~"]}
    assert load_documents(text)[0].value == {"enum": ["=", "!=", "=~"]}


def test_diff_reads_a_crd_whose_enum_lists_an_equals_sign(tmp_path: Path) -> None:
    from helpers import run_cli

    crd = (TESTDATA / "diff" / "crd" / "example.com_widgets.yaml").read_text(encoding="utf-8")
    sizes = "                - Small\n                - Medium\n"
    assert crd.count(sizes) == 1
    (tmp_path / "base.yaml").write_text(crd.replace(sizes, sizes + "                - =\n"))
    (tmp_path / "head.yaml").write_text(crd)
    r = run_cli(["diff", "base.yaml", "head.yaml", "--format", "json"], cwd=tmp_path)
    assert r.code == 0, r.stderr
    removed = [c for c in json.loads(r.stdout)["changes"] if c["kind"] == "enum-value-removed"]
    assert len(removed) == 1 and '"="' in removed[0]["message"], removed
