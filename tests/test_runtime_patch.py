"""apply_patch: the strategic-merge subset and the retainKeys proposal's `$retainKeys` directive."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from markergen.runtime import Table, UnionError, apply_patch, validate

DATA = Path(__file__).resolve().parent.parent / "testdata" / "runtime"
T = Table.load(DATA / "kep002.json")
STATUS = "io.k8s.api.core.v1.ContainerStatus"
PARENT = "io.example.v1.Parent"
POD = "io.k8s.api.core.v1.Pod"


def test_example_1_non_inlined_non_discriminated_union() -> None:
    """The retainKeys proposal "Examples" 1: ContainerStatus.state with patchStrategy retainKeys."""
    live = {"name": "c", "state": {"running": {"startedAt": "t0"}}}
    patch = {
        "state": {"$retainKeys": ["terminated"], "terminated": {"exitCode": 0, "finishedAt": "t1"}}
    }
    out = apply_patch(T, STATUS, live, patch)
    assert out == {"name": "c", "state": {"terminated": {"exitCode": 0, "finishedAt": "t1"}}}
    assert validate(T, STATUS, out) == []


def test_example_2_non_inlined_discriminated_union() -> None:
    """The retainKeys proposal "Examples" 2: the generic discriminated unionName."""
    live = {"unionName": {"discriminatorName": "foo", "fooField": {"fooSubfield": "val1"}}}
    patch = {
        "unionName": {
            "$retainKeys": ["discriminatorName", "barField"],
            "discriminatorName": "bar",
            "barField": {"barSubfield": "val2"},
        }
    }
    out = apply_patch(T, PARENT, live, patch)
    assert out == {"unionName": {"discriminatorName": "bar", "barField": {"barSubfield": "val2"}}}
    assert validate(T, PARENT, out) == []


def test_example_3_inlined_union_with_patch_merge_key() -> None:
    """The retainKeys proposal "Examples" 3: PodSpec.volumes with patchStrategy merge|retainKeys, key name."""
    live = {
        "spec": {
            "volumes": [
                {"name": "foo", "emptyDir": {"medium": "Memory"}},
                {"name": "bar", "emptyDir": {}},
            ]
        }
    }
    patch = {
        "spec": {
            "volumes": [
                {"$retainKeys": ["name", "hostPath"], "name": "foo", "hostPath": {"path": "/p"}}
            ]
        }
    }
    out = apply_patch(T, POD, live, patch)
    assert out == {
        "spec": {
            "volumes": [
                {"name": "foo", "hostPath": {"path": "/p"}},
                {"name": "bar", "emptyDir": {}},
            ]
        }
    }


def test_without_directive_old_behaviour() -> None:
    """The retainKeys proposal "When the patch doesn't have `$retainKeys` directive": plain merge."""
    live = {"state": {"running": {"startedAt": "t0"}}}
    out = apply_patch(T, STATUS, live, {"state": {"terminated": {"exitCode": 1}}})
    assert out == {"state": {"running": {"startedAt": "t0"}, "terminated": {"exitCode": 1}}}
    assert [e.path for e in validate(T, STATUS, out)] == ["state.terminated"]


def test_patch_field_missing_from_retain_keys_is_rejected() -> None:
    """The retainKeys proposal "When the patch has fields that not present in the `$retainKeys` list"."""
    patch = {"unionName": {"$retainKeys": ["fooField"], "fooField": {"a": 1}, "barField": {"x": 1}}}
    with pytest.raises(UnionError) as info:
        apply_patch(T, PARENT, {}, patch)
    assert [str(e) for e in info.value.errors] == [
        'unionName.barField: Invalid value: "barField": is in the patch but not in $retainKeys'
    ]


def test_retain_keys_superset_of_patch_is_valid() -> None:
    """The retainKeys proposal "When the `$retainKeys` list has fields that are not present in the patch":
    merge, and clear the fields not in the list."""
    live = {"unionName": {"discriminatorName": "foo", "fooField": {"a": 1}, "barField": {"b": 1}}}
    patch = {"unionName": {"$retainKeys": ["fooField", "barField"], "fooField": {"c": 2}}}
    assert apply_patch(T, PARENT, live, patch) == {
        "unionName": {"fooField": {"a": 1, "c": 2}, "barField": {"b": 1}}
    }


def test_retain_keys_only_where_the_strategy_allows_it() -> None:
    with pytest.raises(UnionError) as info:
        apply_patch(T, POD, {}, {"spec": {"$retainKeys": [], "nodeSelector": {"a": "b"}}})
    assert info.value.errors[0].path == "spec.$retainKeys"


def test_retain_keys_must_be_a_list_of_strings() -> None:
    with pytest.raises(UnionError) as info:
        apply_patch(T, STATUS, {}, {"state": {"$retainKeys": "running"}})
    assert (
        str(info.value.errors[0])
        == 'state.$retainKeys: Invalid value: "running": must be a list of strings'
    )


def test_null_deletes_and_maps_merge() -> None:
    live = {"spec": {"nodeSelector": {"a": "1", "b": "2"}}}
    out = apply_patch(T, POD, live, {"spec": {"nodeSelector": {"a": None, "c": "3"}}})
    assert out == {"spec": {"nodeSelector": {"b": "2", "c": "3"}}}


def test_list_with_merge_strategy_merges_by_key_and_appends() -> None:
    live = {"spec": {"containers": [{"name": "a", "image": "x"}]}}
    patch = {"spec": {"containers": [{"name": "a", "image": "y"}, {"name": "b", "image": "z"}]}}
    assert apply_patch(T, POD, live, patch) == {
        "spec": {"containers": [{"name": "a", "image": "y"}, {"name": "b", "image": "z"}]}
    }


def test_inputs_are_not_mutated() -> None:
    live = {"spec": {"volumes": [{"name": "foo", "emptyDir": {}}]}}
    patch = {
        "spec": {"volumes": [{"$retainKeys": ["name", "hostPath"], "name": "foo", "hostPath": {}}]}
    }
    live0, patch0 = copy.deepcopy(live), copy.deepcopy(patch)
    apply_patch(T, POD, live, patch)
    assert (live, patch) == (live0, patch0)
