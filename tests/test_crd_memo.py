"""What one `markergen crd` run computes once for many CRDs changes nothing: a CRD version
read before takes the changes found for it (markergen.crd.patch.RunMemo.versions), and a
rule's cost estimate is made once per rule text and schema node
(markergen.crd.cost.CostMemo). Both are checked against the run without them, on every
project fixture with copies of its CRDs beside them (as a Helm chart keeps them)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers import TESTDATA

import markergen.crd.patch as patch
import markergen.crd.run as run
from markergen.crd.cost import CostMemo, estimate, hand_cost, hand_rules
from markergen.crd.files import crd_files
from markergen.crd.helm import mask_templates
from markergen.crd.patch import is_ours
from markergen.pipeline import load_model
from markergen.yamlio import YamlError, load_documents

PROJECTS = [
    TESTDATA / "example",
    TESTDATA / "crd" / "openshift",
    TESTDATA / "crd" / "cost",
    *sorted(p for p in (TESTDATA / "projects").iterdir() if (p / "go.mod").is_file()),
]


def _crds(root: Path) -> list[Path]:
    return sorted(
        p for p in root.rglob("*.yaml") if "kind: CustomResourceDefinition" in p.read_text()
    )


class _Forgetful(dict[Any, Any]):
    """A memo that keeps nothing: every version is read afresh."""

    def __setitem__(self, key: Any, value: Any) -> None:
        pass


@pytest.mark.parametrize("project", PROJECTS, ids=lambda p: p.name)
def test_versions_read_before_get_the_changes_a_fresh_reading_gives(
    tmp_path: Path, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / project.name
    shutil.copytree(project, root)
    files = _crds(root)
    assert files
    for f in files:  # a copy of each, as a chart keeps them
        shutil.copyfile(f, f.with_name("copy-" + f.name))
    files = crd_files([*files, *(f.with_name("copy-" + f.name) for f in files)])
    model = load_model(["./..."], root)
    walks: list[str] = []  # the versions whose unions are looked for
    real = patch.union_sites

    def counting(*args: Any) -> Any:
        walks.append("walk")
        return real(*args)

    monkeypatch.setattr(patch, "union_sites", counting)
    remembered = run.plan_files(files, model, root=root)
    read = len(walks)

    class Fresh(patch.RunMemo):
        def __init__(self) -> None:
            super().__init__()
            self.versions = _Forgetful()

    monkeypatch.setattr(run, "RunMemo", Fresh)
    assert run.plan_files(files, model, root=root) == remembered
    # a fresh run reads each version of a copy again (and of an original that is a copy)
    assert len(walks) - read >= 2 * read
    outputs, _ = remembered
    copies = [f for f in files if f.name.startswith("copy-")]
    for copy in copies:  # a copy is patched as its original
        original = copy.with_name(copy.name.removeprefix("copy-"))
        assert outputs.get(copy) == outputs.get(original)


def test_one_cost_memo_gives_every_fixture_rule_its_own_estimate() -> None:
    memo = CostMemo()  # one for all files: equal nodes of different CRDs share estimates
    compared = 0
    for crd in sorted({f for p in PROJECTS for f in _crds(p)}):
        masked = mask_templates(crd.read_text())
        try:
            docs = load_documents(masked.text)
        except YamlError:
            continue  # YAML once Helm renders it
        for doc in docs:
            versions = ((doc.value or {}).get("spec") or {}).get("versions") or []
            for version in versions:
                schema = version["schema"]["openAPIV3Schema"]
                for _ in range(2):  # the second time from the memo
                    assert hand_cost(schema, is_ours, memo) == hand_cost(schema, is_ours)
                for below, rule in hand_rules(schema):
                    old_self = rule.get("optionalOldSelf") is True
                    for where in (below, ()):  # also at the root: another node, same text
                        got = memo.estimate(rule["rule"], schema, where, old_self)
                        assert got == estimate(rule["rule"], schema, where, old_self)
                        compared += 1
    assert compared > 20


LIST = {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string"}}}}


def _under(max_items: int | None) -> dict[str, Any]:
    items = dict(LIST, maxItems=max_items) if max_items is not None else LIST
    return {"type": "object", "properties": {"l": items}}


@pytest.mark.parametrize(
    "rule", ["self.a == 'x'", "has(self.a)", "self.a.size() < 3 &&", "oldSelf.hasValue()"]
)
def test_cost_memo_keeps_apart_what_decides_an_estimate(rule: str) -> None:
    memo = CostMemo()
    at = ("properties", "l", "items")
    # the same node, under lists of other bounds (the context's cardinality), as a
    # resource's root, with optionalOldSelf; a rule that cannot be read, twice
    cases = [
        (_under(10), at, False),
        (_under(20), at, False),
        (_under(None), at, False),
        (_under(10), at, True),
        (LIST["items"], (), False),
        (_under(10), at, False),
    ]
    results = []
    for schema, below, old_self in cases:
        got = memo.estimate(rule, schema, below, old_self)
        assert got == estimate(rule, schema, below, old_self)
        results.append(got)
    assert results[0] == results[-1]
    if not results[0].fallback:
        assert results[0].cardinality == 10 and results[1].cardinality == 20
