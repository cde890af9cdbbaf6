"""Unit tests of the checker rules on hand-built models.

The harness (test_check_want.py) runs the same rules on real Go files; these tests pin
each rule's decision and message on a model whose every detail is visible here.
"""

from __future__ import annotations

from dataclasses import replace

from markergen.diagnostics import Diagnostic, Severity
from markergen.golang.syntax import JSONTag, Position
from markergen.markers import Marker
from markergen.model import (
    Discriminator,
    Enum,
    EnumValue,
    Field,
    Member,
    Model,
    NamedType,
    Struct,
    TypeRef,
    Union,
)
from markergen.rules import run_rules

PKG = "example.com/api"
STRING = TypeRef("builtin", "string", text="string")
INT = TypeRef("builtin", "int", text="int")


def pos(line: int, col: int = 2) -> Position:
    return Position("api/types.go", line, col)


def mk(name: str, value: str | None = None, line: int = 1, **args: str) -> Marker:
    return Marker(
        name=name,
        value=value,
        flags=(),
        args=tuple(args.items()),
        positional=(),
        raw="+" + name,
        pos=pos(line, 4),
    )


def named(name: str) -> TypeRef:
    return TypeRef("named", name, PKG, text=name)


def ptr(ref: TypeRef) -> TypeRef:
    return TypeRef("pointer", elem=ref, text="*" + ref.text)


def field(
    go: str,
    typ: TypeRef,
    line: int,
    *markers: Marker,
    json_name: str | None = None,
    omitempty: bool = False,
    optional: bool | None = None,
    required: bool = False,
    skip: bool = False,
    inline: bool = False,
    default: str | None = None,
) -> Field:
    jn = go[0].lower() + go[1:] if json_name is None else json_name
    return Field(
        go_name=go,
        json_name="" if inline else jn,
        type=typ,
        embedded=inline,
        inline=inline,
        json=JSONTag(present=True, name=jn, omitempty=omitempty, skip=skip, inline=inline),
        exported=go[0].isupper(),
        optional=(omitempty and not required) if optional is None else optional,
        required_marker=required,
        markers=markers,
        description="",
        patch_strategy="",
        patch_merge_key="",
        list_type="",
        list_map_keys=(),
        default=default,
        enum_values=(),
        pos=pos(line),
    )


def enum(name: str, *values: str, line: int = 1) -> Enum:
    return Enum(
        key=f"{PKG}.{name}",
        name=name,
        package=PKG,
        values=tuple(EnumValue(v or "None", v, "", pos(line + i)) for i, v in enumerate(values)),
        source="enum",
        pos=pos(line),
    )


def named_type(name: str, underlying: TypeRef, *markers: Marker, line: int = 1) -> NamedType:
    return NamedType(f"{PKG}.{name}", name, PKG, underlying, False, markers, "", pos(line))


def disc(f: Field, values: tuple[str, ...], enum_key: str | None = None) -> Discriminator:
    return Discriminator(
        go_name=f.go_name,
        json_name=f.json_name,
        type=f.type,
        enum=enum_key,
        values=tuple(sorted(values)),
        required=not f.optional,
        omitempty=f.json.omitempty,
        default=f.default,
        pos=f.pos,
    )


def member(f: Field, value: str | None = None, optional: bool = False) -> Member:
    return Member(f.go_name, f.json_name, value or f.go_name, optional, f.pos)


def union(
    d: Discriminator | None,
    *members: Member,
    dialect: str = "kep1027",
    origin: str = "discriminated",
) -> Union:
    return Union(
        struct=f"{PKG}.S",
        dialect=dialect,  # type: ignore[arg-type]
        origin=origin,  # type: ignore[arg-type]
        name=d.go_name if d else "",
        discriminator=d,
        members=members,
        empty_values=(),
        mode="exactly-one",
        semantics="kep1027",
        pos=d.pos if d else pos(1),
    )


def struct(fields: tuple[Field, ...], *unions: Union, markers: tuple[Marker, ...] = ()) -> Struct:
    return Struct(f"{PKG}.S", "S", PKG, fields, unions, markers, "", pos(1, 6))


def model(s: Struct, enums: tuple[Enum, ...] = (), types: tuple[NamedType, ...] = ()) -> Model:
    # Every enum is also a named string type, as the builder records it.
    all_types = (*types, *(named_type(e.name, STRING, mk("enum"), line=e.pos.line) for e in enums))
    return Model(
        packages=(),
        structs={s.key: s},
        types={t.key: t for t in all_types},
        enums={e.key: e for e in enums},
    )


def codes(diags: list[Diagnostic]) -> list[tuple[str, int]]:
    return [(d.code, d.pos.line) for d in diags]


# The the current KEP "Examples" Union2, as the builder forms it: Beta = "BETA" is untyped, so the
# enum Union2Type has the single value "ALPHA".
UNION2_ENUM = enum("Union2Type", "ALPHA")
TYPE2 = field(
    "Type2", named("Union2Type"), 10, mk("unionDiscriminator"), json_name="type", required=True
)
ALPHA = field("Alpha", ptr(INT), 12, mk("unionMember", "ALPHA", line=11), omitempty=True)
BETA = field("Beta", ptr(INT), 14, mk("unionMember", "BETA", line=13), omitempty=True)


def union2_model(*extra: Field) -> Model:
    d = disc(TYPE2, UNION2_ENUM.value_set, UNION2_ENUM.key)
    u = union(d, member(ALPHA, "ALPHA"), member(BETA, "BETA"))
    return model(struct((TYPE2, ALPHA, BETA, *extra), u), (UNION2_ENUM,))


def test_mg303_kep004_union2_beta_is_not_a_value() -> None:
    # the current KEP "Go Markers": memberName "MUST correspond to one of the valid enum values".
    diags = run_rules(union2_model())
    assert codes(diags) == [("MG303", 13)]
    assert diags[0].message == (
        'member Beta of union S.type has value "BETA", which is not a value of enum '
        'Union2Type ("ALPHA")'
    )
    assert diags[0].severity is Severity.ERROR


def test_mg303_hint_suggests_case_variant() -> None:
    d = disc(TYPE2, ("ALPHA", "BETA"), UNION2_ENUM.key)
    alpha = field("Alpha", ptr(INT), 12, mk("unionMember", "Alpha", line=11), omitempty=True)
    u = union(d, member(alpha, "Alpha"))
    diags = run_rules(model(struct((TYPE2, alpha), u), (UNION2_ENUM,)))
    assert codes(diags) == [("MG303", 11)]
    # the edit that makes it the enum value it differs from only in case
    assert diags[0].hint == "write `+unionMember=ALPHA` instead of `+unionMember=Alpha`"


def test_mg303_not_reported_without_enum_values() -> None:
    # kep2022: a plain string discriminator has no values to check against (MG201 warns).
    plain = field("Type", STRING, 10, mk("unionDiscriminator"), required=True)
    u = union(disc(plain, ()), member(ALPHA, "Anything"), dialect="kep2022")
    diags = run_rules(model(struct((plain, ALPHA), u)))
    assert codes(diags) == [("MG201", 10)]
    assert diags[0].severity is Severity.WARNING


def test_mg201_error_for_non_string() -> None:
    num = field("Type", INT, 10, mk("unionDiscriminator"), required=True)
    u = union(disc(num, ()), member(ALPHA), dialect="kep2022")
    diags = run_rules(model(struct((num, ALPHA), u)))
    assert codes(diags) == [("MG201", 10)]
    assert diags[0].severity is Severity.ERROR
    assert "type int, which is not a string" in diags[0].message


def test_mg201_string_through_named_type_is_fine() -> None:
    kind = named_type("Kind", STRING)
    f = field("Type", ptr(named("Kind")), 10, mk("unionDiscriminator"), required=True)
    u = union(disc(f, ("A",), None), member(ALPHA, "A"))
    assert run_rules(model(struct((f, ALPHA), u), types=(kind,))) == []


def test_mg202_required_without_default_option() -> None:
    opt = replace(TYPE2, optional=True, json=replace(TYPE2.json, omitempty=True))
    d = disc(opt, ("A", "B"), UNION2_ENUM.key)
    diags = run_rules(model(struct((opt,), union(d, member(ALPHA, "A"))), (UNION2_ENUM,)))
    assert ("MG202", 10) in codes(diags)
    assert "no default option" in next(x for x in diags if x.code == "MG202").message


def test_mg202_empty_string_option_needs_omitempty() -> None:
    # the current KEP "Go Markers": "omitempty if the default option is the empty string".
    d = disc(TYPE2, ("", "A"), UNION2_ENUM.key)
    diags = run_rules(model(struct((TYPE2, ALPHA), union(d, member(ALPHA, "A"))), (UNION2_ENUM,)))
    assert codes(diags) == [("MG202", 10)]
    with_omitempty = replace(TYPE2, json=replace(TYPE2.json, omitempty=True))
    d2 = disc(with_omitempty, ("", "A"), UNION2_ENUM.key)
    m2 = model(struct((with_omitempty, ALPHA), union(d2, member(ALPHA, "A"))), (UNION2_ENUM,))
    assert run_rules(m2) == []


def test_mg202_and_mg206_with_default_marker() -> None:
    f = field(
        "Type",
        named("Union2Type"),
        10,
        mk("unionDiscriminator"),
        json_name="type",
        required=True,
        default='"C"',
    )
    d = disc(f, ("A", "B"), UNION2_ENUM.key)
    diags = run_rules(model(struct((f, ALPHA), union(d, member(ALPHA, "A"))), (UNION2_ENUM,)))
    assert codes(diags) == [("MG202", 10), ("MG206", 10)]
    assert "lacks +optional and omitempty" in diags[0].message
    # A required discriminator with a default breaks the current KEP's MUST, but the API
    # server and the documents tolerate it: a warning that says what goes wrong.
    assert diags[0].severity.value == "warning"
    assert 'a Go client that leaves it unset sends "", which the enum rejects' in diags[0].message
    assert '("A", "B")' in diags[1].message
    good = field(
        "Type",
        named("Union2Type"),
        10,
        mk("unionDiscriminator"),
        json_name="type",
        omitempty=True,
        default="A",
    )
    d = disc(good, ("A", "B"), UNION2_ENUM.key)
    m = model(struct((good, ALPHA), union(d, member(ALPHA, "A"))), (UNION2_ENUM,))
    assert run_rules(m) == []


def test_mg202_only_for_kep1027() -> None:
    f = field("Type", STRING, 10, mk("unionDiscriminator"), omitempty=True)
    u = union(disc(f, ()), member(ALPHA), dialect="kep2019", origin="struct")
    assert codes(run_rules(model(struct((f, ALPHA), u)))) == []


def test_mg204_discriminator_also_member() -> None:
    f = replace(TYPE2, markers=(mk("unionDiscriminator", line=8), mk("unionMember", line=9)))
    d = disc(f, ("ALPHA",), UNION2_ENUM.key)
    diags = run_rules(model(struct((f, ALPHA), union(d, member(ALPHA, "ALPHA"))), (UNION2_ENUM,)))
    assert codes(diags) == [("MG204", 9)]  # at the member marker, the one that is wrong
    assert "+unionMember" in diags[0].message


def test_mg205_hint_lists_matching_fields() -> None:
    d = disc(TYPE2, ("ALPHA",), UNION2_ENUM.key)
    plain_alpha = field("Alpha", ptr(INT), 12, omitempty=True)
    other = field("Other", ptr(INT), 13, omitempty=True)
    diags = run_rules(model(struct((TYPE2, plain_alpha, other), union(d)), (UNION2_ENUM,)))
    assert codes(diags) == [("MG205", 1)]  # at the +unionDiscriminator marker (line 1 here)
    assert diags[0].hint is not None and "`// +unionMember=ALPHA` above Alpha" in diags[0].hint
    assert "Other" not in diags[0].hint


def test_mg301_and_mg302() -> None:
    bare = field("Gamma", INT, 16, mk("unionMember", "GAMMA"))  # not optional, no omitempty
    as_struct = field("Delta", named("S"), 17, mk("unionMember"), omitempty=True)
    d = disc(TYPE2, ("DELTA", "GAMMA"), UNION2_ENUM.key)
    u = union(d, member(bare, "GAMMA"), member(as_struct, "DELTA"))
    diags = run_rules(model(struct((TYPE2, bare, as_struct), u), (UNION2_ENUM,)))
    assert codes(diags) == [("MG301", 16), ("MG302", 16), ("MG302", 17)]
    assert "struct value" in diags[2].message


def test_mg302_named_map_type_is_nillable() -> None:
    labels = named_type("Labels", TypeRef("map", key=STRING, elem=STRING, text="map[string]string"))
    f = field("Labels", named("Labels"), 16, mk("unionMember"), optional=True)
    d = disc(TYPE2, ("Labels",), UNION2_ENUM.key)
    m = model(struct((TYPE2, f), union(d, member(f, "Labels"))), (UNION2_ENUM,), (labels,))
    assert run_rules(m) == []


def test_mg304_duplicate_values() -> None:
    d = disc(TYPE2, ("ALPHA",), UNION2_ENUM.key)
    beta = replace(BETA, markers=(mk("unionMember", "ALPHA", line=13),))
    u = union(d, member(ALPHA, "ALPHA"), member(beta, "ALPHA"))
    diags = run_rules(model(struct((TYPE2, ALPHA, beta), u), (UNION2_ENUM,)))
    # Beta's memberName "ALPHA" also differs from its JSON name "beta", but a wrong
    # value is reported once, as MG304 (no MG305 beside it).
    assert codes(diags) == [("MG304", 13)]
    assert "Alpha and Beta" in diags[0].message


def test_mg305_member_name_differs_from_json() -> None:
    odd = field("Alpha", ptr(INT), 12, mk("unionMember", "First", line=11), omitempty=True)
    d = disc(TYPE2, ("First",), UNION2_ENUM.key)
    diags = run_rules(model(struct((TYPE2, odd), union(d, member(odd, "First"))), (UNION2_ENUM,)))
    assert codes(diags) == [("MG305", 11)]
    # k8s dialect: memberName comes from the marker's argument.
    k8s = field("Alpha", ptr(INT), 12, mk("k8s:unionMember", memberName="ALPHA"), omitempty=True)
    u = union(disc(TYPE2, ("ALPHA",), UNION2_ENUM.key), member(k8s, "ALPHA"), dialect="k8s")
    assert run_rules(model(struct((TYPE2, k8s), u), (UNION2_ENUM,))) == []


def test_mg308_skipped_and_unexported() -> None:
    hidden = field("Alpha", ptr(INT), 12, mk("unionMember", "ALPHA"), omitempty=True, skip=True)
    low = field("beta", ptr(INT), 14, mk("unionMember"), omitempty=True)
    d = disc(TYPE2, ("ALPHA",), UNION2_ENUM.key)
    diags = run_rules(
        model(struct((TYPE2, hidden, low), union(d, member(hidden, "ALPHA"))), (UNION2_ENUM,))
    )
    assert codes(diags) == [("MG308", 12), ("MG308", 14)]
    assert 'json:"-"' in diags[0].message and "unexported" in diags[1].message


def test_mg101_and_mg102() -> None:
    # An int enum is read (MG021, from the model's enums); a slice cannot be one.
    number = named_type(
        "Number", TypeRef("slice", elem=STRING, text="[]string"), mk("enum", line=3), line=4
    )
    empty = enum("Empty", line=7)
    text = named_type("Empty", STRING, mk("enum"), line=7)
    m = Model(packages=(), types={number.key: number, text.key: text}, enums={empty.key: empty})
    diags = run_rules(m)
    assert codes(diags) == [("MG101", 3), ("MG102", 7)]  # MG101 at the +enum marker
    assert "underlying type is []string" in diags[0].message


def test_kep2019_rules() -> None:
    kind = field("UnionType", STRING, 3, mk("unionDiscriminator"), omitempty=True)
    inlined = field("Base", named("Base"), 4, inline=True)
    dep = field("Alpha", INT, 5, mk("unionDeprecated", line=5), optional=True)
    s = struct(
        (kind, inlined, dep),
        union(disc(kind, ()), member(dep), dialect="kep2019", origin="struct"),
        markers=(mk("union"),),
    )
    diags = run_rules(model(s))
    # MG403 and not MG302 for the +unionDeprecated int (one finding, one fix).
    assert codes(diags) == [("MG401", 4), ("MG402", 5), ("MG403", 5)]
    assert "not a pointer and not omitempty" in diags[2].message
    assert all(d.pos.column == 2 for d in diags)  # at the field, where `// want` goes


def test_output_is_sorted_and_deduplicated() -> None:
    m = union2_model()
    assert run_rules(m) == run_rules(m)
    bad = [
        *run_rules(
            model(struct((TYPE2, BETA, ALPHA), *m.structs[f"{PKG}.S"].unions), (UNION2_ENUM,))
        )
    ]
    assert bad == sorted(bad, key=Diagnostic.sort_key)


def test_mg303_hint_offers_a_free_value_as_the_alternative_in_plain_words() -> None:
    # A value no member claims that is not a case variant: the primary edit adds the
    # member's value to the enum, the alternative gives the member the free value.
    values = enum("Union2Type", "ALPHA", "GAMMA")
    d = disc(TYPE2, values.value_set, values.key)
    u = union(d, member(ALPHA, "ALPHA"), member(BETA, "BETA"))
    diags = run_rules(model(struct((TYPE2, ALPHA, BETA), u), (values,)))
    assert codes(diags) == [("MG303", 13)]
    hint = diags[0].hint
    assert hint is not None
    assert hint.endswith(" (or write `+unionMember=GAMMA` instead of `+unionMember=BETA`)")
    assert "instead `" not in hint
