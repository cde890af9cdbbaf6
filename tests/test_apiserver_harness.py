"""The harness itself: the real CRD API server accepts a CRD, judges objects against its
schema and CEL rules, and refuses a CRD it cannot compile with its own message."""

from __future__ import annotations

from typing import Any

import kubeserver
import pytest


def _crd(rule: str) -> dict[str, Any]:
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.harness.example.com"},
        "spec": {
            "group": "harness.example.com",
            "names": {"kind": "Widget", "listKind": "WidgetList", "plural": "widgets", "singular": "widget"},
            "scope": "Namespaced",
            "versions": [{
                "name": "v1", "served": True, "storage": True,
                "schema": {"openAPIV3Schema": {
                    "type": "object",
                    "properties": {"spec": {
                        "type": "object",
                        "properties": {
                            "mode": {"type": "string", "enum": ["A", "B"]},
                            "a": {"type": "string"},
                            "size": {"type": "integer", "default": 3},
                        },
                        "x-kubernetes-validations": [{"rule": rule}],
                    }},
                }},
            }],
        },
    }  # fmt: skip


def test_server_judges_schema_and_rules(kube: kubeserver.Server) -> None:
    with kube.installed(_crd("self.mode != 'A' || has(self.a)")) as crd:
        ok = crd.dry_run({"apiVersion": "harness.example.com/v1", "spec": {"mode": "A", "a": "x"}})
        assert ok.accepted, ok.message
        assert ok.stored is not None and ok.stored["spec"]["size"] == 3  # the server defaulted it
        missing = crd.dry_run({"spec": {"mode": "A"}})
        assert not missing.accepted and missing.status == 422
        assert "spec" in missing.fields()
        enum = crd.dry_run({"spec": {"mode": "C"}})
        assert not enum.accepted and "spec.mode" in enum.fields()
        unknown = crd.dry_run({"spec": {"mode": "B", "zzz": 1}})
        assert not unknown.accepted and "zzz" in unknown.message


def test_server_refuses_a_rule_that_does_not_compile(kube: kubeserver.Server) -> None:
    with pytest.raises(kubeserver.CRDRefused) as err:
        kube.install(_crd("self.nosuchfield == 1"))
    assert "undefined field 'nosuchfield'" in err.value.message
