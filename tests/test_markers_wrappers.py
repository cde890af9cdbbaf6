"""validation-gen's path wrappers in the marker grammar: `+k8s:item(...)=`,
`+k8s:subfield(name)=`, `+k8s:eachVal=`, `+k8s:eachKey=` yield their payload with the
wrapper's step in `via`, outermost first, nested with the gate and stage prefixes."""

from __future__ import annotations

from markergen.golang.syntax import Position
from markergen.markers import (
    K8S_EACH_VAL,
    K8S_ITEM,
    K8S_SUBFIELD,
    K8S_UNION_MEMBER,
    Marker,
    MarkerError,
    Wrap,
    parse_line,
)

AT = Position("f.go", 3, 1)


def _marker(text: str) -> Marker:
    m = parse_line(text, AT)
    assert isinstance(m, Marker), m
    return m


def test_item_keeps_typed_criteria_in_order() -> None:
    m = _marker(' +k8s:item(port: 80, tls: true, name: "a")=+k8s:zeroOrOneOfMember')
    assert m.name == "k8s:zeroOrOneOfMember"
    assert m.via == (Wrap(K8S_ITEM, selector=(("port", "80"), ("tls", "true"), ("name", '"a"'))),)
    assert m.via[0].selector_text() == '{"port": 80, "tls": true, "name": "a"}'


def test_wrappers_nest_inside_gates_and_stages() -> None:
    m = _marker(' +k8s:ifDisabled(G)=+k8s:eachVal=+k8s:subfield(x)=+k8s:unionMember(union: "u")')
    assert (m.name, m.gate, m.gate_disabled, m.arg("union")) == (K8S_UNION_MEMBER, "G", True, "u")
    assert m.via == (Wrap(K8S_EACH_VAL), Wrap(K8S_SUBFIELD, name="x"))
    beta = _marker(' +k8s:beta(since: "1.37")=+k8s:item(type: "Approved")=+k8s:unionMember')
    assert (beta.stage, beta.since, beta.via[0].selector) == (
        "beta",
        "1.37",
        (("type", '"Approved"'),),
    )


def test_a_payload_that_is_no_marker_keeps_the_line_as_the_wrapper() -> None:
    m = _marker(" +k8s:item(positional)=payload")
    assert (m.name, m.value, m.positional, m.via) == (K8S_ITEM, "payload", ("positional",), ())


def test_wrong_arity_is_malformed_at_the_arguments() -> None:
    err = parse_line(" +k8s:subfield(a, b)=+k8s:unionMember", AT)
    assert isinstance(err, MarkerError) and "1 positional argument" in err.message
    assert err.pos.column == AT.column + 1 + len("+k8s:subfield")
