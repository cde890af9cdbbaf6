"""The CEL is real: every rule markergen patches into the example CRD is compiled and run
by cel-python on every object of its union, and the API server's verdict (the node's
`required` list, the discriminator's `enum`, then the CEL rules) must equal
`markergen.runtime.validate`'s verdict (KEP-1027 the current KEP "Validation"; the 2019 KEP "At most
one versus exactly one"). Objects: every combination of set members x every
discriminator value (each enum value, each member value, "", an unknown value, unset).
"""

from __future__ import annotations

import itertools
from typing import Any

import celpy
import pytest
from crd_support import EXAMPLE_CRD, example_model

from markergen.celcost.escape import escape_property
from markergen.crd.run import patch_text
from markergen.crd.walk import UnionSite, union_sites
from markergen.emit.naming import key_definition_name
from markergen.emit.options import EmitOptions
from markergen.emit.table import build_table
from markergen.model import Model, Union
from markergen.project.locate import root_type
from markergen.runtime import Table, validate
from markergen.yamlio import load_documents

UNKNOWN = "NoSuchValue"


def _sample(prop: dict[str, Any]) -> Any:
    """A value of the property's schema type (the node's own rules only test presence)."""
    kind = prop.get("type")
    if kind == "object":
        return {}
    if kind == "array":
        return []
    if kind == "integer":
        return 1
    if kind == "boolean":
        return True
    return "x"


def _table_union(generated: dict[str, Any], union: Union, props: dict[str, Any]) -> dict[str, Any]:
    """The union's entry in the runtime table markergen generates,
    members limited to the CRD's properties (the API server prunes any other field, so
    it can never be set)."""
    entries = generated["types"][key_definition_name(union.struct)]["unions"]
    disc = union.discriminator.json_name if union.discriminator else None
    fields = {m.json_name for m in union.members}
    (entry,) = [
        e
        for e in entries
        if e["discriminator"] == disc and {m["field"] for m in e["members"]} == fields
    ]
    return {**entry, "members": [m for m in entry["members"] if m["field"] in props]}


def _sites(model: Model, crd: dict[str, Any]) -> dict[tuple[Any, ...], list[UnionSite]]:
    spec = crd["spec"]
    out: dict[tuple[Any, ...], list[UnionSite]] = {}
    for i, version in enumerate(spec["versions"]):
        root = root_type(model, spec["group"], spec["names"]["kind"], version["name"])
        assert root is not None
        schema = version["schema"]["openAPIV3Schema"]
        for site in union_sites(model, root, schema, ("spec", "versions", i)):
            out.setdefault(site.path, []).append(site)
    return out


def _escaped(obj: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for k, v in obj.items():
        name = escape_property(k)
        assert name is not None
        out[name] = v
    return out


def _objects(sites: list[UnionSite]) -> list[dict[str, Any]]:
    props = sites[0].node["properties"]
    axes: list[list[tuple[str, Any]]] = []  # per field: the (name, value) choices; None = unset
    seen: set[str] = set()
    for site in sites:
        u = site.union
        if u.discriminator is not None and u.discriminator.json_name not in seen:
            d = u.discriminator
            seen.add(d.json_name)
            values = {*d.values, *(m.value for m in u.members), "", UNKNOWN}
            axes.append([(d.json_name, None)] + [(d.json_name, v) for v in sorted(values)])
        for m in u.members:
            if m.json_name in props and m.json_name not in seen:
                seen.add(m.json_name)
                axes.append([(m.json_name, None), (m.json_name, _sample(props[m.json_name]))])
    objects = []
    for combo in itertools.product(*axes):
        objects.append({k: v for k, v in combo if v is not None})
    return objects


def _schema_ok(node: dict[str, Any], obj: dict[str, Any], varied: set[str]) -> bool:
    for name in node.get("required", []):
        if name in varied and name not in obj:
            return False
    for name, value in obj.items():
        enum = node["properties"][name].get("enum")
        if enum is not None and value not in enum:
            return False
    return True


def _cel_ok(program: Any, obj: dict[str, Any]) -> bool:
    try:
        result = program.evaluate({"self": celpy.json_to_cel(_escaped(obj))})
    except celpy.CELEvalError:
        return False  # the API server reports a rule that fails to evaluate as an error
    if isinstance(result, celpy.CELEvalError):
        return False
    return bool(result)


@pytest.fixture(scope="module")
def patched() -> tuple[Model, dict[str, Any]]:
    model = example_model()
    text, diags = patch_text(model, EXAMPLE_CRD.read_text(encoding="utf-8"), "crd.yaml")
    assert diags == []
    (doc,) = load_documents(text)
    return model, doc.value


def test_every_union_of_the_example_is_patched(patched: tuple[Model, dict[str, Any]]) -> None:
    model, crd = patched
    sites = _sites(model, crd)
    dialects = {s.union.dialect for group in sites.values() for s in group}
    assert dialects == {"kep1027", "kep2022", "kep2019", "k8s"}
    for group in sites.values():
        assert group[0].node.get("x-kubernetes-validations"), group[0].path


def test_cel_verdict_equals_runtime_verdict(
    patched: tuple[Model, dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    model, crd = patched
    generated = build_table(model, EmitOptions())
    env = celpy.Environment()
    pairs = 0
    mismatches: list[str] = []
    for path, sites in sorted(_sites(model, crd).items(), key=lambda kv: str(kv[0])):
        node = sites[0].node
        props = node["properties"]
        table = Table.from_dict(
            {
                "version": 1,
                "types": {
                    "T": {
                        "fields": {name: {"kind": "scalar"} for name in props},
                        "unions": [_table_union(generated, s.union, props) for s in sites],
                    }
                },
            }
        )
        rules = node["x-kubernetes-validations"]
        programs = [env.program(env.compile(r["rule"])) for r in rules]
        objects = _objects(sites)
        varied = {k for o in objects for k in o}
        # a k8s union leaves a required discriminator and its values to validation-gen's
        # `+k8s:required` and `+k8s:enum` (the schema's `required` and `enum` here), not
        # to the union's checks
        k8s = any(s.union.semantics == "k8s" for s in sites)
        for obj in objects:
            runtime_ok = validate(table, "T", obj) == []
            if k8s:
                runtime_ok = runtime_ok and _schema_ok(node, obj, varied)
            cel_results = [_cel_ok(p, obj) for p in programs]
            pairs += len(programs)
            server_ok = _schema_ok(node, obj, varied) and all(cel_results)
            if server_ok != runtime_ok:
                mismatches.append(
                    f"{'.'.join(map(str, path))}: {obj}: cel={cel_results} "
                    f"runtime={validate(table, 'T', obj)}"
                )
    with capsys.disabled():
        print(f"\n(rule, object) pairs evaluated with cel-python: {pairs}")
    assert mismatches == []
    assert pairs > 1000


def test_a_violation_names_the_field_with_a_reason(patched: tuple[Model, dict[str, Any]]) -> None:
    _model, crd = patched
    env = celpy.Environment()
    delivery = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"][
        "properties"
    ]["delivery"]
    failing = [
        r
        for r in delivery["x-kubernetes-validations"]
        if not _cel_ok(env.program(env.compile(r["rule"])), {"method": "Email"})
    ]
    assert [(r["fieldPath"], r["reason"]) for r in failing] == [(".email", "FieldValueRequired")]
    assert "Delivery.method" in failing[0]["message"]
    assert "email" in failing[0]["message"]
