"""Issue 39 item 5: envoy-gateway's `EnvoyFilterRouter` (MG105). A constant a project
leaves out of its type's Enum list on purpose is not a mistake when a
`// markergen:ignore MG105 <reason>` says so: above the constant, or once in the type's
doc comment for every constant the list leaves out. The type's prose alone is not read
as such a declaration (docs/rules.md, MG105). Real grammar on real files."""

from __future__ import annotations

from pathlib import Path

from markergen.pipeline import check_model, load_model

ENVOY = """package v1

// EnvoyFilter defines the type of Envoy HTTP filter.
{comment}// +kubebuilder:validation:Enum=envoy.filters.http.cors;envoy.filters.http.fault
type EnvoyFilter string

const (
\t// EnvoyFilterCORS defines the Envoy HTTP CORS filter.
\tEnvoyFilterCORS EnvoyFilter = "envoy.filters.http.cors"

\t// EnvoyFilterFault defines the Envoy HTTP fault filter.
\tEnvoyFilterFault EnvoyFilter = "envoy.filters.http.fault"

\t// EnvoyFilterRouter defines the Envoy HTTP router filter.
\tEnvoyFilterRouter EnvoyFilter = "envoy.filters.http.router"

\t// EnvoyFilterHealth is the controller's own too.
\tEnvoyFilterHealth EnvoyFilter = "envoy.filters.http.health_check"
)

type FilterPosition struct {
\tName EnvoyFilter `json:"name"`
}
"""

TYPE_IGNORE = (
    "// markergen:ignore MG105 the controller adds these filters itself; users never order them\n"
)


def _codes(tmp_path: Path, comment: str) -> list[tuple[str, int]]:
    (tmp_path / "go.mod").write_text("module example.com/envoy\n\ngo 1.24\n")
    (tmp_path / "v1").mkdir()
    (tmp_path / "v1" / "types.go").write_text(ENVOY.replace("{comment}", comment))
    model = load_model(["./..."], tmp_path)
    return sorted((d.code, d.pos.line) for d in check_model(model))


def test_each_constant_the_list_leaves_out_is_reported_at_the_constant(tmp_path: Path) -> None:
    assert _codes(tmp_path, "") == [("MG105", 15), ("MG105", 18)]


def test_an_ignore_in_the_types_doc_covers_every_left_out_constant(tmp_path: Path) -> None:
    # silenced, and the comment is used (no MG010) and well formed (no MG011)
    assert _codes(tmp_path, TYPE_IGNORE) == []


def test_the_types_prose_alone_is_no_declaration(tmp_path: Path) -> None:
    prose = "// The router filter is internal and always last; it is not in the list.\n"
    assert _codes(tmp_path, prose) == [("MG105", 16), ("MG105", 19)]


def test_a_type_ignore_that_covers_nothing_is_reported(tmp_path: Path) -> None:
    # the list names every constant: the comment silences nothing (MG010 at the comment)
    text = TYPE_IGNORE
    (tmp_path / "go.mod").write_text("module example.com/envoy\n\ngo 1.24\n")
    (tmp_path / "v1").mkdir()
    whole = ENVOY.replace("{comment}", text).replace(
        "envoy.filters.http.cors;envoy.filters.http.fault",
        "envoy.filters.http.cors;envoy.filters.http.fault;envoy.filters.http.router;"
        "envoy.filters.http.health_check",
    )
    (tmp_path / "v1" / "types.go").write_text(whole)
    found = [(d.code, d.pos.line) for d in check_model(load_model(["./..."], tmp_path))]
    assert found == [("MG010", 4)]
