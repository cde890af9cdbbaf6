"""Go package patterns and file selection on real directories."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threepackages import write_module

from markergen.dump import model_to_json
from markergen.golang.header import scan_header
from markergen.golang.imports import ImportedPackages
from markergen.golang.packages import LoadResult, PatternError, load_packages
from markergen.golang.parser import GoParser
from markergen.golang.source import prepare
from markergen.golang.syntax import GoPackage
from markergen.model.builder import build_model
from markergen.pipeline import load_model

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


LICENSE = b"/*\nCopyright The Kubernetes Authors.\n\nLicensed under the Apache License.\n*/\n\n"


def _parser_view(data: bytes) -> tuple[bool, str]:
    f = GoParser().parse("x.go", data)
    return f.generated, f.build_constraint


HEADERS = [
    LICENSE
    + b"// Code generated by protoc-gen-gogo. DO NOT EDIT.\n// source: x.proto\n\npackage v1\n",
    LICENSE + b"//go:build !ignore_autogenerated\n// +build !ignore_autogenerated\n\n"
    b"// Code generated by deepcopy-gen. DO NOT EDIT.\n\npackage v1\n",
    b"//go:build ignore\n\npackage main\n\nfunc main() {}\n",
    b"// +build ignore\n\npackage main\n",
    b"// +build linux,amd64 darwin\n// +build !cgo\n\npackage p\n",
    b"// Code generated DO NOT EDIT.\npackage p\n",  # no `.*` between: not generated
    b"  // Code generated by x. DO NOT EDIT.\n\npackage p\n",  # indented comment line
    b"// Code generated by x. DO NOT EDIT. \n\npackage p\n",  # trailing blank: not generated
    b"package p\n\n// Code generated by x. DO NOT EDIT.\n",  # after the package clause
    b"// doc\n/* block */ // Code generated by x. DO NOT EDIT.\npackage p\n",
    b"/* go:build ignore */\npackage p\n",
    b"/* unterminated\npackage p\n",
    LICENSE + b"package v1\n",
    b"",
    b"package",
]


def test_header_scan_agrees_with_the_parser_whenever_it_decides() -> None:
    decided = 0
    for raw in HEADERS:
        data = prepare("x.go", raw)
        header = scan_header(data)
        if header is None:
            continue
        decided += 1
        assert (header.generated, header.build_constraint) == _parser_view(data), raw
    # The common generated-file shapes (license block first) are decided without parsing.
    assert decided >= 9
    assert scan_header(prepare("x.go", HEADERS[0])) is not None
    assert scan_header(prepare("x.go", HEADERS[0])).generated  # type: ignore[union-attr]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "// Code generated by gen. DO NOT EDIT.",
                "//go:build ignore",
                "//go:build linux",
                "// +build ignore",
                "// +build a,b c",
                "// plain comment",
                "",
                "/* block\n comment */",
                "/* go:build x */",
                "\t// indented",
            ]
        ),
        max_size=6,
    )
)
def test_header_scan_property(lines: list[str]) -> None:
    data = prepare("x.go", ("\n".join(lines) + "\npackage p\n\ntype T struct{}\n").encode())
    header = scan_header(data)
    if header is not None:
        assert (header.generated, header.build_constraint) == _parser_view(data)


def test_generated_files_are_skipped_before_parsing_with_the_same_result(tmp_path: Path) -> None:
    (tmp_path / "go.mod").write_text("module example.com/h\n")
    (tmp_path / "types.go").write_text("package h\n\ntype A struct{}\n")
    (tmp_path / "generated.pb.go").write_bytes(HEADERS[0] + b"\ntype B struct{}\n")
    (tmp_path / "zz_generated.go").write_bytes(HEADERS[1] + b"\ntype C struct{}\n")
    (tmp_path / "tool.go").write_bytes(HEADERS[2])
    (pkg,) = load_packages(["."], tmp_path).packages
    assert [f.path for f in pkg.files] == ["types.go"]
    assert sorted(pkg.skipped) == ["generated.pb.go", "tool.go", "zz_generated.go"]
    (gen,) = load_packages(["."], tmp_path, include_generated=True).packages
    assert [f.path for f in gen.files] == ["generated.pb.go", "types.go", "zz_generated.go"]
    assert gen.skipped == ("tool.go",)
    # A file named explicitly is read whatever its header says.
    (explicit,) = load_packages(["./generated.pb.go"], tmp_path).packages
    assert [t.name for t in explicit.files[0].types] == ["B"]


def test_generated_but_not_utf8_is_still_reported(tmp_path: Path) -> None:
    (tmp_path / "go.mod").write_text("module example.com/h\n")
    (tmp_path / "a.go").write_text("package h\n")
    (tmp_path / "bad.go").write_bytes(HEADERS[0] + b"// \xff\n")
    (pkg,) = load_packages(["."], tmp_path).packages
    assert [p.path for p in pkg.problems] == ["bad.go"]


@pytest.fixture
def module(tmp_path: Path) -> Path:
    return write_module(tmp_path)


def test_model_built_package_by_package_equals_the_model_built_at_once(module: Path) -> None:
    streamed = load_model(["./..."], module)
    at_once = build_model(
        load_packages(["./..."], module).packages, imports=ImportedPackages(module)
    )
    assert model_to_json(streamed) == model_to_json(at_once)
    fields = {f.go_name: f.type for f in streamed.structs["example.com/stream/a.Holder"].fields}
    assert fields["Thing"].kind == "named"
    assert fields["Missing"].deref().kind == "external"  # corrected after all were read
    assert fields["ByName"].elem is not None and fields["ByName"].elem.kind == "external"
