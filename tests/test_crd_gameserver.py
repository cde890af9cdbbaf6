"""Issue 22's fixture project end to end: `markergen crd` with no path patches both
controller-gen outputs of tools/make/gen.mk (one Helm-wrapped) faithfully and writes no
rule that rejects the project's own examples and samples, naming them instead."""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path
from typing import Any

import yaml
from helpers import TESTDATA

from markergen.accept.celeval import CelEvaluator
from markergen.crd.project import run_project
from markergen.project.samples import load_samples, values_at

GAMESERVER = TESTDATA / "projects" / "gameserver"
BASES = Path("config/crd/bases")
CHART = Path("charts/gameserver/templates/crds")


def _rules(node: Any, path: tuple[str | int, ...] = ()) -> list[tuple[tuple[str | int, ...], str]]:
    out: list[tuple[tuple[str | int, ...], str]] = []
    if isinstance(node, dict):
        for r in node.get("x-kubernetes-validations") or []:
            out.append((path, r["rule"]))
        for k, v in node.items():
            if k != "x-kubernetes-validations":
                out.extend(_rules(v, (*path, k)))
    return out


def test_no_argument_crd_patches_both_outputs_and_rejects_no_kept_object(tmp_path: Path) -> None:
    root = tmp_path / "gameserver"
    shutil.copytree(GAMESERVER, root)
    before = {
        p: p.read_text(encoding="utf-8") for d in (BASES, CHART) for p in (root / d).glob("*.yaml")
    }
    run = run_project(root, use_cache=False)
    assert run.targets.dirs == (BASES, CHART)
    assert [o.source for o in run.targets.outputs] == [
        "tools/make/gen.mk:18",
        "tools/make/gen.mk:19",
    ]
    changed = {p.relative_to(root.resolve()).parent for p in run.result.changed}
    assert changed == {BASES, CHART}
    for path, old in before.items():
        new = path.read_text(encoding="utf-8")
        ops = difflib.SequenceMatcher(None, old.splitlines(), new.splitlines(), autojunk=False)
        assert {tag for tag, *_ in ops.get_opcodes()} <= {"equal", "insert"}, path
        if path.parent == root / CHART:
            assert new.splitlines()[0] == old.splitlines()[0] == "{{- if .Values.crds.install }}"
            assert new.splitlines()[-1] == "{{- end }}"
    # the two `+union` structs are documentation (MG360 in check): no rule, and no
    # finding repeated per file (the example they would reject is not named either)
    assert not [d for d in run.result.diagnostics if d.code in ("MG506", "MG510")]
    # every rule written accepts every object the project keeps (evaluated with CEL)
    cel = CelEvaluator()
    objects = load_samples(root, ["games.example.com"])
    assert objects
    for crd_file in (root / BASES).glob("*.yaml"):
        crd = yaml.safe_load(crd_file.read_text(encoding="utf-8"))
        schema = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
        for path, rule in _rules(schema):
            for o in objects:
                if o.kind != crd["spec"]["names"]["kind"]:
                    continue
                for part in values_at(o.value, path):
                    assert cel.passes(rule, part), (rule, o.file, o.line)
