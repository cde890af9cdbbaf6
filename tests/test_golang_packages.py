"""Go package patterns and file selection on real directories."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from markergen.golang.packages import LoadResult, PatternError, load_packages
from markergen.golang.syntax import GoPackage

ROOT = Path(__file__).resolve().parent.parent
GOLANG = ROOT / "testdata" / "golang"
MOD = GOLANG / "mod"
KEP = ROOT / "testdata" / "kep"


def by_dir(result: LoadResult) -> dict[str, GoPackage]:
    return {p.dir: p for p in result.packages}


def file_names(pkg: GoPackage) -> list[str]:
    return [f.path.rsplit("/", 1)[-1] for f in pkg.files]


def test_recursive_pattern_skips_testdata_vendor_hidden_and_nested_modules() -> None:
    result = load_packages(["./tree/..."], MOD)
    assert result.errors == ()
    assert [p.dir for p in result.packages] == ["tree", "tree/sub", "tree/sub/deeper"]
    assert [p.import_path for p in result.packages] == [
        "example.com/golang/tree",
        "example.com/golang/tree/sub",
        "example.com/golang/tree/sub/deeper",
    ]
    assert all(p.module_root == "." for p in result.packages)
    assert [p.name for p in result.packages] == ["tree", "sub", "deeper"]


def test_whole_module_from_its_root() -> None:
    result = load_packages(["./..."], MOD)
    dirs = [p.dir for p in result.packages]
    assert dirs == sorted(dirs)
    for expected in ("markers", "consts", "types", "broken", "filters", "lineendings/crlf"):
        assert expected in dirs
    # No Go files (empty, tree/nogo) or only tests (onlytests): not packages.
    for absent in ("empty", "onlytests", "tree/nogo", "tree/nested", "tree/vendor"):
        assert absent not in dirs
    # A directory whose only file cannot be decoded is still reported, with its problem.
    assert by_dir(result)["badenc"].files == ()
    assert result.errors == ()


def test_plain_directory_is_just_that_directory() -> None:
    result = load_packages(["tree"], MOD)
    assert [p.dir for p in result.packages] == ["tree"]
    assert file_names(result.packages[0]) == ["tree.go"]


def test_explicit_pattern_may_name_a_skipped_directory() -> None:
    result = load_packages(["./tree/testdata", "./tree/_hidden/..."], MOD)
    assert [p.dir for p in result.packages] == ["tree/_hidden", "tree/testdata"]


def test_import_path_from_nearest_go_mod_relative_to_cwd() -> None:
    result = load_packages(["mod/types"], GOLANG)
    (pkg,) = result.packages
    assert (pkg.dir, pkg.import_path, pkg.module_root) == (
        "mod/types",
        "example.com/golang/types",
        "mod",
    )
    assert pkg.files[0].path == "mod/types/types.go"


def test_nested_module_with_quoted_module_path() -> None:
    (pkg,) = load_packages(["./tree/nested"], MOD).packages
    assert (pkg.import_path, pkg.module_root) == ("example.com/nested", "tree/nested")


def test_kep_testdata_module() -> None:
    result = load_packages(["./..."], KEP)
    assert result.errors == ()
    assert [(p.dir, p.import_path, p.name) for p in result.packages] == [
        ("kep000", "example.com/kep/kep000", "kep000"),
        ("kep001", "example.com/kep/kep001", "kep001"),
        ("kep004basic", "example.com/kep/kep004basic", "kep004basic"),
        ("kep004inline", "example.com/kep/kep004inline", "kep004inline"),
        ("kep004openapi", "example.com/kep/kep004openapi", "kep004openapi"),
    ]
    assert all(p.files and not p.problems for p in result.packages)


def test_file_filters_and_include_generated() -> None:
    (pkg,) = load_packages(["./filters"], MOD).packages
    assert file_names(pkg) == ["api.go"]
    assert sorted(s.rsplit("/", 1)[-1] for s in pkg.skipped) == [
        "oldtools.go",
        "tools.go",
        "zz_generated.deepcopy.go",
    ]
    (gen,) = load_packages(["./filters"], MOD, include_generated=True).packages
    assert file_names(gen) == ["api.go", "zz_generated.deepcopy.go"]
    assert sorted(s.rsplit("/", 1)[-1] for s in gen.skipped) == ["oldtools.go", "tools.go"]


def test_single_file_pattern_is_that_file_alone() -> None:
    (pkg,) = load_packages(["./filters/tools.go"], MOD).packages
    assert file_names(pkg) == ["tools.go"] and pkg.dir == "filters"
    assert pkg.import_path == "example.com/golang/filters"
    # With its directory too, the package holds the union of both selections.
    (both,) = load_packages(["./filters/tools.go", "./filters"], MOD).packages
    assert file_names(both) == ["api.go", "tools.go"]


def test_missing_path_and_directories_without_go_files() -> None:
    result = load_packages(["./nope", "./empty", "./onlytests", "./nope/...", "a/.../b"], MOD)
    assert result.packages == ()
    errors = {e.pattern: e.message for e in result.errors}
    assert set(errors) == {"./nope", "./empty", "./onlytests", "./nope/...", "a/.../b"}
    assert errors["./nope"].startswith("no such file or directory")
    assert errors["./empty"] == errors["./onlytests"] == "matched no Go files"
    assert "wildcard" in errors["a/.../b"]
    assert all(isinstance(e, PatternError) for e in result.errors)


def test_pattern_whose_files_are_all_excluded(tmp_path: Path) -> None:
    d = tmp_path / "gen"
    d.mkdir()
    shutil.copy(MOD / "filters" / "zz_generated.deepcopy.go", d / "zz_generated.go")
    result = load_packages(["./gen"], tmp_path)
    assert result.packages == ()
    assert [e.pattern for e in result.errors] == ["./gen"]
    assert "excluded" in result.errors[0].message


def test_non_utf8_file_is_a_file_problem() -> None:
    (pkg,) = load_packages(["./badenc"], MOD).packages
    (problem,) = pkg.problems
    assert problem.path == "badenc/latin1.go"
    assert problem.line == 1 and problem.column > 1 and "UTF-8" in problem.message


def test_package_without_go_mod(tmp_path: Path) -> None:
    shutil.copytree(GOLANG / "nomod", tmp_path / "nomod")
    (pkg,) = load_packages(["./nomod/..."], tmp_path).packages
    assert (pkg.dir, pkg.import_path, pkg.module_root) == ("nomod", "nomod", None)
    assert pkg.name == "nomod"


def test_paths_outside_cwd_are_absolute(tmp_path: Path) -> None:
    (pkg,) = load_packages([str(MOD / "types")], tmp_path).packages
    assert pkg.dir == (MOD / "types").as_posix() and pkg.dir.startswith("/")
    assert pkg.files[0].path == (MOD / "types" / "types.go").as_posix()
    assert pkg.module_root == MOD.as_posix()


def test_symlink_loop_terminates(tmp_path: Path) -> None:
    a = tmp_path / "a"
    (a / "b").mkdir(parents=True)
    (a / "x.go").write_text("package a\n\ntype X int\n")
    (a / "b" / "y.go").write_text("package b\n\ntype Y int\n")
    os.symlink(a, a / "b" / "loop")  # a/b/loop -> a
    os.symlink(a / "b", a / "again")  # a/again -> a/b: the same directory twice
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "z.go").write_text("package shared\n")
    os.symlink(shared, a / "linked")  # a link out of the tree is followed
    result = load_packages(["./a/..."], tmp_path)
    assert result.errors == ()
    assert [p.dir for p in result.packages] == ["a", "a/b", "a/linked"]


def test_unreadable_file_is_a_file_problem(tmp_path: Path) -> None:
    d = tmp_path / "p"
    d.mkdir()
    (d / "ok.go").write_text("package p\n")
    os.symlink(d / "missing-target.go", d / "dangling.go")
    (pkg,) = load_packages(["./p"], tmp_path).packages
    assert file_names(pkg) == ["ok.go"]
    assert [p.path for p in pkg.problems] == ["p/dangling.go"]
    assert pkg.problems[0].message.startswith("cannot read file")


def test_result_does_not_depend_on_pattern_order() -> None:
    patterns = ["./tree/...", "./types", "./consts", "./markers"]
    first = load_packages(patterns, MOD)
    second = load_packages(list(reversed(patterns)), MOD)
    assert first == second
    # The same directory through two patterns is one package.
    assert len(load_packages(["./types", "types", "./types/..."], MOD).packages) == 1
