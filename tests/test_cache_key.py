"""The one key of markergen's run cache (markergen/cache.py): command, inputs, options,
digests of the extra files read. Identical inputs hit; a change to any part misses.
Real files on disk; the commands' own runs where a command names its extra files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from crd_support import CRD_NAME, copy_example
from helpers import TESTDATA, count_model_loads, run_main

from markergen.cache import CACHE_DIR_NAME, OutputCache, open_run
from markergen.crd.project import run_project
from markergen.project.inputs import crd_inputs

GO = 'package v1\n\n// +enum\ntype Mode string\n\nconst (\n\tModeA Mode = "A"\n)\n'


@pytest.fixture
def module(tmp_path: Path) -> Path:
    (tmp_path / "go.mod").write_text("module example.com/key\n")
    (tmp_path / "api").mkdir()
    (tmp_path / "api" / "types.go").write_text(GO)
    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_text(f"# {name}\n")
    return tmp_path


def _key(module: Path, command: str = "check", options: dict[str, object] | None = None,
         extra: tuple[str, ...] = ("a.yaml", "b.yaml")) -> str:  # fmt: skip
    cache = OutputCache.open(
        module / CACHE_DIR_NAME, ["./api"], module, options or {"strict": False}, command,
        [module / name for name in extra],
    )  # fmt: skip
    assert cache is not None
    return cache.key


def test_identical_inputs_give_the_same_key(module: Path) -> None:
    assert _key(module) == _key(module)
    # the order the extra files are named in is not part of the key
    assert _key(module, extra=("b.yaml", "a.yaml")) == _key(module)


@pytest.mark.parametrize("name", ["a.yaml", "b.yaml"])
def test_a_change_to_any_extra_file_read_changes_the_key(module: Path, name: str) -> None:
    before = _key(module)
    (module / name).write_text("# edited\n")
    assert _key(module) != before
    (module / name).unlink()  # a file that goes away counts too
    gone = _key(module)
    assert gone != before
    (module / name).write_text(f"# {name}\n")  # and coming back as it was is a hit again
    assert _key(module) == before


def test_a_new_extra_file_changes_the_key(module: Path) -> None:
    before = _key(module, extra=("a.yaml", "b.yaml", "c.yaml"))
    (module / "c.yaml").write_text("# new\n")
    assert _key(module, extra=("a.yaml", "b.yaml", "c.yaml")) != before


def test_options_command_and_go_inputs_are_in_the_key(module: Path) -> None:
    before = _key(module)
    assert _key(module, options={"strict": True}) != before
    assert _key(module, command="dump") != before
    (module / "api" / "types.go").write_text(GO.replace('"A"', '"B"'))
    assert _key(module) != before


def test_a_command_without_a_cache_is_refused(module: Path) -> None:
    with pytest.raises(ValueError, match="no cache for command"):
        OutputCache.open(module / CACHE_DIR_NAME, ["./api"], module, {}, "diff")


def test_diff_base_is_keyed_by_its_commit_in_the_same_slot(module: Path) -> None:
    """`diff`'s base revision (markergen.diff.basecache) uses the same key: its input is
    the commit, so another base replaces the entry instead of adding one."""

    def slot(commit: str, options: dict[str, object] | None = None) -> OutputCache:
        where = module / CACHE_DIR_NAME
        opts = options or {"crd-places": None}
        return OutputCache.keyed(where, "diff-base", ["./api"], module, opts, [commit.encode()])

    first, second = slot("a" * 40), slot("b" * 40)
    assert first.key != second.key and first.path == second.path
    assert slot("a" * 40).key == first.key
    other = slot("a" * 40, {"crd-places": ["config/crd", []]})
    assert other.key != first.key and other.path != first.path


def test_no_cache_reads_and_writes_nothing(module: Path) -> None:
    assert open_run(module, "check", ["./api"], module, {}, use=False) == (None, None)
    assert not (module / CACHE_DIR_NAME).exists()


def test_check_and_crd_name_the_same_extra_files(tmp_path: Path) -> None:
    """Both commands read the CRDs, the kept objects and the Makefiles: one listing."""
    project = copy_example(tmp_path)
    bases = project / "config" / "crd" / "bases"
    samples = project / "config" / "samples"
    samples.mkdir(parents=True)
    (samples / "guestbook.yaml").write_text("kind: Guestbook\n")
    found = crd_inputs(project, [bases])
    assert (bases / CRD_NAME).resolve() in found
    assert samples / "guestbook.yaml" in found
    assert project / "Makefile" in found


def test_crd_recomputes_after_an_edited_sample_and_hits_when_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = copy_example(tmp_path)
    crd = project / "config" / "crd" / "bases" / CRD_NAME
    fresh = crd.read_bytes()
    loads = count_model_loads(monkeypatch)
    run_project(project)
    crd.write_bytes(fresh)  # controller-gen writes it again
    run_project(project)
    assert len(loads) == 1  # identical inputs: served
    samples = project / "config" / "samples"
    samples.mkdir(parents=True)
    (samples / "guestbook.yaml").write_text("apiVersion: webapp.example.com/v1\nkind: Guestbook\n")
    crd.write_bytes(fresh)
    run_project(project)
    assert len(loads) == 2  # an extra file read changed
    crd.write_bytes(fresh)
    run_project(project, strict=True)
    assert len(loads) == 3  # an option changed


def test_generate_recomputes_after_an_edited_template_partial(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "p"
    shutil.copytree(TESTDATA / "example", root)
    templates = root / "templates"
    templates.mkdir()
    (templates / "_names.j2").write_text("{% macro n() %}one{% endmacro %}")
    (templates / "names.txt.j2").write_text('{% from "_names.j2" import n %}{{ n() }}\n')
    (root / "markergen.yaml").write_text("templates: templates\n")
    monkeypatch.setenv("MARKERGEN_CACHE_DIR", str(tmp_path / "cache"))
    loads = count_model_loads(monkeypatch)
    assert run_main(["generate", "-q"], root).code == 0
    assert run_main(["generate", "-q"], root).code == 0
    assert len(loads) == 1
    (templates / "_names.j2").write_text("{% macro n() %}two{% endmacro %}")
    assert run_main(["generate", "-q"], root).code == 0
    assert len(loads) == 2
    (out,) = [p for p in root.rglob("names.txt") if CACHE_DIR_NAME not in p.parts]
    assert out.read_text() == "two\n"
