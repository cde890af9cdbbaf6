"""Dialects as objects: each dialect is one module declaring its markers and traits; the
code downstream asks a union's traits, never its dialect's name, and names markers by
the registry's constants, never by string literals."""

from __future__ import annotations

import ast
from typing import get_args

from helpers import REPO

import markergen.markers as markers
from markergen.model import Dialect
from markergen.model.traits import TRAITS
from markergen.pipeline import load_model

UNION_MARKER_NAMES = {
    markers.UNION, markers.UNION_DEPRECATED, markers.UNION_DISCRIMINATOR, markers.UNION_MEMBER,
    markers.UNION_DISCRIMINATED_BY, markers.ENUM, markers.K8S_UNION_DISCRIMINATOR,
    markers.K8S_UNION_MEMBER, markers.K8S_ZERO_OR_ONE_OF_MEMBER, markers.K8S_ENUM,
    markers.KUBEBUILDER_ENUM,
}  # fmt: skip


def test_every_dialect_has_its_traits() -> None:
    assert sorted(TRAITS) == sorted(get_args(Dialect))
    assert all(name == traits.name for name, traits in TRAITS.items())


def test_union_traits_come_from_their_dialect() -> None:
    model = load_model(["./..."], REPO / "testdata" / "kep")
    seen = set()
    for struct in model.structs.values():
        for union in struct.unions:
            assert union.traits is TRAITS[union.dialect]
            seen.add(union.dialect)
    assert {"kep2019", "kep1027"} <= seen
    assert TRAITS["kep2019"].values_are_field_names and TRAITS["kep2019"].list_form_only
    assert TRAITS["kep1027"].discriminator_musts and not TRAITS["k8s"].discriminator_musts


def _string_literals(tree: ast.AST) -> list[tuple[str, int]]:
    """String constants, except inside `Literal[...]` types and the argument names of
    `marker.arg("union")`."""
    skip: set[int] = set()
    for n in ast.walk(tree):
        literal = isinstance(n, ast.Subscript) and getattr(n.value, "id", "") == "Literal"
        arg = isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "arg"
        if literal or arg:
            skip.update(id(c) for c in ast.walk(n))
    return [
        (n.value, n.lineno)
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skip
    ]


def test_no_dialect_name_branches_and_no_marker_name_literals_outside_their_homes() -> None:
    dialects = set(get_args(Dialect))
    wrong = []
    for path in sorted((REPO / "markergen").rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # The runtime may not import the registry, and its "union" is validation-gen's
        # error origin, not a marker.
        if rel != "markergen/markers.py" and not rel.startswith("markergen/runtime/"):
            wrong += [
                f"{rel}:{line}: marker name {s!r}"
                for s, line in _string_literals(tree)
                if s in UNION_MARKER_NAMES and s != "enum"
            ]
        # The diff compares documents, where the dialect is data (a table field).
        if rel.startswith(("markergen/model/dialects/", "markergen/diff/")):
            continue
        for node in ast.walk(tree):
            on_dialect = (
                isinstance(node, ast.Compare)
                and isinstance(node.left, ast.Attribute)
                and node.left.attr == "dialect"
            )
            if on_dialect and any(
                isinstance(c, ast.Constant) and c.value in dialects
                for c in node.comparators  # type: ignore[attr-defined]
            ):
                wrong.append(f"{rel}:{node.lineno}: branch on the dialect's name")
    assert wrong == []
