"""The field-lookup service (markergen/model/lookup.py) on real Go text: a struct's JSON
fields as encoding/json finds them, through embedded structs with and without
`json:",inline"`, pointers, depth and tag conflicts, `json:"-"` and cycles; and the
controller-gen union markers that name promoted fields (testdata/check/promotion)."""

from __future__ import annotations

from pathlib import Path

import pytest

from markergen.model import Model
from markergen.model.lookup import JSONFields, model_lookup
from markergen.pipeline import check_model, load_model

ROOT = Path(__file__).resolve().parent.parent / "testdata" / "check"
PKG = "example.com/check/promotion"


@pytest.fixture(scope="module")
def model() -> Model:
    return load_model(["./promotion"], ROOT)


def fields(model: Model, name: str) -> JSONFields:
    return model_lookup(model).of(f"{PKG}.{name}")


def test_inline_untagged_and_pointer_embeddings_promote_the_fields(model: Model) -> None:
    for name in ("OnlyInlined", "Untagged", "PointerEmbed"):
        found = fields(model, name)
        assert found.names() == ("a", "b"), name
        assert [f.path() for f in found.fields] == ["FooFields.A", "FooFields.B"]
        assert {f.owner for f in found.fields} == {f"{PKG}.FooFields"}
        assert [f.depth for f in found.fields] == [1, 1]


def test_shared_fields_plus_one_keep_go_field_order(model: Model) -> None:
    assert fields(model, "SharedPlusOne").names() == ("a", "b", "c")


def test_an_embedded_struct_with_a_json_name_is_one_nested_field(model: Model) -> None:
    found = fields(model, "Nested")
    assert found.names() == ("foo",)
    assert not found.fields[0].via


def test_json_dash_hides_the_embedded_struct(model: Model) -> None:
    assert fields(model, "Skipped").names() == ("d",)


def test_equal_depth_both_tagged_drops_the_name(model: Model) -> None:
    found = fields(model, "Tie")
    assert found.names() == ("l", "r")
    dropped = found.drop("name")
    assert dropped is not None
    assert [c.path() for c in dropped.candidates] == ["Left.Name", "Right.Name"]
    assert found.get("name") is None


def test_equal_depth_the_tagged_field_wins(model: Model) -> None:
    found = fields(model, "TaggedWins")
    winner = found.get("Name")
    assert winner is not None and winner.owner == f"{PKG}.Tagged" and winner.tagged
    assert [f.owner for f in found.hidden("Name")] == [f"{PKG}.Untag"]
    assert found.dropped == ()


def test_the_shallowest_field_wins(model: Model) -> None:
    found = fields(model, "Shadow")
    mode = found.get("mode")
    assert mode is not None and mode.depth == 0 and mode.owner == f"{PKG}.Shadow"
    assert [f.path() for f in found.hidden("mode")] == ["Deep.Mode"]
    assert found.names() == ("x", "mode")


def test_fields_two_levels_down(model: Model) -> None:
    found = fields(model, "Deeper")
    x = found.get("x")
    assert x is not None and x.path() == "Wrapper.Deep.X" and x.depth == 2
    assert found.names() == ("mode", "x", "w")


def test_a_struct_embedding_itself_is_explored_once(model: Model) -> None:
    assert fields(model, "Loop").names() == ("v", "u")


def test_one_struct_reached_twice_at_one_depth_loses_its_fields(model: Model) -> None:
    found = fields(model, "Twice")
    assert found.names() == ("t",)
    assert sorted(d.name for d in found.dropped) == ["a", "b"]


def test_an_embedded_non_struct_type_is_a_field_named_after_it(model: Model) -> None:
    (label,) = fields(model, "WithLabel").fields
    assert (label.name, label.tagged, label.via) == ("Label", False, ())


def test_an_unexported_embedded_struct_still_promotes(model: Model) -> None:
    assert fields(model, "HasHidden").names() == ("h", "k")


def test_controller_gen_unions_take_promoted_members(model: Model) -> None:
    def members(name: str) -> list[tuple[str, str, int]]:
        (union,) = model.structs[f"{PKG}.{name}"].unions
        return [(m.go_name, m.json_name, m.pos.line) for m in union.members]

    assert members("OnlyInlined") == [("A", "a", 8), ("B", "b", 10)]
    assert members("PointerEmbed") == [("A", "a", 8), ("B", "b", 10)]
    assert [m[1] for m in members("SharedPlusOne")] == ["a", "b", "c"]
    # Shadow's own mode, not Deep's
    shadow = model.structs[f"{PKG}.Shadow"]
    assert members("Shadow")[0] == ("Mode", "mode", shadow.field("Mode").pos.line)  # type: ignore[union-attr]
    assert [m[:2] for m in members("Deeper")] == [("X", "x"), ("W", "w")]


def test_mg341_hints_are_never_an_empty_marker(model: Model) -> None:
    found = [d for d in check_model(model) if d.code == "MG341"]
    assert len(found) == 7
    for d in found:
        assert d.hint is not None
        assert "=`" not in d.hint and "= " not in d.hint, d.hint
    by_line = {d.pos.line: d.hint for d in found}
    # a Go name maps to the JSON name of the promoted field
    assert any(
        "write `+kubebuilder:validation:ExactlyOneOf=a;b` instead of "
        "`+kubebuilder:validation:ExactlyOneOf=A;b`" in (h or "")
        for h in by_line.values()
    )
    # the tie names the real fields, and the marker without the dropped name
    tie = next(d for d in found if "same depth" in d.message)
    assert "Tie.Left.Name and Tie.Right.Name" in (tie.hint or "")
    assert "ExactlyOneOf=l;r`" in (tie.hint or "")
    # nothing close: the marker goes, with the real names listed
    lonely = next(d for d in found if "'zzz'" in d.message)
    assert (lonely.hint or "").startswith(
        "remove `// +kubebuilder:validation:ExactlyOneOf=zzz` from NothingClose"
    )
    assert "a, b" in (lonely.hint or "")


def test_a_struct_of_a_package_not_among_the_inputs_is_read_through_the_imports(
    model: Model,
) -> None:
    (union,) = model.structs[f"{PKG}.FromElsewhere"].unions
    assert [(m.json_name, Path(m.pos.file).name) for m in union.members] == [
        ("left", "pair.go"),
        ("right", "pair.go"),
        ("middle", "pair.go"),
    ]
    # the imported file is part of the cache key
    assert any(f.endswith("extern/pair.go") for f in model.files_read)


def test_an_embedded_struct_that_cannot_be_found_forms_no_union(model: Model) -> None:
    assert model.structs[f"{PKG}.Unfindable"].unions == ()
    found = fields(model, "Unfindable")
    assert found.names() == ("own",)
    assert [f.type.text for f in found.unread] == ["missing.Thing"]
