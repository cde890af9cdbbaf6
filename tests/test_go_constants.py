"""Constants as go/types computes them, on real Go text (issue 18, item 2).

Enum values come from iota blocks (implicit repetition, `1 << iota`, skipped `_`,
`iota + 1`), integer and float constant arithmetic, references to other constants of
the same package and, through the imports, of another package; an untyped constant
takes the type of the typed constant it refers to; a constant declared with an alias
of an enum type is a value of that enum.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from frontend_records import ROOT, fixture_files

from markergen.emit.options import EmitOptions
from markergen.emit.outputs import render_outputs
from markergen.golang.constexpr import Const, evaluate
from markergen.golang.parser import DecodeError, GoParser
from markergen.golang.syntax import (
    GoFile,
)
from markergen.pipeline import load_model
from markergen.rules import all_diagnostics

TYPES = """package v1

import other "example.com/m/other"

// +enum
type Bits uint8

const (
	BitA Bits = 1 << iota
	BitB
	_
	BitD
)

// +enum
type Level int32

const (
	LevelLow Level = iota + 1
	LevelMid
	LevelHigh
	// LevelMax is untyped, but takes Level from LevelHigh (go/types).
	LevelMax = LevelHigh * 10
)

const base = 100

const LevelOther Level = base + other.Offset

// LevelAlias is another name of Level.
type LevelAlias = Level

const LevelAliased LevelAlias = 7

// NotALevel is a string, so no value of Level.
const NotALevel = "1"

// +enum
type Mask uint8

const MaskAll Mask = ^Mask(0)

// +enum
type Flag bool

const (
	FlagOn  Flag = true
	FlagOff Flag = !FlagOn
)

// +enum
type Ratio float64

const (
	Half    Ratio = 1.0 / 2
	Quarter       = Half / 2
)

// +enum
type Name string

const prefix = "x-"

const (
	NameA Name = prefix + "a"
	NameB      = Name(other.B)
)

type Settings struct {
	Bits  Bits  `json:"bits"`
	Level Level `json:"level"`
	Mask  Mask  `json:"mask"`
	Flag  Flag  `json:"flag"`
	Ratio Ratio `json:"ratio"`
	Name  Name  `json:"name"`
}
"""

OTHER = """package other

const Offset = 5

const B = "b"
"""


def build(tmp_path: Path):  # type: ignore[no-untyped-def]
    (tmp_path / "go.mod").write_text("module example.com/m\n")
    (tmp_path / "v1").mkdir()
    (tmp_path / "v1/types.go").write_text(TYPES)
    (tmp_path / "other").mkdir()
    (tmp_path / "other/c.go").write_text(OTHER)
    return load_model(["./v1"], tmp_path, env={"HOME": str(tmp_path / "home")})


def test_enum_values_as_go_types_computes_them(tmp_path: Path) -> None:
    model = build(tmp_path)
    got = {k.rsplit(".", 1)[1]: [v.value for v in e.values] for k, e in model.enums.items()}
    assert got == {
        "Bits": ["1", "2", "8"],
        "Level": ["1", "2", "3", "30", "105", "7"],
        "Mask": ["255"],
        "Flag": ["true", "false"],
        "Ratio": ["0.5", "0.25"],
        "Name": ["x-a", "b"],
    }
    types = {k.rsplit(".", 1)[1]: e.type for k, e in model.enums.items()}
    assert types == {
        "Bits": "integer",
        "Level": "integer",
        "Mask": "integer",
        "Flag": "boolean",
        "Ratio": "number",
        "Name": "string",
    }
    # Only the input package is a package of the model; `other` was read for its constants.
    assert [p.import_path for p in model.packages] == ["example.com/m/v1"]
    assert str(tmp_path / "other/c.go") in model.files_read
    # The non-string +enum types are read, with a note that openapi-gen ignores them.
    codes = sorted((d.code, d.pos.line) for d in all_diagnostics(model))
    assert [c for c, _ in codes] == ["MG021"] * 5


def test_typed_values_in_openapi(tmp_path: Path) -> None:
    model = build(tmp_path)
    for name in ("openapi-v2.json", "openapi-v3.json"):
        doc = json.loads(render_outputs(model, EmitOptions())[name])
        defs = doc.get("definitions") or doc["components"]["schemas"]
        props = defs["com.example.m.v1.Settings"]["properties"]
        assert props["bits"] == {"type": "integer", "format": "byte", "enum": [1, 2, 8]}
        assert props["level"]["enum"] == [1, 2, 3, 7, 30, 105]
        assert props["mask"]["enum"] == [255]
        assert props["flag"] == {"type": "boolean", "enum": [False, True]}
        assert props["ratio"]["enum"] == [0.25, 0.5]
        assert props["name"]["enum"] == ["b", "x-a"]


class _Scope:
    def constant(self, qualifier: str, name: str) -> Const | None:
        return {("", "A"): Const(3, "p.T", "int32")}.get((qualifier, name))

    def type_name(self, qualifier: str, name: str) -> tuple[str, str] | None:
        return {"U8": ("p.U8", "uint8"), "T": ("p.T", "int32")}.get(name)


def test_constant_arithmetic_follows_the_go_spec() -> None:
    scope = _Scope()

    def value(text: str, iota: int | None = None) -> object:
        c = evaluate(text, scope, iota)
        return None if c is None else c.value

    assert value("-7 / 2") == -3 and value("-7 % 2") == -1  # truncated, as Go
    assert value("7.0 / 2") == 3.5
    assert value("^0") == -1 and value("^U8(0)") == 255  # untyped vs unsigned typed
    assert value("1 << iota", 4) == 16 and value("iota * 10 + 1", 2) == 21
    assert value("1 + 2*3 << 1") == 13  # << binds like *, tighter than +
    assert value("0x10 | 0b11 &^ 1") == 18
    assert value("0644") == 420 and value("1_000") == 1000 and value("'a'") == 97
    assert value('len("héllo")') == 6  # bytes, as Go counts
    assert value("max(1, A, 2)") == 3
    assert value('"a" + "b"') == "ab" and value("1 < 2 && !false") is True
    assert evaluate("A * 2", scope) == Const(6, "p.T", "int32")  # typed by its operand
    assert value("T(2.0)") == 2 and value("T(2.5)") is None  # not representable
    for unknown in ("f(1)", "1 / 0", "unknown", "2i", "A +"):
        assert value(unknown) is None, unknown


def _parse(path: Path) -> GoFile | None:
    try:
        return GoParser().parse(path.relative_to(ROOT).as_posix(), path.read_bytes())
    except DecodeError:
        return None


@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_string_literal_constant_is_what_evaluating_its_text_gives(path: Path) -> None:
    file = _parse(path)
    if file is None:
        return

    class NoNames:
        def constant(self, qualifier: str, name: str) -> Const | None:
            raise AssertionError("a literal names nothing")

        def type_name(self, qualifier: str, name: str) -> tuple[str, str] | None:
            raise AssertionError("a literal names nothing")

    for spec in file.consts:
        if spec.value is not None:
            assert evaluate(spec.value_text, NoNames(), spec.iota) == Const(spec.value)
