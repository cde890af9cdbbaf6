"""The hints of the k8s mode, enum-exclusion and stage codes (MG110-MG114, MG320-MG325)
work: each code's bad example from docs/rules.md is checked, the edit every hint of that
code spells out is applied to the file (found by the hint's own text, so a hint that
stops naming a concrete edit fails here), and the check is then clean of that code and
of errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from markergen.diagnostics import Diagnostic
from markergen.explain import examples, sections
from markergen.pipeline import check_model, load_model

CODES = ["MG110", "MG111", "MG112", "MG113", "MG114"] + [f"MG32{i}" for i in range(6)]
REPLACE = re.compile(r"replace `([^`]+)` with `([^`]*)`")
ABOVE_FIELD = re.compile(r"write `(// \+[^`]+)` above (\w+)$")
ABOVE_TYPE = re.compile(r"write `(// \+[^`]+)` above `type (\w+)")


def _check(root: Path) -> list[Diagnostic]:
    return check_model(load_model(["./..."], root))


def _apply(path: Path, d: Diagnostic) -> None:
    assert d.hint is not None, d
    lines = path.read_text().split("\n")
    if (m := REPLACE.search(d.hint)) is not None:
        old, new = m.groups()
        at = d.pos.line - 1
        if old not in lines[at]:  # the edit is elsewhere (a field's type below its marker)
            at = next(i for i in range(at, len(lines)) if old in lines[i])
        lines[at] = lines[at].replace(old, new, 1)
    elif (m := ABOVE_TYPE.search(d.hint)) is not None:
        text, name = m.groups()
        at = next(i for i, line in enumerate(lines) if line.startswith(f"type {name} "))
        lines.insert(at, text)
    elif (m := ABOVE_FIELD.search(d.hint)) is not None:
        text, name = m.groups()
        at = next(i for i, line in enumerate(lines) if re.match(rf"\s*{name}\s", line))
        while lines[at - 1].strip().startswith("//"):
            at -= 1
        lines.insert(at, "\t" + text)
    else:
        pytest.fail(f"hint names no edit: {d.hint}")
    path.write_text("\n".join(lines))


@pytest.mark.parametrize("code", CODES)
def test_hint_applied_to_the_bad_example_clears_the_code(code: str, tmp_path: Path) -> None:
    bad, _ = examples(sections()[code])
    (tmp_path / "go.mod").write_text("module example.com/doc\n")
    (tmp_path / "v1").mkdir()
    path = tmp_path / "v1" / "types.go"
    path.write_text(bad)
    found = [d for d in _check(tmp_path) if d.code == code]
    assert found, code
    # bottom-up, so that an inserted line does not move the next diagnostic's line
    for d in sorted(found, key=lambda d: d.pos.line, reverse=True):
        _apply(path, d)
    after = _check(tmp_path)
    assert [d for d in after if d.code == code] == [], path.read_text()
    errors = [f"{d.code}: {d.message}" for d in after if d.severity.value == "error"]
    assert errors == [], errors


def test_mg110_hint_keeps_prefixes_and_named_arguments(tmp_path: Path) -> None:
    (tmp_path / "go.mod").write_text("module example.com/doc\n")
    (tmp_path / "v1").mkdir()
    (tmp_path / "v1" / "types.go").write_text(
        "package v1\n\ntype S struct {\n"
        '\t// +k8s:beta(since: "1.37")=+k8s:discriminator(name: "d")\n'
        "\tOn bool `json:\"on,omitempty\"`\n\n"
        '\t// +k8s:member(discriminator: "d", value: "true")=+k8s:maxLength=5\n'
        "\t// +optional\n\tA *string `json:\"a,omitempty\"`\n}\n"
    )
    hints = sorted(d.hint or "" for d in _check(tmp_path) if d.code == "MG110")
    assert hints == [
        'replace `+k8s:beta(since: "1.37")=+k8s:discriminator(name: "d")` with '
        '`+k8s:beta(since: "1.37")=+k8s:modeDiscriminator(modality: "d")`',
        'replace `+k8s:member(discriminator: "d", value: "true")=+k8s:maxLength=5` with '
        '`+k8s:ifMode(modality: "d", mode: "true")=+k8s:maxLength=5`',
    ]
