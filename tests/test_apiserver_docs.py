"""What docs/rules.md says the API server does with a CRD, said by the real server: each
bad/good YAML pair of a code whose page claims a refusal is created on it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import kubeserver
import pytest
import yaml

RULES = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def _examples(code: str) -> tuple[dict[str, Any], dict[str, Any]]:
    text = RULES.read_text(encoding="utf-8")
    section = text[text.index(f"## {code}:") :]
    section = section[: section.index("\n## ", 1)]
    bad, good = re.findall(r"```yaml\n(.*?)```", section, re.S)[:2]
    return yaml.safe_load(bad), yaml.safe_load(good)


def _crd(node: dict[str, Any]) -> dict[str, Any]:
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "routers.docs.example.com"},
        "spec": {
            "group": "docs.example.com",
            "scope": "Namespaced",
            "names": {"kind": "Router", "plural": "routers", "listKind": "RouterList", "singular": "router"},
            "versions": [{
                "name": "v1", "served": True, "storage": True,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {"type": "object", "properties": node}}}},
            }],
        },
    }  # fmt: skip


@pytest.mark.parametrize("code", ["MG512", "MG515"])
def test_the_bad_example_is_refused_for_cost_and_the_good_one_accepted(
    kube: kubeserver.Server, code: str
) -> None:
    bad, good = _examples(code)
    # The examples are excerpts: the items' five members are the union's (its text says
    # so), and MG512's show the list alone, its rule being the five-member counting rule.
    rule = " + ".join(f"(has(self.{m}) ? 1 : 0)" for m in "abcde") + " <= 1"
    for node in (bad, good):
        items = node["routes"]["items"]
        items["properties"] = {m: {"type": "object"} for m in "abcde"}
        if code == "MG512":
            items["x-kubernetes-validations"] = [{"rule": rule}]
        assert items["x-kubernetes-validations"] == [{"rule": rule}]
    with pytest.raises(kubeserver.CRDRefused) as err:
        kube.install(_crd(bad))
    assert "estimated rule cost exceeds budget" in err.value.message
    kube.install(_crd(good)).delete()
