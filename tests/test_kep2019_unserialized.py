"""Issue 39 item 5: a field of a 2019 `+union` struct with `json:"-"` is a member that is
never serialized: MG308, as for the members of the other dialects (it was silent: such a
field never reaches the union's member list). Real grammar on real files."""

from __future__ import annotations

from pathlib import Path

import pytest

from markergen.pipeline import check_model, load_model

SOURCE = """package v1

// +union
type Source struct {
\t// +unionDiscriminator
\t// +optional
\tType *string `json:"type,omitempty"`

\t// +optional
\tGit *string `json:"git,omitempty"`

\t// +optional
\tCache *string %s
}
"""


def _diags(tmp_path: Path, tag: str, union: bool = True) -> list[tuple[str, int, str]]:
    (tmp_path / "go.mod").write_text("module example.com/u19\n\ngo 1.24\n")
    (tmp_path / "v1").mkdir()
    text = SOURCE % tag
    if not union:
        text = text.replace("// +union\n", "")
    (tmp_path / "v1" / "types.go").write_text(text)
    model = load_model(["./..."], tmp_path)
    return [(d.code, d.pos.line, d.hint or "") for d in check_model(model)]


def test_a_json_dash_field_of_a_2019_union_struct_is_mg308(tmp_path: Path) -> None:
    found = _diags(tmp_path, '`json:"-"`')
    assert [(c, line) for c, line, _ in found] == [("MG308", 13)]
    hint = found[0][2]
    assert hint.startswith('write `json:"cache,omitempty"` instead of `json:"-"`'), hint
    assert "move it out of the `+union` struct" in hint


@pytest.mark.parametrize("tag", ['`json:"cache,omitempty"`'])
def test_the_fix_is_clean(tmp_path: Path, tag: str) -> None:
    assert _diags(tmp_path, tag) == []


def test_the_same_field_outside_a_union_is_nothing(tmp_path: Path) -> None:
    found = [c for c, _, _ in _diags(tmp_path, '`json:"-"`', union=False)]
    assert "MG308" not in found and found, found  # the lone discriminator is reported
