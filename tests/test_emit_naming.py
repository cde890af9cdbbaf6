"""Definition names: openapi-gen's ToRESTFriendlyName, or plain Go names."""

from __future__ import annotations

import pytest

from markergen.emit.naming import (
    definition_name,
    escape_json_pointer,
    key_definition_name,
    ref_v2,
    ref_v3,
)


@pytest.mark.parametrize(
    ("package", "name", "expected"),
    [
        ("k8s.io/api/apps/v1", "DeploymentStrategy", "io.k8s.api.apps.v1.DeploymentStrategy"),
        ("csi.storage.k8s.io/v1alpha1", "CSINodeInfo", "io.k8s.storage.csi.v1alpha1.CSINodeInfo"),
        ("example/api/v1", "Foo", "example.api.v1.Foo"),  # no dot: nothing reversed
        ("github.com/my-org/my_op/api/v1", "Foo", "com.github.my-org.my_op.api.v1.Foo"),
        ("example.com", "Foo", "com.example.Foo"),
        ("k8s.io/kubernetes/vendor/k8s.io/api/core/v1", "Pod", "io.k8s.api.core.v1.Pod"),
    ],
)
def test_openapi_gen_naming(package: str, name: str, expected: str) -> None:
    assert definition_name(package, name) == expected


def test_go_naming_keeps_the_path() -> None:
    assert definition_name("k8s.io/api/apps/v1", "X", "go") == "k8s.io/api/apps/v1.X"
    assert key_definition_name("k8s.io/api/apps/v1.X", "go") == "k8s.io/api/apps/v1.X"


def test_type_key_split_on_last_dot() -> None:
    assert key_definition_name("k8s.io/api/apps/v1.X") == "io.k8s.api.apps.v1.X"


def test_unknown_naming_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown naming"):
        definition_name("a/b", "X", "camel")  # type: ignore[arg-type]


def test_refs_escape_json_pointer_tokens() -> None:
    assert escape_json_pointer("a~b/c") == "a~0b~1c"
    assert ref_v2("k8s.io/api.X") == "#/definitions/k8s.io~1api.X"
    assert ref_v3("io.k8s.X") == "#/components/schemas/io.k8s.X"
