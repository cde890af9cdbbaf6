"""The fragments (docs/openapi.md, "Fragments"): markergen's `x-kubernetes-unions` and
`enum` keys as merge patches keyed like the documents.

- Against the real openapi-gen (Debian's kube-openapi, run as in
  tests/test_openapigen_parity.py, whose fixture this module reuses): openapi-gen's
  document merged with the v2 fragment equals openapi-gen's document plus exactly
  markergen's union and enum keys, and is a valid OpenAPI 2.0 document.
- On markergen's own documents, v2 and v3: a document without its union and enum keys,
  merged with its fragment, is the document again.
- The merge is RFC 7386's, except that a `null` inside a value is kept (a `fieldMembers`
  value that selects no member): with no such null, both merges are the same.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from helpers import TESTDATA, run_cli
from openapi_spec_validator import OpenAPIV2SpecValidator, OpenAPIV30SpecValidator
from test_openapigen_parity import ROOTS, _go_dirs, theirs  # noqa: F401 (the fixture)

from markergen.emit.fragments import KEYS
from markergen.emit.options import EmitOptions, UnionFormat
from markergen.emit.outputs import render_outputs
from markergen.pipeline import load_model

FRAGMENTS = frozenset({"fragments"})


def merge(target: Any, patch: Any) -> Any:
    """The one-step merge of docs/openapi.md (jq's `*`): objects merge recursively, any
    other patch value replaces the target's, nulls included."""
    if not isinstance(patch, dict) or not isinstance(target, dict):
        return copy.deepcopy(patch)
    out = dict(target)
    for key, value in patch.items():
        out[key] = merge(target.get(key), value)
    return out


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386, section 2, verbatim."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge_patch(out.get(key), value)
    return out


def strip(schema: Any) -> Any:
    """A schema without markergen's union and enum keys (schema positions only: a
    property named `enum` stays)."""
    if not isinstance(schema, dict):
        return schema
    out = {k: v for k, v in schema.items() if k not in KEYS}
    if isinstance(out.get("properties"), dict):
        out["properties"] = {n: strip(s) for n, s in out["properties"].items()}
    for key in ("items", "additionalProperties"):
        if isinstance(out.get(key), dict):
            out[key] = strip(out[key])
    return out


def leaves(value: Any, path: tuple[str, ...] = ()) -> dict[tuple[str, ...], Any]:
    """Every path to a union or enum key's value (or any non-object value)."""
    if isinstance(value, dict) and (not path or path[-1] not in KEYS):
        out: dict[tuple[str, ...], Any] = {}
        for k, v in value.items():
            out.update(leaves(v, (*path, k)))
        return out
    return {path: value}


def _ours(union_format: UnionFormat = "fieldMembers") -> dict[str, dict[str, Any]]:
    texts: dict[str, dict[str, Any]] = {}
    for root in ROOTS:
        patterns = [f"./{d.relative_to(root).as_posix()}" for d in _go_dirs(root)
                    if d.name != "consts"]  # fmt: skip
        model = load_model(patterns, root)
        out = render_outputs(model, EmitOptions(union_format=union_format), FRAGMENTS)
        for name, text in out.items():
            if not name.endswith(".json"):
                continue
            doc = json.loads(text)
            texts[name] = merge(texts.get(name, {}), doc)
    return texts


def test_openapi_gen_output_plus_the_fragment(theirs: dict[str, Any]) -> None:  # noqa: F811
    fragment = _ours()["openapi-v2.fragment.json"]
    assert set(fragment) == {"definitions"}
    assert set(fragment["definitions"]) <= set(theirs)  # no definition of its own
    document = {"swagger": "2.0", "info": {"title": "t", "version": "v"}, "paths": {},
                "definitions": theirs}  # fmt: skip
    merged = merge(document, fragment)
    # exactly the fragment's keys changed, each to the fragment's value...
    before, after, added = leaves(document), leaves(merged), leaves(fragment)
    changed = {p for p in set(before) | set(after) if before.get(p, "<absent>") != after.get(p)}
    assert changed <= set(added)
    assert all(p[-1] in KEYS for p in added)
    assert all(after[p] == v for p, v in added.items())
    # ...and markergen adds unions openapi-gen does not write (the current KEP's
    # fieldMembers, kep1027 and kep2022 unions) and enums it misses (through pointers,
    # list items, map values, integer types)
    assert any(p[-1] == "x-kubernetes-unions" and p not in before for p in changed)
    assert any(p[-1] == "enum" and p not in before for p in changed)
    assert list(OpenAPIV2SpecValidator(merged).iter_errors()) == []
    # no definition lost or added, every other key as openapi-gen wrote it
    assert strip_all(merged["definitions"]) == strip_all(theirs)


def strip_all(definitions: dict[str, Any]) -> dict[str, Any]:
    return {name: strip(schema) for name, schema in definitions.items()}


@pytest.mark.parametrize("union_format", ["fieldMembers", "list", "both"])
def test_a_document_is_its_stripped_self_plus_its_fragment(union_format: UnionFormat) -> None:
    ours = _ours(union_format)
    for version, schemas_of in ((2, lambda d: d["definitions"]),
                                (3, lambda d: d["components"]["schemas"])):  # fmt: skip
        doc = ours[f"openapi-v{version}.json"]
        fragment = ours[f"openapi-v{version}.fragment.json"]
        stripped = copy.deepcopy(doc)
        schemas = schemas_of(stripped)
        for name in schemas:
            schemas[name] = strip(schemas[name])
        assert stripped != doc
        assert merge(stripped, fragment) == doc
        validator = OpenAPIV2SpecValidator if version == 2 else OpenAPIV30SpecValidator
        assert list(validator(merge(stripped, fragment)).iter_errors()) == []
        nulls = "null" in json.dumps(fragment)
        # RFC 7386 gives the same document unless a union value holds a null
        assert (merge_patch(stripped, fragment) == doc) is not nulls
    if union_format == "list":
        assert "null" not in json.dumps(ours["openapi-v3.fragment.json"])


def test_fragments_are_off_by_default_and_one_setting_turns_them_on(tmp_path: Path) -> None:
    import shutil

    project = tmp_path / "kep"
    shutil.copytree(TESTDATA / "kep", project)
    res = run_cli(["generate", "./kep000/..."], project)
    assert res.code == 0 and not list((project / "openapi").glob("*fragment*"))
    res = run_cli(["generate", "./kep000/...", "--fragments"], project)
    assert res.code == 0, res.stderr
    assert "wrote openapi/openapi-v2.fragment.json, openapi/openapi-v3.fragment.json (4 " in (
        res.stderr
    )
    (project / "markergen.yaml").write_text("fragments: true\nv3-fragment: patches/v3.json\n")
    res = run_cli(["generate", "./kep000/...", "--verify"], project)
    assert res.code == 1 and "b/patches/v3.json" in res.stdout


def test_the_documented_jq_step_is_the_merge(tmp_path: Path) -> None:
    """docs/openapi.md's one step, `jq -s '.[0] * .[1]'`, gives what `merge` gives
    (nulls of fieldMembers kept). Skips, saying so, where jq is not installed."""
    import shutil
    import subprocess

    jq = shutil.which("jq")
    if jq is None:
        pytest.skip("jq is not installed: Debian package jq (hack/test-tools.sh as root)")
    ours = _ours()
    doc = ours["openapi-v3.json"]
    stripped = copy.deepcopy(doc)
    schemas = stripped["components"]["schemas"]
    for name in schemas:
        schemas[name] = strip(schemas[name])
    (tmp_path / "openapi.json").write_text(json.dumps(stripped))
    (tmp_path / "fragment.json").write_text(json.dumps(ours["openapi-v3.fragment.json"]))
    proc = subprocess.run([jq, "-s", ".[0] * .[1]", "openapi.json", "fragment.json"],
                          cwd=tmp_path, capture_output=True, text=True, check=True, timeout=60)  # fmt: skip
    assert json.loads(proc.stdout) == doc
    assert "null" in json.dumps(ours["openapi-v3.fragment.json"])  # the case RFC 7386 loses
