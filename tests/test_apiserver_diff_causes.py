"""Each witness of `markergen diff` refused by the real API server for its own change's
reason (issue 37 item 4): a union member removed (Go field, CRD property and rule gone) is
breaking because a client that still sends the field is refused under strict field
validation (kubectl's default) and has it pruned otherwise; when the member's enum value
goes too, the value's witness is refused for the value and the member's for the field.
Fixture: tests/diffunion.py (a kubebuilder project, two revisions)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import kubeserver
import yaml
from apiserver_objects import placed, version_of
from diffunion import CRD, DROP_GCP, DROP_GCP_VALUE, project, show

from markergen.diff import run_diff


def _sides(tmp_path: Path, head: Any) -> tuple[Path, dict[str, Any], dict[str, Any]]:
    root = project(tmp_path, head)
    base = yaml.safe_load(show(root, "HEAD~1:" + CRD))
    return root, base, yaml.safe_load((root / CRD).read_text(encoding="utf-8"))


def _provider(crd: dict[str, Any], witness: Any) -> dict[str, Any]:
    v1 = version_of(crd, "v1")
    assert v1 is not None
    root = v1["schema"]["openAPIV3Schema"]
    return placed(root, ("properties", "spec", "properties", "provider"), witness)


def _causes(verdict: kubeserver.Verdict) -> str:
    return verdict.message + " " + " ".join(f"{c.field}: {c.message}" for c in verdict.causes)


def test_member_removed_witness_is_refused_for_the_removed_field(
    kube: kubeserver.Server, tmp_path: Path
) -> None:
    root, base, head = _sides(tmp_path, DROP_GCP)
    result = run_diff("HEAD~1", "HEAD", root, "json")
    (c,) = json.loads(result.text)["changes"]
    assert (c["class"], c["kind"]) == ("breaking", "member-removed")
    assert result.fails("breaking")
    witness = c["crd"]["witness"]
    obj = _provider(base, witness)
    with kube.installed(base) as before, kube.installed(head) as after:
        assert before.dry_run(obj).accepted
        strict = after.dry_run(obj)
        assert not strict.accepted
        assert 'unknown field "spec.provider.gcp"' in _causes(strict), _causes(strict)
        # the field is the only reason: without it the head takes the object, and
        # without strict validation the server drops it silently
        pruned = _provider(base, {k: v for k, v in witness.items() if k != "gcp"})
        assert after.dry_run(pruned).accepted
        lax = after.dry_run(obj, field_validation="Ignore")
        assert lax.accepted and lax.stored is not None
        assert "gcp" not in lax.stored["spec"]["provider"]
        assert before.dry_run(obj, field_validation="Ignore").stored is not None


def test_each_witness_is_refused_for_its_own_change(
    kube: kubeserver.Server, tmp_path: Path
) -> None:
    # the member removed with its value: one entry, whose witness the head refuses for
    # the member's field
    root, base, head = _sides(tmp_path / "member", DROP_GCP + DROP_GCP_VALUE)
    (member,) = json.loads(run_diff("HEAD~1", "HEAD", root, "json").text)["changes"]
    assert member["kind"] == "member-removed"
    # the value alone removed: its witness is refused for the value, not for a field
    root, vbase, vhead = _sides(tmp_path / "value", DROP_GCP_VALUE)
    (enum,) = json.loads(run_diff("HEAD~1", "HEAD", root, "json").text)["changes"]
    assert enum["kind"] == "enum-value-removed"
    with kube.installed(base) as before, kube.installed(head) as after:
        obj = _provider(base, member["crd"]["witness"])
        assert before.dry_run(obj).accepted, obj
        refused = after.dry_run(obj)
        assert not refused.accepted
        assert 'unknown field "spec.provider.gcp"' in _causes(refused), _causes(refused)
    with kube.installed(vbase) as before, kube.installed(vhead) as after:
        value = _provider(vbase, enum["crd"]["witness"])
        assert before.dry_run(value).accepted, value
        refused = after.dry_run(value)
        assert not refused.accepted
        assert "spec.provider.type" in {c.field for c in refused.causes}, _causes(refused)
        assert "Unsupported value" in _causes(refused)
        assert "gcp" not in _causes(refused)
