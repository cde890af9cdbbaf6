"""The current KEP's own examples, checked: exactly the diagnostics the KEP's text implies.

The examples are in testdata/check/kep/ (verbatim but for what the rendered page lost; each
file says what was restored). Every expected diagnostic below is explained by the KEP
sentence that implies it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from markergen.pipeline import load_model
from markergen.rules import all_diagnostics

ROOT = Path(__file__).resolve().parent.parent / "testdata" / "check"

EXPECTED: dict[str, list[tuple[str, int]]] = {
    # the current KEP "Examples", first block.
    "kep004_examples": [
        # "Go Markers": the discriminator MUST be "omitempty if the default option is the
        # empty string"; FieldNone UnionType = "" makes "" the default option (an unset
        # string is ""), and the field has no json tag at all, so no omitempty.
        ("MG202", 19),
        # FieldA / FieldB are `int` without omitempty: the zero value is always written,
        # so "Validation" (the selected member "is empty and not marked as optional")
        # cannot be decided from the JSON. A warning only.
        ("MG302", 23),
        ("MG302", 26),
    ],
    # the current KEP "Examples", second block (TopLevelUnion, Union, Union2).
    "kep004_spanning": [
        # Union: same as above, now with json tags but still without omitempty.
        ("MG202", 28),
        ("MG302", 32),
        ("MG302", 35),
        # `Beta = "BETA"` is an untyped constant in Go: not a value of Union2Type.
        ("MG103", 43),
        # Union2's int members: MG302 as above.
        ("MG302", 54),
        # "Go Markers": memberName "MUST correspond to one of the valid enum values of the
        # discriminator's enum type"; Union2Type's only value is "ALPHA", so BETA fails
        # (reported at the `+unionMember=BETA` that names the value).
        ("MG303", 55),
        ("MG302", 57),
        # Not reported: +unionMember=ALPHA matches the JSON name "alpha"
        # case-insensitively (MG305), the required discriminator of Union2 has no ""
        # value and no default (MG202 satisfied), and TopLevelUnion inlining Union is
        # exactly what "unions can't span across multiple go structures" allows.
    ],
    # the current KEP "OpenAPI" (with +unionDiscriminatedBy=Union1 on each member).
    "kep004_openapi": [
        # The same "" option without omitempty, and the same int members.
        ("MG202", 21),
        ("MG302", 26),
        ("MG302", 30),
        # Not reported: +unionDiscriminatedBy=Union1 names the discriminator's Go name.
    ],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_kep004_example(name: str) -> None:
    model = load_model([f"./kep/{name}"], ROOT)
    got = [(d.code, d.pos.line) for d in all_diagnostics(model)]
    assert got == EXPECTED[name]


def test_kep004_union2_message_names_everything() -> None:
    model = load_model(["./kep/kep004_spanning"], ROOT)
    (mg303,) = [d for d in all_diagnostics(model) if d.code == "MG303"]
    assert mg303.message == (
        'member Beta of union Union2.type has value "BETA", which is not a value of enum '
        'Union2Type ("ALPHA")'
    )
    assert mg303.pos.file.endswith("kep/kep004_spanning/types.go")


def test_kep004_empty_union_members() -> None:
    # the current KEP "Empty Union Members": FieldC, FieldD and "" select no member; they are not
    # a problem (no MG205, no MG303), and the model lists them as empty values.
    model = load_model(["./kep/kep004_examples"], ROOT)
    (union,) = model.structs["example.com/check/kep/kep004_examples.Union"].unions
    assert union.empty_values == ("", "FieldC", "FieldD")
