"""The alias budget of markergen's YAML reader against the API server's own YAML reader.

Objects are posted as `application/yaml`, so the server decodes the text itself
(sigs.k8s.io/yaml over go-yaml v2): it refuses a document with "excessive aliasing"
before it looks at the object. For each family of documents the server's boundary is
found by bisection on the server alone, then markergen must accept the last document the
server accepts and refuse the first it refuses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import kubeserver
import pytest

from markergen.yamlread import YamlError, compose_documents

CRD: dict[str, Any] = {
    "apiVersion": "apiextensions.k8s.io/v1",
    "kind": "CustomResourceDefinition",
    "metadata": {"name": "blobs.alias.example.com"},
    "spec": {
        "group": "alias.example.com",
        "names": {"kind": "Blob", "listKind": "BlobList", "plural": "blobs", "singular": "blob"},
        "scope": "Namespaced",
        "versions": [{
            "name": "v1", "served": True, "storage": True,
            "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                "spec": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
            }}},
        }],
    },
}  # fmt: skip


def _object(group: str, spec: str) -> str:
    return f"apiVersion: {group}/v1\nkind: Blob\nmetadata:\n  name: b\nspec:\n{spec}"


def _flat_list(k: int) -> Callable[[int], str]:
    """A list of `k` scalars behind an anchor, and `m` aliases of it."""
    anchor = "[" + ", ".join(["x"] * k) + "]"
    return lambda m: f"  a: &a {anchor}\n  b: [{', '.join(['*a'] * m)}]\n"


def _flat_map(k: int) -> Callable[[int], str]:
    """A block mapping of `k` keys behind an anchor, `m` aliases of it as list items."""
    keys = "".join(f"    k{i}: v\n" for i in range(k))
    return lambda m: "  a: &a\n" + keys + "  b:\n" + "".join("  - *a\n" for _ in range(m))


def _nested(width: int) -> Callable[[int], str]:
    """`depth` levels of lists of `width` aliases of the level below (the issue's shape)."""

    def spec(depth: int) -> str:
        lines = [f"  a0: &a0 [{', '.join(['x'] * width)}]\n"]
        for i in range(1, depth + 1):
            lines.append(f"  a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]\n")
        return "".join(lines)

    return spec


@pytest.fixture(scope="module")
def blobs(kube: kubeserver.Server) -> Iterator[kubeserver.Installed]:
    with kube.installed(CRD) as handle:
        yield handle


def _server_accepts(handle: kubeserver.Installed, text: str) -> bool:
    code, reply = handle.client.request_raw(
        "POST", handle.path("v1") + "?dryRun=All", text.encode(), "application/yaml"
    )
    if code in (200, 201):
        return True
    message = str(reply.get("message", reply))
    assert "excessive aliasing" in message or "anchor" in message, message
    return False


def _markergen_accepts(text: str) -> bool:
    try:
        compose_documents(text)
    except YamlError as e:
        assert e.aliasing, e
        return False
    return True


@pytest.mark.parametrize(
    ("family", "upper"),
    [
        (_flat_list(200), 2000),
        (_flat_list(1000), 2000),
        (_flat_map(150), 2000),
        (_nested(10), 9),
        (_nested(4), 12),
    ],
    ids=["list-200", "list-1000", "map-150", "nested-10-wide", "nested-4-wide"],
)
def test_the_budget_refuses_exactly_where_the_server_does(
    blobs: kubeserver.Installed, family: Callable[[int], str], upper: int
) -> None:
    def text(n: int) -> str:
        return _object(blobs.group, family(n))

    assert _server_accepts(blobs, text(1))
    assert not _server_accepts(blobs, text(upper))
    lo, hi = 1, upper  # the server accepts lo and refuses hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _server_accepts(blobs, text(mid)):
            lo = mid
        else:
            hi = mid
    assert _markergen_accepts(text(lo)), f"the server accepts n={lo}"
    assert not _markergen_accepts(text(hi)), f"the server refuses n={hi}"


def test_an_anchor_that_contains_itself_is_refused_by_both(blobs: kubeserver.Installed) -> None:
    text = _object(blobs.group, "  a: &a [x, *a]\n")
    assert not _server_accepts(blobs, text)
    assert not _markergen_accepts(text)


def test_merge_keys_count_as_the_server_counts_them(blobs: kubeserver.Installed) -> None:
    # `<<: *a` brings the anchor's keys into each item: near the boundary, counting the
    # `<<` key itself (go-yaml does not) would move it
    keys = "".join(f"    k{i}: v\n" for i in range(150))

    def text(m: int) -> str:
        items = "".join("  - <<: *a\n    own: v\n" for _ in range(m))
        return _object(blobs.group, "  a: &a\n" + keys + "  b:\n" + items)

    lo, hi = 1, 2000
    assert _server_accepts(blobs, text(lo)) and not _server_accepts(blobs, text(hi))
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _server_accepts(blobs, text(mid)):
            lo = mid
        else:
            hi = mid
    assert _markergen_accepts(text(lo)) and not _markergen_accepts(text(hi))
