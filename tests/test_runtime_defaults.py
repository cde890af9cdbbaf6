"""A discriminator's default: the API server fills it in before it validates, so an
object that leaves the discriminator out is validated (and stored) with the default.

The shape is envoyproxy/gateway's `LocalJWKS`: a pointer discriminator without omitempty
(so markergen counts it required), `+kubebuilder:default=Inline` and an enum; the
project's e2e objects leave `type` out. The others: openapi-gen's `+default="..."` JSON
form, and an integer discriminator's default."""

from __future__ import annotations

from pathlib import Path

import pytest

from markergen.emit.options import EmitOptions
from markergen.emit.table import build_table
from markergen.pipeline import load_model
from markergen.runtime import Table, normalize, validate

GO = """package api

// +enum
type SourceType string

const (
	Inline   SourceType = "Inline"
	ValueRef SourceType = "ValueRef"
)

// LocalJWKS is envoyproxy/gateway's shape.
type LocalJWKS struct {
	// +kubebuilder:default=Inline
	// +kubebuilder:validation:Enum=Inline;ValueRef
	// +unionDiscriminator
	Type *SourceType `json:"type"`
	// +unionMember
	// +optional
	Inline *string `json:"inline,omitempty"`
	// +unionMember
	// +optional
	ValueRef *string `json:"valueRef,omitempty"`
}

// Quoted is openapi-gen's JSON spelling of the default.
type Quoted struct {
	// +default="ValueRef"
	// +unionDiscriminator
	// +optional
	Type SourceType `json:"type,omitempty"`
	// +unionMember
	// +optional
	Inline *string `json:"inline,omitempty"`
	// +unionMember
	// +optional
	ValueRef *string `json:"valueRef,omitempty"`
}

// +enum
type Level int32

const (
	Low  Level = 1
	High Level = 2
)

type Numbered struct {
	// +default=2
	// +unionDiscriminator
	// +optional
	Level Level `json:"level,omitempty"`
	// +unionMember=1
	// +optional
	Low *string `json:"low,omitempty"`
	// +unionMember=2
	// +optional
	High *string `json:"high,omitempty"`
}

// NoDefault keeps the old behaviour: a required discriminator left out is an error.
type NoDefault struct {
	// +unionDiscriminator
	Type *SourceType `json:"type"`
	// +unionMember
	// +optional
	Inline *string `json:"inline,omitempty"`
	// +unionMember
	// +optional
	ValueRef *string `json:"valueRef,omitempty"`
}
"""


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[Table, dict[str, str]]:
    root = tmp_path_factory.mktemp("defaults")
    (root / "go.mod").write_text("module example.com/defaults\n\ngo 1.22\n")
    (root / "api").mkdir()
    (root / "api" / "types.go").write_text(GO)
    raw = build_table(load_model(["./..."], root), EmitOptions())
    names = {n.rsplit(".", 1)[-1]: n for n in raw["types"]}
    defaults = {
        short: [u.get("discriminatorDefault") for u in raw["types"][full]["unions"]]
        for short, full in names.items()
    }
    assert defaults == {
        "LocalJWKS": ["Inline"],
        "Quoted": ["ValueRef"],
        "Numbered": [2],
        "NoDefault": [None],
    }
    return Table.from_dict(raw), names


def test_left_out_discriminator_takes_its_default(table: tuple[Table, dict[str, str]]) -> None:
    t, names = table
    assert validate(t, names["LocalJWKS"], {"inline": "{}"}) == []
    # the default selects Inline, so valueRef is the wrong member
    errors = validate(t, names["LocalJWKS"], {"valueRef": "cm"})
    assert [(e.path, e.type) for e in errors] == [("inline", "Required"), ("valueRef", "Forbidden")]
    assert validate(t, names["Quoted"], {"valueRef": "cm"}) == []
    assert validate(t, names["Numbered"], {"high": "x"}) == []
    assert [e.path for e in validate(t, names["Numbered"], {"low": "x"})] == ["high", "low"]


def test_null_discriminator_is_defaulted_too(table: tuple[Table, dict[str, str]]) -> None:
    t, names = table
    assert validate(t, names["LocalJWKS"], {"type": None, "inline": "{}"}) == []


def test_without_a_default_a_required_discriminator_is_still_required(
    table: tuple[Table, dict[str, str]],
) -> None:
    t, names = table
    errors = validate(t, names["NoDefault"], {"inline": "{}"})
    assert ("type", "Required") in [(e.path, e.type) for e in errors]


def test_normalize_stores_the_default(table: tuple[Table, dict[str, str]]) -> None:
    t, names = table
    obj = {"inline": "{}"}
    assert normalize(t, names["LocalJWKS"], None, obj) == {"inline": "{}", "type": "Inline"}
    assert obj == {"inline": "{}"}  # the input is not changed
    assert normalize(t, names["Numbered"], None, {"high": "x"}) == {"high": "x", "level": 2}


def test_a_default_of_the_wrong_type_is_not_written(tmp_path: Path) -> None:
    (tmp_path / "go.mod").write_text("module example.com/wrong\n\ngo 1.22\n")
    (tmp_path / "api").mkdir()
    (tmp_path / "api" / "types.go").write_text(GO.replace("// +default=2", "// +default=\"two\""))
    raw = build_table(load_model(["./..."], tmp_path), EmitOptions())
    [numbered] = [v for k, v in raw["types"].items() if k.endswith(".Numbered")]
    assert "discriminatorDefault" not in numbered["unions"][0]
