"""docs/rules.md and `explain`: every catalog code is documented with a bad and a good
example, every example is Go that tree-sitter reads, and (through the real pipeline) each
bad example triggers its code while the good one does not."""

from __future__ import annotations

from pathlib import Path

import pytest
import tree_sitter_go
import yaml
from tree_sitter import Language, Parser

from markergen.diagnostics import CATALOG
from markergen.explain import ExplainError, examples, explain, sections, summary
from markergen.pipeline import check_model, load_model

DOCS = sections()
CODES = sorted(CATALOG)
# MG5xx are `markergen crd` codes about CRD YAML: their examples are YAML, and
# whether they trigger is the CRD patcher's tests' business, not the Go checker's.
CRD_CODES = [c for c in CODES if c.startswith("MG5")]
GO_CODES = [c for c in CODES if c not in CRD_CODES]
# MG001's bad example is a syntax error on purpose.
INVALID_GO = {("MG001", "bad")}


def test_every_code_has_a_section_with_severity_and_source() -> None:
    assert sorted(DOCS) == CODES
    for code, text in DOCS.items():
        info = CATALOG[code]
        assert text.startswith(f"## {code}: "), code
        assert f"**Severity:** {info.severity.value}" in text, code
        assert "**Source:**" in text, code
        assert "Bad" in text and "Good" in text, code


def test_anchors_are_stable() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    for code in CODES:
        assert f'<a id="{code.lower()}"></a>\n## {code}: ' in doc


@pytest.mark.parametrize("code", GO_CODES)
def test_examples_are_go(code: str) -> None:
    parser = Parser(Language(tree_sitter_go.language()))
    bad, good = examples(DOCS[code])
    # MG002 and MG006 differ in the file's surroundings (encoding, go.mod), not its text.
    assert bad != good or code in ("MG002", "MG006")
    for kind, text in (("bad", bad), ("good", good)):
        tree = parser.parse(text.encode("utf-8"))
        assert tree.root_node.has_error == ((code, kind) in INVALID_GO), (code, kind)


def _codes_of(example: str, tmp: Path, latin1: bool = False, go_mod: bool = True) -> set[str]:
    if go_mod:
        (tmp / "go.mod").write_text("module example.com/doc\n", encoding="utf-8")
    pkg = tmp / "v1"
    pkg.mkdir()
    data = example.encode("latin-1" if latin1 else "utf-8")
    (pkg / "types.go").write_bytes(data)
    model = load_model(["./..."], tmp)
    return {d.code for d in check_model(model)}


@pytest.mark.parametrize("code", CRD_CODES)
def test_crd_examples_are_yaml(code: str) -> None:
    bad, good = examples(DOCS[code], "yaml")
    yaml.safe_load(good)
    if code == "MG504":  # the bad example is invalid YAML on purpose
        with pytest.raises(yaml.YAMLError):
            yaml.safe_load(bad)
    else:
        yaml.safe_load(bad)


@pytest.mark.parametrize("code", GO_CODES)
def test_bad_example_triggers_and_good_does_not(code: str, tmp_path: Path) -> None:
    bad, good = examples(DOCS[code])
    (tmp_path / "bad").mkdir()
    (tmp_path / "good").mkdir()
    bad_codes = _codes_of(bad, tmp_path / "bad", latin1=code == "MG002", go_mod=code != "MG006")
    good_codes = _codes_of(good, tmp_path / "good")
    assert code in bad_codes, f"bad example of {code} gives {sorted(bad_codes)}"
    assert code not in good_codes, f"good example of {code} gives {sorted(good_codes)}"
    # A good example shows the fix, so it should be clean of errors altogether.
    errors = {c for c in good_codes if CATALOG[c].severity.value == "error"}
    assert not errors, f"good example of {code} has errors {sorted(errors)}"


def test_explain_is_case_insensitive_and_ends_with_newline() -> None:
    text = explain("mg303")
    assert text == explain("MG303")
    assert text.startswith("## MG303: ") and text.endswith("```\n")
    assert "MG304" not in text.split("\n", 1)[0]


def test_explain_unknown_code() -> None:
    with pytest.raises(ExplainError, match=r"unknown code 'MG999'; known codes: MG001"):
        explain("MG999")


def test_summary_is_the_first_paragraph() -> None:
    first = summary("MG103")
    assert first is not None and first.startswith('In Go, `Beta = "BETA"`')
    assert "\n" not in first
    assert summary("MG103", {}) is None


def test_last_section_stops_before_trailing_document_parts() -> None:
    text = '<a id="mg001"></a>\n## MG001: x\n\nbody\n\n## Appendix\n\nnot a rule\n'
    assert sections(text) == {"MG001": "## MG001: x\n\nbody"}
