"""One pass over the definitions for both OpenAPI documents and both fragments
(markergen.emit.schemapass), written side by side by the streamed writer.

testdata/wellknown puts in one struct everything that differs between v2 and v3: the
well-known external types (Quantity, IntOrString, Time; a field enum on a Quantity, which
v2's string takes and v3's oneOf does not, so the two fragments differ too), references
with siblings (`allOf` in v3) and without, inside lists, maps and an inlined struct.
Its golden files (testdata/emit/wellknown) were written by the code before the pass
(a SchemaBuilder per document); regenerate them after an intended change with
`MARKERGEN_UPDATE_GOLDEN=1 pytest tests/test_schema_pass.py`, then read the diff.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import TESTDATA
from test_emit_openapi import types_model

from markergen.emit import schemapass
from markergen.emit.fragments import schema_fragment
from markergen.emit.openapi import SchemaBuilder
from markergen.emit.options import EmitOptions
from markergen.emit.outputs import OUTPUTS, Inputs, render_outputs
from markergen.emit.render import json_object, pyliteral, pyliteral_dict, tojson
from markergen.emit.writer import OutputError, verify_outputs, write_outputs
from markergen.model import Model
from markergen.pipeline import load_model

WELLKNOWN = TESTDATA / "wellknown"
GOLDEN = TESTDATA / "emit" / "wellknown"
FRAGMENTS = frozenset({"fragments"})
SPEC = "com.example.wellknown.v1.MachineSpec"


def _written(model: Model, options: EmitOptions, out: Path) -> dict[str, str]:
    """Every output as `generate` writes it: all at once, through the streamed writer."""
    inputs = Inputs(model, options)
    write_outputs({out / o.filename: functools.partial(inputs.chunks, o) for o in OUTPUTS})
    return {o.filename: (out / o.filename).read_text(encoding="utf-8") for o in OUTPUTS}


@pytest.fixture(scope="module")
def wellknown() -> Model:
    return load_model(["./..."], WELLKNOWN)


def test_outputs_match_golden_files(wellknown: Model, tmp_path: Path) -> None:
    texts = _written(wellknown, EmitOptions(), tmp_path)
    files = {GOLDEN / name: text for name, text in texts.items()}
    if os.environ.get("MARKERGEN_UPDATE_GOLDEN") == "1":
        write_outputs(files)
    assert verify_outputs(files) == []
    # outputs rendered one after the other (each reads a pass of its own): the same text
    assert render_outputs(wellknown, EmitOptions(), FRAGMENTS) == texts


def test_what_differs_between_the_versions(wellknown: Model, tmp_path: Path) -> None:
    texts = _written(wellknown, EmitOptions(), tmp_path)
    v2 = json.loads(texts["openapi-v2.json"])["definitions"][SPEC]["properties"]
    v3 = json.loads(texts["openapi-v3.json"])["components"]["schemas"][SPEC]["properties"]
    assert v2["cpu"]["type"] == "string" and v2["cpu"]["enum"] == ["1", "2"]
    assert "oneOf" in v3["cpu"] and "enum" not in v3["cpu"] and "type" not in v3["cpu"]
    assert v2["port"]["format"] == "int-or-string" and "oneOf" in v3["port"]
    assert v2["started"] == v3["started"]
    assert v2["owner"]["$ref"] == "#/definitions/com.example.wellknown.v1.MachineStatus"
    assert v3["owner"]["allOf"] == [
        {"$ref": "#/components/schemas/com.example.wellknown.v1.MachineStatus"}]
    assert v2["owner"]["description"] == v3["owner"]["description"]
    assert v3["virtual"] == {"$ref": "#/components/schemas/com.example.wellknown.v1.Disk"}
    assert v3["disks"]["items"] == v3["virtual"]
    assert "oneOf" in v3["limits"]["additionalProperties"]
    assert "oneOf" in v3["memory"]  # inlined from Common
    fragment2 = json.loads(texts["openapi-v2.fragment.json"])["definitions"][SPEC]
    fragment3 = json.loads(texts["openapi-v3.fragment.json"])["components"]["schemas"][SPEC]
    assert fragment2["properties"]["cpu"] == {"enum": ["1", "2"]}
    assert "cpu" not in fragment3["properties"]
    assert fragment2["properties"]["medium"] == fragment3["properties"]["medium"]


def _models() -> list[tuple[str, Model]]:
    return [
        ("wellknown", load_model(["./..."], WELLKNOWN)),
        ("kep", load_model(["./..."], TESTDATA / "kep")),
        ("types", types_model()),
    ]


@pytest.mark.parametrize("union_format", ["fieldMembers", "both"])
def test_one_pass_gives_what_one_version_at_a_time_gives(
    union_format: Any, tmp_path: Path
) -> None:
    """Each document and fragment of the shared pass, against a builder of one version
    (both halves of every pair that version's) and the fragments taken from its
    schemas: the same definitions, references and fragments."""
    options = EmitOptions(union_format=union_format)
    for label, model in _models():
        texts = _written(model, options, tmp_path / label)
        for version in (2, 3):
            builder = SchemaBuilder(model, options, version)  # type: ignore[arg-type]
            names = builder.names_in_order()
            schemas = dict(builder.schemas(names))
            doc = json.loads(texts[f"openapi-v{version}.json"])
            found = doc["definitions"] if version == 2 else doc["components"]["schemas"]
            assert found == schemas, (label, version)
            external = sorted(builder.external - set(names))
            assert doc.get("x-markergen-external-references", []) == external
            fragment = json.loads(texts[f"openapi-v{version}.fragment.json"])
            assert fragment == _document_fragment(schemas.items(), version)


def _document_fragment(schemas: Iterable[tuple[str, Any]], version: int) -> dict[str, Any]:
    """The merge patch of a whole document from its (definition name, schema) pairs,
    made in one piece: the reference for the streamed fragment templates."""
    found = {}
    for name, schema in schemas:
        part = schema_fragment(schema)
        if part:
            found[name] = part
    if version == 2:
        return {"definitions": found}
    return {"components": {"schemas": found}}


def _counting(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Count the structs built and the longest queue of any pass."""
    seen = {"built": 0, "queue": 0, "passes": 0}
    struct_pair = SchemaBuilder.struct_pair
    advance = schemapass.SchemaPass._advance
    init = schemapass.SchemaPass.__init__

    def counted_struct_pair(self: SchemaBuilder, struct: Any) -> Any:
        seen["built"] += 1
        return struct_pair(self, struct)

    def counted_advance(self: schemapass.SchemaPass) -> bool:
        more = advance(self)
        seen["queue"] = max([seen["queue"], *(len(q) for q in self._queues)])
        return more

    def counted_init(self: schemapass.SchemaPass, *args: Any) -> None:
        seen["passes"] += 1
        init(self, *args)

    monkeypatch.setattr(SchemaBuilder, "struct_pair", counted_struct_pair)
    monkeypatch.setattr(schemapass.SchemaPass, "_advance", counted_advance)
    monkeypatch.setattr(schemapass.SchemaPass, "__init__", counted_init)
    return seen


def test_each_struct_is_built_once_and_the_queues_stay_short(
    wellknown: Model, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = _counting(monkeypatch)
    _written(wellknown, EmitOptions(), tmp_path)
    # one pass for the two documents and the two fragments; every struct built once
    assert seen["passes"] == 1
    assert seen["built"] == len(wellknown.structs)
    # the writer reads the four side by side: a definition or two wait, never a document
    assert 1 <= seen["queue"] <= 2 < len(wellknown.structs)


def test_outputs_read_one_after_another_each_build_their_own_pass(
    wellknown: Model, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`render_outputs` (and --verify) read each output whole before the next: a reader
    joining a started pass would have to hold every definition, so it starts its own."""
    seen = _counting(monkeypatch)
    render_outputs(wellknown, EmitOptions(), FRAGMENTS)
    assert seen["passes"] == 4
    assert seen["built"] == 4 * len(wellknown.structs)
    assert seen["queue"] <= 1


def test_a_reader_cannot_join_a_started_pass(wellknown: Model) -> None:
    shared = schemapass.SchemaPass(wellknown, EmitOptions())
    first = iter(shared.reader("v2"))
    next(first)
    with pytest.raises(RuntimeError):
        shared.reader("v3")


@pytest.mark.parametrize(
    "value",
    [
        {},
        {"a": 1},
        {"a": {"b": [1, "x", None, True]}, "b": [], "c": {}, "é": "ü\n\"q\""},
        {"definitions": {"x": {"type": "object", "properties": {"y": {"enum": ["1e-05"]}}}}},
    ],
)
@pytest.mark.parametrize("level", [0, 1, 3])
def test_json_object_writes_what_tojson_writes(value: dict[str, Any], level: int) -> None:
    members = [(key, value[key]) for key in sorted(value)]
    pieces = list(json_object(members, level))
    assert "".join(pieces) == tojson(value, 2, level)
    assert len(pieces) == len(members) + 1 if members else pieces == ["{}"]


def test_json_object_skips_none_with_an_empty_piece_and_refuses_unsorted_keys() -> None:
    pieces = list(json_object([None, ("a", 1), None, ("b", 2)], 1))
    assert pieces[0] == pieces[2] == ""
    assert "".join(pieces) == tojson({"a": 1, "b": 2}, 2, 1)
    assert list(json_object([None, None])) == ["", "", "{}"]
    with pytest.raises(ValueError, match="keys must be sorted"):
        list(json_object([("b", 1), ("a", 2)]))
    with pytest.raises(ValueError, match="keys must be sorted"):
        list(json_object([("a", 1), ("a", 2)]))


@pytest.mark.parametrize(
    "value",
    [{}, {"a": 1}, {"a": {"b": [1, "x", None, True, 1.5]}, "b": [], "c": {}, "é": "ü\n'q'"}],
)
@pytest.mark.parametrize("level", [0, 1, 2])
def test_pyliteral_dict_writes_what_pyliteral_writes(value: dict[str, Any], level: int) -> None:
    members = [(key, value[key]) for key in sorted(value)]
    pieces = list(pyliteral_dict(members, 4, level))
    assert "".join(pieces) == pyliteral(value, 4, level)
    assert len(pieces) == len(members) + 1


def test_pyliteral_dict_refuses_unsorted_and_non_string_keys() -> None:
    with pytest.raises(ValueError, match="keys must be sorted"):
        list(pyliteral_dict([("b", 1), ("a", 2)]))
    with pytest.raises(TypeError):
        list(pyliteral_dict([(1, 1)]))  # type: ignore[list-item]


def _pieces(name: str, n: int, log: list[str], fail_at: int = -1) -> Callable[[], Iterator[str]]:
    def content() -> Iterator[str]:
        log.append(f"ask {name}")

        def pieces() -> Iterator[str]:
            for i in range(n):
                if i == fail_at:
                    raise OSError(5, "Input/output error")
                log.append(f"{name}{i}")
                yield f"{name}{i}\n"

        return pieces()

    return content


def test_streamed_outputs_are_written_side_by_side(tmp_path: Path) -> None:
    log: list[str] = []
    a, b, c = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "c.txt"
    report = write_outputs({b: _pieces("b", 2, log), a: _pieces("a", 3, log), c: "whole\n"})
    # every output asked for before any piece is read; then a piece of each in turn
    assert log == ["ask a", "ask b", "a0", "b0", "a1", "b1", "a2"]
    assert a.read_text() == "a0\na1\na2\n" and b.read_text() == "b0\nb1\n"
    assert report.written == (a, b, c)  # in the order of their paths


def test_a_stream_failing_midway_leaves_every_output_as_it_was(tmp_path: Path) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("old a\n")
    with pytest.raises(OutputError) as err:
        write_outputs({a: _pieces("a", 3, []), b: _pieces("b", 3, [], fail_at=2)})
    assert err.value.path == b
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]
    assert a.read_text() == "old a\n"
