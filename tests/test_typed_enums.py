"""Enums of bool, integer and float types typed as such in OpenAPI v2 and v3."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from markergen.emit.options import EmitOptions
from markergen.emit.outputs import render_outputs
from markergen.pipeline import load_model

TYPES = """package v1

// +kubebuilder:validation:Enum=1;2;4
type Width int32

// +kubebuilder:validation:Enum=0.5;1.5
type Ratio float64

// Settings has enums of every scalar type.
type Settings struct {
	// +kubebuilder:validation:Enum=true;false
	Enabled bool `json:"enabled"`
	// +kubebuilder:validation:Enum=8;16;oops
	Bits int64 `json:"bits"`
	Width Width `json:"width"`
	Ratio Ratio `json:"ratio"`
	// +kubebuilder:validation:Enum=a;b
	Name string `json:"name"`
}
"""


def properties(tmp_path: Path, name: str) -> dict[str, Any]:
    tmp_path.mkdir()
    (tmp_path / "go.mod").write_text("module example.com/t\n")
    (tmp_path / "v1").mkdir()
    (tmp_path / "v1/types.go").write_text(TYPES)
    text = render_outputs(load_model(["./v1"], tmp_path), EmitOptions())[name]
    doc = json.loads(text)
    defs = doc["definitions"] if "definitions" in doc else doc["components"]["schemas"]
    props: dict[str, Any] = defs["t.example.com.v1.Settings".replace(
        "t.example.com", "com.example.t")]["properties"]
    return props


def test_scalar_enums_are_typed(tmp_path: Path) -> None:
    for name in ("openapi-v2.json", "openapi-v3.json"):
        props = properties(tmp_path / name, name)
        assert props["enabled"]["enum"] == [False, True], name
        assert props["bits"]["enum"] == [8, 16], name  # "oops" is no integer
        assert props["width"]["enum"] == [1, 2, 4], name
        assert props["ratio"]["enum"] == [0.5, 1.5], name
        assert props["name"]["enum"] == ["a", "b"], name
        assert props["width"]["type"] == "integer" and props["ratio"]["type"] == "number"
        # The "Possible enum values" paragraph quotes Go strings: string enums only.
        assert "description" not in props["width"], name


def test_every_integer_type_the_rules_accept_is_an_enum(tmp_path: Path) -> None:
    # The builder and MG101 share one table of Go scalars: a `uintptr` enum, which MG101
    # accepts as a number, is an integer enum (it used to be dropped without a word).
    (tmp_path / "go.mod").write_text("module example.com/t\n")
    (tmp_path / "v1").mkdir()
    (tmp_path / "v1/types.go").write_text(
        "package v1\n\n// +kubebuilder:validation:Enum=1;2\ntype Handle uintptr\n"
    )
    model = load_model(["./v1"], tmp_path)
    enum = model.enums["example.com/t/v1.Handle"]
    assert (enum.type, [v.value for v in enum.values]) == ("integer", ["1", "2"])
