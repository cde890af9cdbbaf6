"""The table-driven walk: nesting, list pairing, maps, wrong shapes, depth, isolation."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from markergen.runtime import Table, normalize, validate

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "testdata" / "runtime"
T = Table.load(DATA / "kep004.json")
DEPLOY = "io.example.v1.Deployment"
NODE = "io.example.v1.Node"


def test_list_map_elements_are_paired_by_key_not_index() -> None:
    """: list-map elements pair old-to-new by key."""
    old = {"spec": {"volumes": [{"name": "a", "hostPath": {}}, {"name": "b", "hostPath": {}}]}}
    new = {"spec": {"volumes": [{"name": "b", "hostPath": {}}, {"name": "a", "hostPath": {}}]}}
    strat_old = {"type": "RollingUpdate", "rollingUpdate": {}}
    # reordering alone changes nothing; validation paths name elements by key
    assert normalize(T, DEPLOY, old, new) == new
    errors = validate(T, DEPLOY, {"spec": {"strategy": strat_old, "volumes": [{"name": "b"}]}})
    assert [e.path for e in errors] == ["spec.volumes[name=b]"]


def test_plain_lists_pair_by_index() -> None:
    old = {"spec": {"metrics": [{"type": "Pods", "pods": {}}, {"type": "Object", "object": {}}]}}
    new = {
        "spec": {
            "metrics": [{"type": "Pods", "pods": {}}, {"type": "Pods", "object": {}, "pods": {}}]
        }
    }
    # element 1 changed Object → Pods, so `object` is cleared; element 0 untouched
    assert normalize(T, DEPLOY, old, new)["spec"]["metrics"] == [
        {"type": "Pods", "pods": {}},
        {"type": "Pods", "pods": {}},
    ]


def test_list_map_pairing_follows_keys_across_reorder() -> None:
    table = Table.from_dict(
        {
            "version": 1,
            "types": {
                "r": {"fields": {"items": {"kind": "list", "type": "n", "listMapKeys": ["name"]}}},
                "n": {
                    "fields": {"name": {"kind": "scalar"}, "type": {"kind": "scalar"}},
                    "unions": [
                        {
                            "discriminator": "type",
                            "values": ["A", "B"],
                            "members": [{"field": "a", "value": "A"}, {"field": "b", "value": "B"}],
                        }
                    ],
                },
            },
        }
    )
    old = {"items": [{"name": "x", "type": "A", "a": 1}, {"name": "y", "type": "B", "b": 1}]}
    new = {
        "items": [
            {"name": "y", "type": "B", "b": 1, "a": 1},
            {"name": "x", "type": "B", "a": 1, "b": 2},
        ]
    }
    # y kept its discriminator (no clearing, validation error later); x changed A → B
    assert normalize(table, "r", old, new) == {
        "items": [{"name": "y", "type": "B", "b": 1, "a": 1}, {"name": "x", "type": "B", "b": 2}]
    }


def test_map_values_are_walked() -> None:
    errors = validate(T, DEPLOY, {"spec": {"probes": {"p": {"exec": {}, "httpGet": {}}}}})
    assert [e.path for e in errors] == ["spec.probes[p].httpGet"]


def test_wrong_shapes_are_invalid_not_exceptions() -> None:
    obj: dict[str, Any] = {
        "spec": {
            "strategy": [1, 2],
            "volumes": {"name": "x"},
            "metrics": [3, None, {"type": "Pods", "pods": {}}],
            "probes": "nope",
        }
    }
    assert [str(e) for e in validate(T, DEPLOY, obj)] == [
        'spec.strategy: Invalid value: "array": must be an object',
        'spec.volumes: Invalid value: "object": must be an array',
        "spec.metrics[0]: Invalid value: 3: must be an object",
        'spec.probes: Invalid value: "nope": must be an object',
    ]
    assert normalize(T, DEPLOY, obj, obj) == obj
    assert [str(e) for e in validate(T, DEPLOY, None)] == ["Invalid value: null: must be an object"]
    assert normalize(T, DEPLOY, None, 7) == 7


def _chain(depth: int, leaf: dict[str, Any]) -> dict[str, Any]:
    obj = leaf
    for _ in range(depth):
        obj = {"child": obj}
    return obj


def _leaf(obj: dict[str, Any]) -> dict[str, Any]:
    while "child" in obj:
        obj = obj["child"]
    return obj


def test_ten_thousand_levels_do_not_recurse() -> None:
    depth = 10_000
    old = _chain(depth, {"type": "A", "a": 1})
    new = _chain(depth, {"type": "B", "a": 1, "b": 2})
    out = normalize(T, NODE, old, new)
    assert _leaf(out) == {"type": "B", "b": 2}
    assert _leaf(new) == {"type": "B", "a": 1, "b": 2}  # input untouched
    errors = validate(T, NODE, _chain(depth, {"type": "A", "b": 1}))
    prefix = ".".join(["child"] * depth)
    assert [(e.path, e.type) for e in errors] == [
        (prefix + ".a", "Required"),
        (prefix + ".b", "Forbidden"),
    ]


def test_runtime_works_without_tree_sitter(tmp_path: Path) -> None:
    """The runtime imports nothing of the parser: tree_sitter is made unimportable."""
    blocker = tmp_path / "sitecustomize_block"
    blocker.mkdir()
    (blocker / "tree_sitter.py").write_text("raise ImportError('tree_sitter is blocked')\n")
    (blocker / "tree_sitter_go.py").write_text("raise ImportError('tree_sitter_go is blocked')\n")
    script = textwrap.dedent(
        f"""
        import sys

        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in ("tree_sitter", "tree_sitter_go"):
                    raise ImportError("blocked: " + name)
                return None

        sys.meta_path.insert(0, Block())
        from markergen.runtime import Table, normalize, validate
        t = Table.load({str(DATA / "kep004.json")!r})
        old = {{"type": "RollingUpdate", "rollingUpdate": {{}}}}
        out = normalize(t, "io.example.v1.DeploymentStrategy", old, {{"type": "Recreate", "rollingUpdate": {{}}}})
        assert out == {{"type": "Recreate"}}, out
        assert validate(t, "io.example.v1.DeploymentStrategy", out) == []
        loaded = sorted(m for m in sys.modules if m.startswith("markergen"))
        assert all(m == "markergen" or m.startswith("markergen.runtime") for m in loaded), loaded
        assert "tree_sitter" not in sys.modules
        print("ok")
        """
    )
    env_path = f"{blocker}"
    result = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
        cwd=tmp_path,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
