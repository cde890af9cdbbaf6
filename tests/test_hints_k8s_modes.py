"""MG110's hint is the line in the new spelling, wrappers and named arguments kept (every
code's hint is applied to its bad example by tests/test_hints.py)."""

from __future__ import annotations

from pathlib import Path

from markergen.diagnostics import Diagnostic
from markergen.pipeline import check_model, load_model


def _check(root: Path) -> list[Diagnostic]:
    return check_model(load_model(["./..."], root))


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
        '`+k8s:beta(since: "1.37")=+k8s:modeDiscriminator(modality: "d")` on this line',
        'replace `+k8s:member(discriminator: "d", value: "true")=+k8s:maxLength=5` with '
        '`+k8s:ifMode(modality: "d", mode: "true")=+k8s:maxLength=5` on this line',
    ]
