"""`run_project`: the no-argument `markergen crd` (CRDs from the Makefile, types from
`paths=`), and its content-keyed cache of whole runs."""

from __future__ import annotations

from pathlib import Path

from crd_support import CRD_NAME, copy_example
from helpers import TESTDATA

from markergen.cache import CachedRun, OutputCache
from markergen.crd.project import run_project


def test_no_argument_run_uses_the_makefile_outputs_and_patches(tmp_path: Path) -> None:
    project = copy_example(tmp_path)
    run = run_project(project, use_cache=False)
    assert run.targets.dirs == (Path("config/crd/bases"),)
    assert run.targets.outputs[0].source == "Makefile:18"
    assert run.types == ("./...",)
    crd = project / "config" / "crd" / "bases" / CRD_NAME
    assert run.result.changed == (crd.resolve(),)
    assert "x-kubernetes-validations" in crd.read_text(encoding="utf-8")


def test_unchanged_inputs_reuse_the_cached_run_and_a_changed_input_does_not(
    tmp_path: Path,
) -> None:
    project = copy_example(tmp_path)
    crd = project / "config" / "crd" / "bases" / CRD_NAME
    fresh = crd.read_bytes()
    first = run_project(project)
    patched = crd.read_text(encoding="utf-8")
    (entry,) = (project / ".markergen-cache").glob("crd-*.cache")
    # mark the cached output, to see whether the next run takes it from the cache
    slot = OutputCache(entry.parent, entry.stem.removeprefix("crd-"), "", "crd")
    key = entry.read_bytes().split(b'"key": "')[1].split(b'"')[0].decode()
    slot.key = key
    stored = slot.lookup()
    assert stored is not None
    (name,) = [n for n in stored.outputs if n.endswith(CRD_NAME)]
    marked = {**stored.outputs, name: patched + "# from the cache\n"}
    assert slot.store(CachedRun(stored.diagnostics, marked, stored.extra))

    crd.write_bytes(fresh)  # controller-gen writes the CRD again
    second = run_project(project)
    assert crd.read_text(encoding="utf-8").endswith("# from the cache\n")
    assert second.result.diagnostics == first.result.diagnostics

    crd.write_bytes(fresh)
    types = project / "api" / "v1" / "union_types.go"
    types.write_text(types.read_text(encoding="utf-8") + "\n// edited\n", encoding="utf-8")
    run_project(project)
    assert crd.read_text(encoding="utf-8") == patched


# the patterns as they were written, `^[ \t]+` (or `^` and two spaces) tried at every
# position: indented_values must find what they find
_LINE_GROUP = r"^[ \t]+group:[ \t]*['\"]?([A-Za-z0-9.-]+)['\"]?[ \t]*$"
_LINE_KIND = r"^[ \t]+kind:[ \t]*['\"]?([A-Z][A-Za-z0-9]*)['\"]?[ \t]*$"
_SPEC_GROUP = r"^  group: ['\"]?([A-Za-z0-9.-]+)"
_EDGES = """\
group: top.example.com
  group: a.example.com
\tgroup: "b.example.com" \t
  group: c.example.com # comment
  x group: d.example.com
    subgroup: e.example.com
  group: group: f.example.com
   group: 'g.example.com'
  kind: Widget
  listKind: WidgetList
  kind: lower
  subkind: Gadget
\t kind: Thing\r
  group: h.example.com\r
kind: CustomResourceDefinition
  group:
  group: i.example.com"""


def test_indented_values_find_what_the_line_anchored_patterns_find() -> None:
    import re

    from markergen.crd import project, run
    from markergen.yamlio import indented_values

    texts = [_EDGES, _EDGES.replace("\n", "\r\n")]
    texts += [p.read_text(encoding="utf-8") for p in TESTDATA.rglob("*.yaml")]
    for text in texts:
        for anchored, pattern, indent in (
            (_LINE_GROUP, project._CRD_GROUP, None),
            (_LINE_KIND, project._NAMES_KIND, None),
            (_SPEC_GROUP, run._GROUP, "  "),
        ):
            expected = re.findall(anchored, text, re.MULTILINE)
            assert indented_values(pattern, text, indent) == expected
    assert indented_values(project._CRD_GROUP, _EDGES) == [
        "a.example.com", "b.example.com", "g.example.com", "i.example.com"
    ]  # fmt: skip
