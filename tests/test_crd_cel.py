"""Kubernetes CEL property-name escaping and CEL string literals, checked against a real CEL implementation (cel-python)."""

from __future__ import annotations

import celpy
import pytest

from markergen.celcost.escape import escape_property
from markergen.crd.cel import cel_string


@pytest.mark.parametrize(
    ("name", "escaped"),
    [
        ("spec", "spec"),
        ("loadBalancer", "loadBalancer"),
        ("namespace", "__namespace__"),
        ("in", "__in__"),
        ("true", "__true__"),
        ("return", "__return__"),
        ("pvc-name", "pvc__dash__name"),
        ("a.b", "a__dot__b"),
        ("x/y", "x__slash__y"),
        ("a__b", "a__underscores__b"),
        ("_x", "_x"),
        ("kubernetes.io/os-name", "kubernetes__dot__io__slash__os__dash__name"),
    ],
)
def test_escape_property_follows_kubernetes(name: str, escaped: str) -> None:
    assert escape_property(name) == escaped


@pytest.mark.parametrize("name", ["1abc", "a b", "é", "a:b", ""])
def test_unreachable_names_have_no_escape(name: str) -> None:
    assert escape_property(name) is None


@pytest.mark.parametrize(
    "value", ["", "Email", "it's", 'say "hi"', "back\\slash", "line\nbreak", "tab\tx", "ü"]
)
def test_cel_string_literal_evaluates_to_the_value(value: str) -> None:
    env = celpy.Environment()
    program = env.program(env.compile(f"{cel_string(value)} == v"))
    assert program.evaluate({"v": celpy.celtypes.StringType(value)}) == celpy.celtypes.BoolType(
        True
    )
