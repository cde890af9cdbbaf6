"""Types whose JSON is their own (custom MarshalJSON/UnmarshalJSON/MarshalText found in
the source, and the well-known apimachinery types) are opaque to the runtime table: any
JSON value passes for them, and the errors left are about unions and enums only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from markergen.emit.options import EmitOptions
from markergen.emit.outputs import render_outputs
from markergen.pipeline import load_model
from markergen.runtime import Table, validate

TYPES = """package v1

import (
\t"encoding/json"
\t"time"

\t"k8s.io/apimachinery/pkg/api/resource"
\tmetav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Interval is written "30s" in JSON, not as the struct it is in Go.
type Interval struct {
\tD time.Duration `json:"-"`
}

METHODS

// +enum
type CheckType string

const (
\tCheckHTTP CheckType = "HTTP"
\tCheckTCP  CheckType = "TCP"
)

// HealthCheck is a union of checks; its other fields are shared settings.
type HealthCheck struct {
\t// +unionDiscriminator
\t// +required
\tType CheckType `json:"type"`
\t// +unionMember=HTTP
\t// +optional
\tHTTP *HTTPCheck `json:"http,omitempty"`
\t// +unionMember=TCP
\t// +optional
\tTCP *TCPCheck `json:"tcp,omitempty"`
\t// +optional
\tTimeout *metav1.Duration `json:"timeout,omitempty"`
\t// +optional
\tEvery *Interval `json:"every,omitempty"`
\t// +optional
\tHistory []Interval `json:"history,omitempty"`
\t// +optional
\tLimit *resource.Quantity `json:"limit,omitempty"`
}

type HTTPCheck struct {
\tPath   string   `json:"path"`
\tPeriod Interval `json:"period"`
}

type TCPCheck struct {
\tPort int32 `json:"port"`
}
"""

METHODS = """// MarshalJSON writes the duration as a string.
func (i Interval) MarshalJSON() ([]byte, error) { return json.Marshal(i.D.String()) }

// UnmarshalJSON reads a duration string.
func (i *Interval) UnmarshalJSON(b []byte) error {
\tvar s string
\tif err := json.Unmarshal(b, &s); err != nil {
\t\treturn err
\t}
\td, err := time.ParseDuration(s)
\ti.D = d
\treturn err
}
"""

TYPE = "com.example.checks.api.v1.HealthCheck"


def table(tmp_path: Path, methods: str) -> Table:
    (tmp_path / "go.mod").write_text("module example.com/checks\n")
    (tmp_path / "api" / "v1").mkdir(parents=True)
    (tmp_path / "api" / "v1" / "types.go").write_text(TYPES.replace("METHODS", methods))
    model = load_model(["./..."], tmp_path)
    text = render_outputs(model, EmitOptions())["unions_table.json"]
    return Table.from_dict(json.loads(text))


VALID: dict[str, Any] = {
    "type": "HTTP",
    "http": {"path": "/healthz", "period": "30s"},
    "timeout": "30s",
    "every": "10s",
    "history": ["1s", "2s"],
    "limit": 1048576,
}


def test_custom_marshalled_and_well_known_types_take_any_json(tmp_path: Path) -> None:
    t = table(tmp_path, METHODS)
    assert validate(t, TYPE, VALID) == []
    assert validate(t, TYPE, {**VALID, "limit": "1Mi", "timeout": 30}) == []


def test_union_errors_are_still_reported(tmp_path: Path) -> None:
    t = table(tmp_path, METHODS)
    wrong = {**VALID, "tcp": {"port": 80}}
    errors = [str(e) for e in validate(t, TYPE, wrong)]
    assert len(errors) == 1 and "tcp" in errors[0], errors


def test_without_the_methods_the_struct_shape_is_enforced(tmp_path: Path) -> None:
    # The same type without its marshalling methods is an ordinary struct: a string where
    # the struct belongs is an error. This is what the methods change.
    t = table(tmp_path, "")
    errors = [str(e) for e in validate(t, TYPE, VALID)]
    assert any("every" in e and "must be an object" in e for e in errors), errors


def test_the_front_end_records_marshalling_receivers(tmp_path: Path) -> None:
    from markergen.golang.parser import GoParser

    extra = '\nfunc (i Interval) String() string { return "" }\n'
    source = TYPES.replace("METHODS", METHODS + extra)
    f = GoParser().parse("types.go", source.encode())
    assert f.marshalers == ("Interval",)
