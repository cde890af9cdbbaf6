"""Robustness: random and damaged input through parse → check → generate.

Issue "Robustness: bad input, faults and hostile strings never crash markergen": no
exception escapes, every problem becomes a diagnostic, and `generate` writes valid outputs or nothing.

Everything runs the real tree-sitter front end on real files in a temporary directory.
"""

from __future__ import annotations

import ast
import json
import tempfile
from pathlib import Path

import pytest
from helpers import TESTDATA
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from markergen.config import load_config
from markergen.diagnostics import CATALOG, Diagnostic
from markergen.generate import generate
from markergen.golang.syntax import Position
from markergen.markers import Marker, MarkerError, parse_line
from markergen.model import Model
from markergen.pipeline import InputError, check_model, load_model

GO_FILES = sorted(TESTDATA.rglob("*.go"))
GO_TEXTS = [p.read_bytes() for p in GO_FILES]
FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _load_and_check(data: bytes, name: str = "types.go") -> tuple[Model, list[Diagnostic]]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "go.mod").write_text("module example.com/fuzz\n")
        (root / "api").mkdir()
        (root / "api" / name).write_bytes(data)
        try:
            model = load_model(["./api/..."], root)
        except InputError as e:
            # The one user-facing outcome besides diagnostics: e.g. a mutation produced
            # `//go:build ignore`, so the pattern matches no file. It must name the pattern.
            assert str(e).startswith("./api/...: "), e
            return Model(packages=()), []
        return model, check_model(model)


def _assert_well_formed(diags: list[Diagnostic]) -> None:
    for d in diags:
        assert d.code in CATALOG, d
        assert d.pos.line >= 1 and d.pos.column >= 1, d
        assert d.message and "Traceback" not in d.message, d


def test_testdata_corpus_is_not_empty() -> None:
    # The mutation strategies below draw from these; an empty corpus would test nothing.
    assert len(GO_FILES) >= 20


@FUZZ
@given(st.binary(max_size=4000))
def test_random_bytes_give_diagnostics_not_exceptions(data: bytes) -> None:
    _model, diags = _load_and_check(data)
    _assert_well_formed(diags)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        assert any(d.code == "MG002" for d in diags), "undecodable file must give MG002"


@FUZZ
@given(st.sampled_from(range(len(GO_TEXTS))), st.floats(min_value=0.0, max_value=1.0))
def test_truncated_testdata_files(index: int, fraction: float) -> None:
    text = GO_TEXTS[index]
    _, diags = _load_and_check(text[: int(len(text) * fraction)])
    _assert_well_formed(diags)


_MUTATION = st.tuples(
    st.integers(min_value=0, max_value=10**6),
    st.integers(min_value=0, max_value=40),
    st.sampled_from(
        [b"", b"{", b"}", b"`", b'"', b"\n", b"// +", b"// +unionMember\n", b"*", b"[]",
         b"struct {", b"// +enum\n", b"\x00", b"\xff", b"(", b"=", b"type ", b"const ("]
    ),
)


@FUZZ
@given(st.sampled_from(range(len(GO_TEXTS))), st.lists(_MUTATION, min_size=1, max_size=6))
def test_mutated_testdata_files(index: int, mutations: list[tuple[int, int, bytes]]) -> None:
    data = bytearray(GO_TEXTS[index])
    for at, cut, insert in mutations:
        at %= len(data) + 1
        data[at : at + cut] = insert
    _, diags = _load_and_check(bytes(data))
    _assert_well_formed(diags)


_MARKER_CHARS = st.sampled_from(
    [*list("+:=,;()\"'`\\ \t{}[]-_./"), "union", "Member", "Discriminator", "enum", "k8s", "alpha", "ifEnabled", "since", "\u2028", "\x00", "é"]
)
_MARKER_LINE = st.builds(
    lambda head, body: head + "".join(body),
    st.sampled_from(["+", "+unionMember", "+k8s:", "+k8s:alpha(since: ", "+unionDiscriminator",
                     "+kubebuilder:validation:Enum=", "+default=", "+k8s:unionMember(", "+enum"]),
    st.lists(_MARKER_CHARS, max_size=30),
)


@settings(max_examples=400, deadline=None)
@given(_MARKER_LINE)
def test_marker_parser_returns_a_marker_an_error_or_nothing(line: str) -> None:
    result = parse_line(line, Position("x.go", 3, 4))
    assert result is None or isinstance(result, Marker | MarkerError)
    if isinstance(result, MarkerError):
        assert result.message


@FUZZ
@given(st.lists(_MARKER_LINE, min_size=1, max_size=4), st.sampled_from(["type", "field", "disc"]))
def test_random_marker_lines_in_go_source(lines: list[str], where: str) -> None:
    comment = "".join(
        "// " + line.replace("\n", " ").replace("\r", " ").replace("\u2028", " ") + "\n"
        for line in lines
    )
    type_doc = comment if where == "type" else ""
    field_doc = comment if where == "field" else ""
    disc_doc = comment if where == "disc" else ""
    src = (
        "package v1\n\n// +enum\ntype Kind string\n\nconst (\n\tKindA Kind = \"A\"\n)\n\n"
        f"{type_doc}type U struct {{\n{disc_doc}\t// +unionDiscriminator\n"
        "\tKind Kind `json:\"kind\"`\n"
        f"{field_doc}\t// +unionMember\n\t// +optional\n\tA *string `json:\"a,omitempty\"`\n}}\n"
    )
    _, diags = _load_and_check(src.encode("utf-8"))
    _assert_well_formed(diags)


def _outputs(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())} if out.exists() else {}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(GO_TEXTS))), st.lists(_MUTATION, max_size=3))
def test_generate_writes_valid_outputs_or_nothing(
    index: int, mutations: list[tuple[int, int, bytes]]
) -> None:
    data = bytearray(GO_TEXTS[index])
    for at, cut, insert in mutations:
        at %= len(data) + 1
        data[at : at + cut] = insert
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "go.mod").write_text("module example.com/fuzz\n")
        (root / "api").mkdir()
        (root / "api" / "types.go").write_bytes(bytes(data))
        out = root / "out"
        out.mkdir()
        (out / "openapi-v2.json").write_text("old\n")  # a previous run's output
        cfg = load_config(root, {"out-dir": str(out)})
        try:
            result = generate(cfg, ["./api/..."], root, verify=False)
        except InputError:
            assert _outputs(out) == {"openapi-v2.json": b"old\n"}
            return
        files = _outputs(out)
        if result.exit_code == 1:
            assert any(d.severity.value == "error" for d in result.diagnostics)
            assert files == {"openapi-v2.json": b"old\n"}, "an error run must write nothing"
            return
        assert result.exit_code == 0, result
        assert sorted(files) == [
            "openapi-v2.json", "openapi-v3.json", "unions_table.json", "unions_table.py"
        ]
        v2 = json.loads(files["openapi-v2.json"])
        v3 = json.loads(files["openapi-v3.json"])
        assert v2["swagger"] == "2.0" and v3["openapi"].startswith("3.0")
        table = json.loads(files["unions_table.json"])
        module = ast.parse(files["unions_table.py"])
        assert isinstance(module.body[-1], ast.Assign)
        assert ast.literal_eval(module.body[-1].value) == table


@pytest.mark.parametrize("path", GO_FILES[:: max(1, len(GO_FILES) // 15)], ids=lambda p: p.name)
def test_every_prefix_length_class_of_a_testdata_file(path: Path) -> None:
    """Cut at every 37th byte: a deterministic sweep beside the random cuts above."""
    data = path.read_bytes()
    for end in range(0, len(data), 37):
        _, diags = _load_and_check(data[:end])
        _assert_well_formed(diags)
