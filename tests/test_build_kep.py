"""The builder on the KEP's own examples (testdata/kep, transcribed into valid Go).

Each test names the KEP section whose example it reads and states what the KEP text
says the example means.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import TESTDATA

from markergen.model import Model, Struct, Union
from markergen.pipeline import load_model

KEP = TESTDATA / "kep"
MOD = "example.com/kep"


@pytest.fixture(scope="module")
def model() -> Model:
    return load_model(["./..."], KEP)


def struct(model: Model, pkg: str, name: str) -> Struct:
    return model.structs[f"{MOD}/{pkg}.{name}"]


def only_union(s: Struct) -> Union:
    assert len(s.unions) == 1, s.unions
    return s.unions[0]


def codes(model: Model, pkg: str) -> list[tuple[str, str]]:
    """(code, file name) of the builder's diagnostics in one package."""
    prefix = str(Path("testdata") / "kep" / pkg)
    return sorted(
        (d.code, Path(d.pos.file).name)
        for d in model.diagnostics
        if Path(d.pos.file).parent.name == pkg or d.pos.file.startswith(prefix)
    )


class TestKep2019GoTags:
    """The 2019 KEP "Go tags": `+union` structs, `+unionDeprecated` fields."""

    def test_union_struct_makes_every_other_field_a_member(self, model: Model) -> None:
        u = only_union(struct(model, "kep000", "Union"))
        assert (u.dialect, u.origin, u.semantics) == ("kep2019", "struct", "kep2019")
        assert u.discriminator is not None
        assert u.discriminator.json_name == "unionType"
        assert not u.discriminator.required  # "+optional" in the KEP example
        assert [(m.json_name, m.value) for m in u.members] == [
            ("fieldA", "FieldA"),
            ("fieldB", "FieldB"),
        ]
        assert u.mode == "at-most-one"  # the 2019 KEP: "unions to be 'at most one of'"

    def test_union_deprecated_fields_with_discriminator(self, model: Model) -> None:
        u = only_union(struct(model, "kep000", "Union2"))
        assert (u.dialect, u.origin) == ("kep2019", "deprecated")
        assert u.discriminator is not None and u.discriminator.json_name == "type"
        assert [(m.json_name, m.value) for m in u.members] == [
            ("alpha", "Alpha"),
            ("beta", "Beta"),
        ]

    def test_inlined_union_keeps_only_its_own_member_union(self, model: Model) -> None:
        s = struct(model, "kep000", "InlinedUnion")
        u = only_union(s)
        assert u.discriminator is None
        assert [m.value for m in u.members] == ["Field1", "Field2"]
        inlined = [f.go_name for f in s.fields if f.inline]
        assert inlined == ["Union", "Union2"]

    def test_top_level_union_has_no_union_of_its_own(self, model: Model) -> None:
        s = struct(model, "kep000", "TopLevelUnion")
        assert s.unions == ()
        assert [f.go_name for f in s.fields if f.inline] == ["Union"]


class TestKep2022GoTags:
    """The 2022 draft "Go tags": `+unionMember=<discriminatorName>`."""

    def test_single_union_members_need_no_name(self, model: Model) -> None:
        u = only_union(struct(model, "kep001", "Union"))
        assert u.dialect == "kep2022"  # a plain string discriminator: no enum values
        assert u.discriminator is not None and u.discriminator.values == ()
        # Only FieldA carries +unionMember in the KEP's example.
        assert [m.go_name for m in u.members] == ["FieldA"]
        assert u.mode == "at-most-one"  # "+optional" discriminator: at most one

    def test_member_naming_the_discriminator_is_the_2022_form(self, model: Model) -> None:
        u = only_union(struct(model, "kep001", "Union2"))
        assert u.discriminator is not None and u.discriminator.required
        assert u.mode == "exactly-one"  # "+required": exactly one member set
        assert [(m.go_name, m.value) for m in u.members] == [
            ("Alpha", "Alpha"),
            ("Beta", "Beta"),
        ]
        mg310 = [d for d in model.diagnostics if d.code == "MG310" and "Union2." in d.message]
        assert len(mg310) == 2


class TestKep1027:
    """The current KEP "Go Markers", "Discriminator Values", "Empty Union Members"."""

    def test_enum_discriminator_members_and_empty_members(self, model: Model) -> None:
        u = only_union(struct(model, "kep004basic", "Union"))
        assert u.dialect == "kep1027"
        d = u.discriminator
        assert d is not None
        assert d.values == ("", "FieldA", "FieldB", "FieldC", "FieldD")
        assert d.required
        assert [(m.go_name, m.value, m.optional) for m in u.members] == [
            ("FieldA", "FieldA", False),
            ("FieldB", "FieldB", False),
        ]
        # FieldC, FieldD and "" select no member: "empty union members".
        assert u.empty_values == ("", "FieldC", "FieldD")

    def test_optional_flag_and_custom_member_names(self, model: Model) -> None:
        u = only_union(struct(model, "kep004inline", "Union"))
        assert [(m.go_name, m.optional) for m in u.members] == [
            ("FieldA", False),
            ("FieldB", True),
        ]
        u2 = only_union(struct(model, "kep004inline", "Union2"))
        assert [(m.go_name, m.value, m.optional) for m in u2.members] == [
            ("Alpha", "ALPHA", False),
            ("Beta", "BETA", True),
        ]
        # `Beta = "BETA"` is an untyped constant in Go: not a value of Union2Type.
        assert u2.discriminator is not None and u2.discriminator.values == ("ALPHA",)
        mg103 = [d for d in model.diagnostics if d.code == "MG103"]
        assert any("Beta" in d.message for d in mg103)

    def test_discriminated_by_names_the_discriminator(self, model: Model) -> None:
        u = only_union(struct(model, "kep004openapi", "Union"))
        assert u.discriminator is not None and u.discriminator.json_name == "union1"
        assert [(m.json_name, m.optional) for m in u.members] == [
            ("fieldA", False),
            ("fieldB", True),
        ]
        assert not [d for d in model.diagnostics if d.code in ("MG306", "MG203", "MG307")]
