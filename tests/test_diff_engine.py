"""diff's Go classification asks the union engine (markergen/accept/compare.py).

Each change kind is tried on small surfaces built by hand (the union `Payment` of a
discriminator `method` and members `card` and `cash`): its class, and for a breaking
change the witness, an object the base accepts and the head refuses, each written from
what the API server does with the markers' rules (tests/test_apiserver_diff_go.py
checks the witnesses of the Go cases on the real server). The engine's verdicts are held
to the reference of what a union accepts, `markergen.accept.union`, on generated unions.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from test_runtime_reference import _sources

from markergen.accept.compare import Side, refused, states
from markergen.accept.compare import tests as verdict_tests
from markergen.accept.space import ABSENT
from markergen.accept.union import family, family_k8s
from markergen.diff.classify import compare
from markergen.diff.surface import (
    ALL_FACTS,
    DiscriminatorSurface,
    MemberSurface,
    Surface,
    TypeSurface,
    UnionSurface,
    surface_from_model,
)
from markergen.model import Model, Union
from markergen.pipeline import load_model

CARD = MemberSurface("card", "Card", False)
CASH = MemberSurface("cash", "Cash", False)
METHOD = DiscriminatorSurface("method", True, ("Card", "Cash"), None)
PAYMENT = UnionSurface(METHOD, (CARD, CASH), "exactly-one", "kep1027")
FIELDS = frozenset({"method", "card", "cash"})
Row = tuple[str, str, str | None, dict[str, Any] | None]


def side(
    union: UnionSurface | None,
    fields: frozenset[str] = FIELDS,
    package: str = "example.com/shop/api/v1",
    required: frozenset[str] = frozenset(),
    enums: dict[str, tuple[str, ...]] | None = None,
) -> Surface:
    t = TypeSurface(
        "com.example.shop.api.v1.Payment",
        fields,
        () if union is None else (union,),
        enums or {},
        package=package,
        go_name="Payment",
        required=required,
    )
    return Surface({t.name: t}, ALL_FACTS, "test")


def rows(base: Surface, head: Surface) -> list[Row]:
    """The changes, each with its witness (None: none), in the report's order."""
    return [
        (c.classification, c.kind, c.field, None if c.witness is None else json.loads(c.witness))
        for c in compare(base, head)
    ]


def disc(**changes: Any) -> UnionSurface:
    return replace(PAYMENT, discriminator=replace(METHOD, **changes))


WITH_NONE = disc(values=("Card", "Cash", "None"))
OPTIONAL = disc(required=False)
K8S_ONE_OF = UnionSurface(None, (CARD, CASH), "at-most-one", "k8s")

CASES: dict[str, tuple[Surface, Surface, list[Row]]] = {
    # kept from the former table: a member gone with its field and value
    "member-removed": (
        side(PAYMENT),
        side(replace(disc(values=("Card",)), members=(CARD,)), FIELDS - {"cash"}),
        [("breaking", "member-removed", "cash", {"method": "Cash", "cash": {}})],
    ),
    "member-added/new": (
        side(PAYMENT, FIELDS - {"voucher"}),
        side(
            replace(
                disc(values=("Card", "Cash", "Voucher")),
                members=(CARD, CASH, MemberSurface("voucher", "Voucher", False)),
            ),
            FIELDS | {"voucher"},
        ),
        [("compatible", "member-added", "voucher", None)],
    ),
    # an existing field joins: an object that set it with another member is refused
    "member-added/existing": (
        side(PAYMENT, FIELDS | {"voucher"}),
        side(
            replace(
                disc(values=("Card", "Cash", "Voucher")),
                members=(CARD, CASH, MemberSurface("voucher", "Voucher", False)),
            ),
            FIELDS | {"voucher"},
        ),
        [
            (
                "breaking",
                "member-added",
                "voucher",
                {"method": "Card", "card": {}, "voucher": {}},
            )
        ],
    ),
    # "None" selected nothing; now it needs `none`
    "member-added/empty-value": (
        side(WITH_NONE),
        side(
            replace(WITH_NONE, members=(CARD, CASH, MemberSurface("none", "None", False))),
            FIELDS | {"none"},
        ),
        [("breaking", "member-added", "none", {"method": "None"})],
    ),
    "member-renamed": (
        side(PAYMENT),
        side(
            replace(
                disc(values=("Card", "Coins")),
                members=(CARD, MemberSurface("cash", "Coins", False)),
            )
        ),
        [("breaking", "member-renamed", "cash", {"method": "Cash", "cash": {}})],
    ),
    "member-optional-to-required": (
        side(replace(PAYMENT, members=(CARD, replace(CASH, optional=True)))),
        side(PAYMENT),
        [("breaking", "member-optional-to-required", "cash", {"method": "Cash"})],
    ),
    "member-required-to-optional": (
        side(PAYMENT),
        side(replace(PAYMENT, members=(CARD, replace(CASH, optional=True)))),
        [("compatible", "member-required-to-optional", "cash", None)],
    ),
    "discriminator-optional-to-required": (
        side(OPTIONAL),
        side(PAYMENT),
        [("breaking", "discriminator-optional-to-required", "method", {})],
    ),
    "discriminator-required-to-optional": (
        side(PAYMENT),
        side(OPTIONAL),
        [("compatible", "discriminator-required-to-optional", "method", None)],
    ),
    # the former table called a default added compatible; the server defaults `method`
    # to "Card" and then requires `card`
    "discriminator-default-added/selects-a-member": (
        side(OPTIONAL),
        side(disc(required=False, default='"Card"')),
        [("breaking", "discriminator-default-changed", "method", {})],
    ),
    "discriminator-default-added/selects-nothing": (
        side(disc(values=("Card", "Cash", "None"), required=False)),
        side(disc(values=("Card", "Cash", "None"), required=False, default='"None"')),
        [("compatible", "discriminator-default-changed", "method", None)],
    ),
    "discriminator-default-changed": (
        side(disc(required=False, default='"Card"')),
        side(disc(required=False, default='"Cash"')),
        [("breaking", "discriminator-default-changed", "method", {"card": {}})],
    ),
    "discriminator-enum-added": (
        side(disc(values=())),
        side(PAYMENT),
        [("breaking", "discriminator-enum-added", "method", {"method": "other"})],
    ),
    "discriminator-enum-removed": (
        side(PAYMENT),
        side(disc(values=())),
        [("compatible", "discriminator-enum-removed", "method", None)],
    ),
    "discriminator-renamed": (
        side(PAYMENT),
        side(disc(field="kind"), FIELDS - {"method"} | {"kind"}),
        [("breaking", "discriminator-renamed", "kind", {"method": "Card", "card": {}})],
    ),
    "discriminator-removed/field-gone": (
        side(PAYMENT),
        side(replace(PAYMENT, discriminator=None), FIELDS - {"method"}),
        [("breaking", "discriminator-removed", "method", {"method": "Card", "card": {}})],
    ),
    "discriminator-removed/field-kept": (
        side(PAYMENT),
        side(replace(PAYMENT, discriminator=None)),
        [("compatible", "discriminator-removed", "method", None)],
    ),
    # the engine, not the former table: "None" selected no member, and the head's
    # exactly-one union (the field kept) refuses an object with no member
    "discriminator-removed/field-kept-empty-value": (
        side(WITH_NONE),
        side(replace(PAYMENT, discriminator=None)),
        [("breaking", "discriminator-removed", "method", {"method": "None"})],
    ),
    "discriminator-added/required": (
        side(K8S_ONE_OF),
        side(replace(K8S_ONE_OF, discriminator=METHOD)),
        [("breaking", "discriminator-added", "method", {})],
    ),
    "union-mode-changed/stricter": (
        side(K8S_ONE_OF),
        side(replace(K8S_ONE_OF, mode="exactly-one")),
        [("breaking", "union-mode-changed", None, {})],
    ),
    "union-mode-changed/looser": (
        side(replace(K8S_ONE_OF, mode="exactly-one")),
        side(K8S_ONE_OF),
        [("compatible", "union-mode-changed", None, None)],
    ),
    "union-added/existing-fields": (
        side(None),
        side(K8S_ONE_OF),
        [("breaking", "union-added", None, {"card": {}, "cash": {}})],
    ),
    "union-added/new-fields": (
        side(None, frozenset({"note"})),
        side(K8S_ONE_OF, frozenset({"note", "card", "cash"})),
        [("compatible", "union-added", None, None)],
    ),
    # the former table called this compatible: the base's objects have no `method`
    "union-added/new-fields-required-discriminator": (
        side(None, frozenset({"note"})),
        side(PAYMENT, frozenset({"note"}) | FIELDS),
        [("breaking", "union-added", "method", {})],
    ),
    # a built-in type's hand-written validation enforced the union before the tags
    "union-declared": (
        side(None, package="k8s.io/api/shop/v1"),
        side(K8S_ONE_OF, package="k8s.io/api/shop/v1"),
        [("compatible", "union-declared", None, None)],
    ),
    "union-removed/fields-kept": (
        side(PAYMENT),
        side(None),
        [("compatible", "union-removed", "method", None)],
    ),
    "union-removed/fields-gone": (
        side(PAYMENT),
        side(None, frozenset({"note"})),
        [("breaking", "union-removed", "method", {"method": "Card", "card": {}})],
    ),
    "enum-value-removed": (
        side(WITH_NONE),
        side(PAYMENT),
        [("breaking", "enum-value-removed", "method", {"method": "None"})],
    ),
    "enum-value-added": (
        side(PAYMENT),
        side(WITH_NONE),
        [("compatible", "enum-value-added", "method", None)],
    ),
    # a named rule: the designs differ in what the server does to an object
    "union-dialect-changed": (
        side(replace(PAYMENT, dialect="kep2019", members=(replace(CARD, value="Card"), CASH))),
        side(PAYMENT),
        [("breaking", "union-dialect-changed", "method", None)],
    ),
    # a plain enum: classed by the engine, no witness (it may be on list items)
    "enum-added": (
        side(None, frozenset({"priority"})),
        side(None, frozenset({"priority"}), enums={"priority": ('"High"', '"Low"')}),
        [("breaking", "enum-added", "priority", None)],
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_change_is_classed_by_the_objects_each_side_accepts(case: str) -> None:
    base, head, expected = CASES[case]
    assert rows(base, head) == expected


def test_a_required_field_of_the_base_is_set_in_the_witness() -> None:
    """The former table's "new union over existing fields": `method` was required, so the
    witness sets it; the head's union then requires the member it selects."""
    base = side(None, required=frozenset({"method"}))
    (row,) = rows(base, side(PAYMENT, required=frozenset({"method"})))
    assert row == ("breaking", "union-added", "method", {"method": "Card"})


def test_an_undeclared_field_is_refused_and_never_in_a_witness() -> None:
    base = Side(PAYMENT.engine(ALL_FACTS), known=frozenset({"method", "card"}))
    head = replace(base, known=frozenset({"method"}))
    assert refused(base, head) == {"method": "Card", "card": {}}
    # the base never sets `cash` (it does not declare it), so nothing else is refused
    assert refused(head, base) is None


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Model:
    root: Path = tmp_path_factory.mktemp("unions")
    (root / "go.mod").write_text("module example.com/unions\n\ngo 1.21\n")
    (root / "v1").mkdir()
    text = "package v1\n\n// M is a member's value.\ntype M struct {\n"
    text += '\tX string `json:"x,omitempty"`\n}\n' + "".join(_sources())
    (root / "v1" / "types.go").write_text(text)
    return load_model(["./..."], root)


def _probes(union: Union) -> list[tuple[dict[str, Any], bool]]:
    disc = union.discriminator
    enum = list(disc.values) if disc is not None and disc.values else None
    if union.semantics == "k8s":
        types = {m.json_name: "object" for m in union.members}
        return [(p.obj, p.allowed) for p in family_k8s(union, union.members, enum, types)]
    return [(p.obj, p.allowed) for p in family(union, union.members, enum)]


def test_the_engine_gives_the_reference_verdict_on_generated_unions(generated: Model) -> None:
    """On every object of each generated union's family (markergen.accept.union), the
    side diff builds from the Go surface accepts exactly what the reference allows."""
    surface = surface_from_model(generated)
    tried = 0
    wrong: list[str] = []
    for struct in generated.structs.values():
        t = surface.types.get(f"com.example.unions.v1.{struct.name}")
        if t is None or len(struct.unions) != 1:
            continue
        (u,) = t.unions
        s = Side(u.engine(ALL_FACTS), t.fields, t.required)
        fields, _ = states([s])
        checks = verdict_tests(s, fields)
        for obj, allowed in _probes(struct.unions[0]):
            a = {i: obj.get(f, ABSENT) for i, f in enumerate(fields)}
            tried += 1
            if all(c.holds(a) for c in checks) != allowed:
                wrong.append(f"{struct.name} ({u.dialect}): {obj} allowed={allowed}")
    assert tried > 300
    assert not wrong, "\n".join(wrong)
