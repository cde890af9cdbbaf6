"""Precision of the reading diagnostics, at line and column.

- MG003 catches near-misses of every union and enum marker the registry knows (the list
  is the registry's, so a new marker is covered by adding it there);
- MG005 catches union and enum markers on variables and functions, as on constants;
- MG001 points at the line where tree-sitter's parse goes wrong.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from markergen.golang.parser import GoParser
from markergen.markers import REGISTRY, Target
from markergen.pipeline import check_model, load_model


def near_misses(name: str) -> list[str]:
    """Typos of a marker name: two letters swapped, one dropped, one doubled, and the
    case changed (in the last segment), and one letter dropped from a prefix."""
    prefix, sep, last = name.rpartition(":")
    typos = {last.lower(), last[:1].upper() + last[1:]}
    for i in range(len(last)):
        typos.add(last[:i] + last[i + 1 :])
        typos.add(last[:i] + last[i] + last[i:])
        if i + 1 < len(last):
            typos.add(last[:i] + last[i + 1] + last[i] + last[i + 2 :])
    out = {prefix + sep + t for t in typos if t and t != last}
    if prefix:
        cut = prefix.rfind(":") + 1  # the last prefix segment loses its last letter
        end = prefix.find(":", cut) if ":" in prefix[cut:] else len(prefix)
        out.add(prefix[: end - 1] + prefix[end:] + sep + last)
    return sorted(out)


UNION_AND_ENUM = sorted(n for n, d in REGISTRY.by_name.items() if d.union_or_enum)


def test_the_list_is_the_registrys() -> None:
    # `+unionDiscriminatedBy` and the controller-gen union markers are in it
    assert {"unionDiscriminatedBy", "kubebuilder:validation:ExactlyOneOf", "k8s:enum"} <= set(
        UNION_AND_ENUM
    )


@pytest.mark.parametrize("name", UNION_AND_ENUM)
def test_every_near_miss_suggests_the_marker(name: str) -> None:
    wrong = {typo: REGISTRY.suggest(typo) for typo in near_misses(name)}
    assert {t: s for t, s in wrong.items() if s != name} == {}


def test_other_generators_markers_are_no_near_miss() -> None:
    for name in (
        "kubebuilder:validation:items:Enum",
        "kubebuilder:validation:MinItems",
        "kubebuilder:printcolumn",
        "k8s:openapi-gen",
        "k8s:item",
        "k8s:eachVal",
        "genclient:nonNamespaced",
        "listType",
        "end",
        "item",
    ):
        assert REGISTRY.suggest(name) is None, name


def _module(tmp_path: Path, text: str) -> list[tuple[str, int, int, str]]:
    (tmp_path / "go.mod").write_text("module example.com/p\n", encoding="utf-8")
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "t.go").write_text(text, encoding="utf-8")
    model = load_model(["./..."], tmp_path)
    return [(d.code, d.pos.line, d.pos.column, d.hint or "") for d in check_model(model)]


@pytest.mark.parametrize("name", UNION_AND_ENUM)
def test_a_misspelt_marker_is_reported_at_its_plus(name: str, tmp_path: Path) -> None:
    prefix, sep, last = name.rpartition(":")
    typo = prefix + sep + last[:1] + last[2:]  # the second letter dropped
    field = Target.FIELD in REGISTRY.by_name[name].targets
    text = (
        f'package p\n\ntype S struct {{\n\t// +{typo}=a\n\tA *string `json:"a,omitempty"`\n}}\n'
        if field
        else f'package p\n\n// +{typo}=a\ntype S struct {{\n\tA *string `json:"a,omitempty"`\n}}\n'
    )
    found = [d for d in _module(tmp_path, text) if d[0] == "MG003"]
    line, column = (4, 5) if field else (3, 4)
    assert found == [
        (
            "MG003",
            line,
            column,
            f"write `+{name}` instead of `+{typo}` (or keep `+{typo}` if "
            "another generator reads it, and ignore this warning)",
        )
    ]


DECLARATIONS = """package p

// +enum
var A = 1

var (
	B = 2
	// +unionMember
	C = 3
)

// +kubebuilder:object:generate=false
// +union
func F() {}

// +unionDiscriminator
func (s S) M() {}

type S struct{}

// +k8s:deepcopy-gen=false
var D = 4
"""


def test_mg005_on_variables_and_functions_at_the_marker(tmp_path: Path) -> None:
    found = [d[:3] for d in _module(tmp_path, DECLARATIONS) if d[0] == "MG005"]
    assert found == [("MG005", 3, 4), ("MG005", 8, 5), ("MG005", 13, 4), ("MG005", 16, 4)]


def test_only_declarations_with_a_marker_line_are_kept() -> None:
    f = GoParser().parse("t.go", DECLARATIONS.encode())
    assert [(m.kind, m.name) for m in f.marked] == [
        ("var", "A"),
        ("var", "C"),
        ("func", "F"),
        ("func", "S.M"),
        ("var", "D"),
    ]


def test_a_syntax_error_in_a_struct_points_at_the_broken_field(tmp_path: Path) -> None:
    text = (
        'package p\n\ntype W struct {\n\tName string `json:"name"`\n'
        '\tMode string `json:"mode"\n\tSize int32\n}\n'
    )
    found = [d[:3] for d in _module(tmp_path, text)]
    assert found == [("MG001", 5, 2)]


def test_mg103_hint_types_a_value_like_the_enums_and_moves_one_unlike_them(
    tmp_path: Path,
) -> None:
    # openshift/api operator/v1: a container name "logs" in the const block of
    # LoggingDestinationType ("Container", "Syslog"): moving it out is the fix.
    text = (
        "package p\n\n// +enum\ntype Dest string\n\nconst (\n"
        '\tContainer Dest = "Container"\n\tSyslog Dest = "Syslog"\n'
        '\tSidecarName = "logs"\n\tOther = "Other"\n)\n'
    )
    found = {d[1]: d[3] for d in _module(tmp_path, text) if d[0] == "MG103"}
    assert sorted(found) == [9, 10]
    assert found[9].startswith('move `SidecarName = "logs"` out of the const block')
    assert found[10].startswith("write `Other Dest` instead of `Other`")
