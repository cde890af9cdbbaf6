"""MG025: `+optional, default GET` and `+required - prose` are no markers for
controller-gen (its name is the text before `=`, which no definition matches, so the
line is ignored) nor gengo. markergen ignores them too, with a warning, instead of
refusing `generate` with MG004 errors (corpus: 9 such errors in one project)."""

from __future__ import annotations

import shutil
from pathlib import Path

from helpers import TESTDATA

from markergen.diagnostics import Diagnostic
from markergen.pipeline import check_model, load_model


def _module(tmp_path: Path) -> Path:
    root = tmp_path / "m"
    (root / "v1").mkdir(parents=True)
    (root / "go.mod").write_text("module example.com/m\n\ngo 1.24\n", encoding="utf-8")
    shutil.copy(TESTDATA / "check" / "markerprose" / "types.go", root / "v1" / "types.go")
    return root


def _found(root: Path) -> list[Diagnostic]:
    model = load_model(["./..."], root)
    return check_model(model)


def test_prose_lines_are_warnings_and_set_nothing(tmp_path: Path) -> None:
    root = _module(tmp_path)
    found = _found(root)
    prose = [(d.pos.line, d.severity.value) for d in found if d.code == "MG025"]
    assert prose == [(7, "warning"), (11, "warning"), (15, "warning")]
    assert [d for d in found if d.code == "MG004"] == []
    model = load_model(["./..."], root)
    struct = model.structs["example.com/m/v1.Provider"]
    url = next(f for f in struct.fields if f.json_name == "url")
    assert not url.required_marker and not url.optional
    assert all(not f.markers for f in struct.fields)


def test_the_hint_is_an_edit_that_works(tmp_path: Path) -> None:
    root = _module(tmp_path)
    path = root / "v1" / "types.go"
    text = path.read_text(encoding="utf-8")
    for d in _found(root):
        if d.code == "MG025":
            assert d.hint is not None
            new, old = d.hint.split("write `", 1)[1].split("` instead of `", 1)
            text = text.replace(old.split("`", 1)[0], new)
    path.write_text(text)
    found = _found(root)
    assert [d.code for d in found if d.code in ("MG025", "MG004")] == []
    model = load_model(["./..."], root)
    url = next(f for f in model.structs["example.com/m/v1.Provider"].fields if f.json_name == "url")
    assert url.required_marker


def test_arguments_with_spaces_are_not_prose() -> None:
    from markergen.model.markerread import _prose_name

    assert _prose_name('+k8s:unionMember(union: "u") x') is None
    assert _prose_name("+kubebuilder:validation:Enum=A; B") is None
    assert _prose_name("+optional, default GET") == "optional"
    assert _prose_name("+required - prose") == "required"
