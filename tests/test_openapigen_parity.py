"""Side by side with kube-openapi's openapi-gen (issue "OpenAPI v2 and v3 generation").

The real openapi-gen runs on the project's Go test inputs (testdata/kep, the KEP
examples, and testdata/openapigen, written to exercise what openapi-gen does), in a
temporary GOPATH; a small Go program compiled against Debian's kube-openapi sources
prints its definitions as JSON; they are compared, definition by definition, with
markergen's openapi-v2.json for the same files.

Every difference is either listed in EXPECTED_DIFFERENCES (each one explained in
docs/parity.md). Two documented
transformations turn the installed openapi-gen (kube-openapi 2021-10, Debian 12) into
the current one that markergen follows: zero-value defaults are dropped, and the enum
paragraph is rewritten in the current format (docs/parity.md, "Version differences").

Skips, with the reason, when openapi-gen, Debian's Go or the kube-openapi Go sources are
absent (Debian: `apt-get install kube-openapi golang-go golang-k8s-kube-openapi-dev`, which
hack/test-tools.sh runs as root). Debian's Go, not the Go 1.26 on PATH, is openapi-gen's
GOROOT: the one it was built with. Never uses
the network: GOPATH mode (no module downloads) and GOPROXY=off.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers import REPO, TESTDATA, run_cli

from markergen.emit.options import EmitOptions
from markergen.emit.outputs import render_outputs
from markergen.pipeline import load_model

# Go module roots compared (their go.mod names the import path prefix).
ROOTS = (TESTDATA / "kep", TESTDATA / "openapigen")
GOCODE = Path(os.environ.get("MARKERGEN_GOCODE", "/usr/share/gocode"))
KUBE_OPENAPI = GOCODE / "src" / "k8s.io" / "kube-openapi"
# Debian's openapi-gen is built with Debian's Go (1.19) and runs in GOPATH mode, where the
# Go it reads the standard library of is the GOROOT of the `go` used here: Debian's, which
# golang-go links at /usr/lib/go, not whatever newer Go comes first on PATH (the API
# server harness needs Go 1.26 there).
DEBIAN_GO = Path("/usr/lib/go/bin/go")
INSTALL = "hack/test-tools.sh installs it (as root), or apt-get install"
GENERATED_PKG = "example.com/zz_generated"
TIMEOUT = 240

# The Go program that turns GetOpenAPIDefinitions into JSON. References are built as
# kube-openapi's builder does: `#/definitions/` + the REST-friendly name.
DUMPER = """package main

import (
	"encoding/json"
	"os"

	generated "%s"
	"k8s.io/kube-openapi/pkg/common"
	"k8s.io/kube-openapi/pkg/util"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

func main() {
	ref := func(name string) spec.Ref {
		return spec.MustCreateRef("#/definitions/" + util.ToRESTFriendlyName(name))
	}
	defs := generated.GetOpenAPIDefinitions(common.ReferenceCallback(ref))
	out := map[string]spec.Schema{}
	for name, def := range defs {
		out[util.ToRESTFriendlyName(name)] = def.Schema
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}
"""

MISSING = "<absent>"
P = "com.example.parity.v1."
K = "com.example.kep."
ENUM_LINES = (
    ' - `"Failed"` means that it failed.\n'
    ' - `"Pending"` means that it has not started.\n'
    ' - `"Running"` means that it runs, explained over two lines.\n'
    ' - `"Unknown"`'
)
PHASES = ["Failed", "Pending", "Running", "Unknown"]
KEP004_ENUM = (
    'Possible enum values:\n - `""`\n - `"FieldA"`\n - `"FieldB"`\n - `"FieldC"`\n'
    ' - `"FieldD"`'
)


def _members(*pairs: tuple[str, str, bool]) -> dict[str, Any]:
    return {value: {"name": name, "optional": opt} for value, name, opt in pairs}


# (definition, path) -> (ours, theirs): every difference left after the two version
# transformations, read from the Go inputs and kube-openapi's generator; the reasons
# are in docs/parity.md under the heading given in the comment.
EXPECTED_DIFFERENCES: dict[tuple[str, str], tuple[Any, Any]] = {
    # "the 2022 draft and the current KEP unions (fieldMembers)": openapi-gen only knows kep2019.
    (K + "kep001.InlinedUnion", "/properties/fieldType/x-kubernetes-unions"): (
        {"fieldMembers": _members(("Field1", "field1", False), ("Field2", "field2", False))},
        MISSING,
    ),
    (K + "kep001.InlinedUnion", "/properties/type/x-kubernetes-unions"): (
        {"fieldMembers": _members(("Alpha", "alpha", False), ("Beta", "beta", False))},
        MISSING,
    ),
    (K + "kep001.TopLevelUnion", "/properties/unionType/x-kubernetes-unions"): (
        {"fieldMembers": _members(("FieldA", "fieldA", False))},
        MISSING,
    ),
    (K + "kep001.Union", "/properties/unionType/x-kubernetes-unions"): (
        {"fieldMembers": _members(("FieldA", "fieldA", False))},
        MISSING,
    ),
    (K + "kep001.Union2", "/properties/type/x-kubernetes-unions"): (
        {"fieldMembers": _members(("Alpha", "alpha", False), ("Beta", "beta", False))},
        MISSING,
    ),
    (K + "kep004basic.Union", "/properties/UnionType/x-kubernetes-unions"): (
        {"fieldMembers": {"": None, **_members(("FieldA", "FieldA", False),
                                               ("FieldB", "FieldB", False)),
                          "FieldC": None, "FieldD": None}},
        MISSING,
    ),
    (K + "kep004inline.TopLevelUnion", "/properties/unionType/x-kubernetes-unions"): (
        {"fieldMembers": {"": None, **_members(("FieldA", "fieldA", False),
                                               ("FieldB", "fieldB", True)),
                          "FieldC": None, "FieldD": None}},
        MISSING,
    ),
    (K + "kep004inline.Union", "/properties/unionType/x-kubernetes-unions"): (
        {"fieldMembers": {"": None, **_members(("FieldA", "fieldA", False),
                                               ("FieldB", "fieldB", True)),
                          "FieldC": None, "FieldD": None}},
        MISSING,
    ),
    (K + "kep004inline.Union2", "/properties/type/x-kubernetes-unions"): (
        {"fieldMembers": _members(("ALPHA", "alpha", False), ("BETA", "beta", True))},
        MISSING,
    ),
    (K + "kep004openapi.Union", "/properties/union1/x-kubernetes-unions"): (
        {"fieldMembers": {"": None, **_members(("FieldA", "fieldA", False),
                                               ("FieldB", "fieldB", True)),
                          "FieldC": None, "FieldD": None}},
        MISSING,
    ),
    # "Enums through pointers, list items and map values".
    (P + "Enums", "/properties/phasePtr/enum"): (PHASES, MISSING),
    (P + "Enums", "/properties/phasePtr/description"): (
        "PhasePtr is an enum through a pointer.\n\nPossible enum values:\n" + ENUM_LINES,
        "PhasePtr is an enum through a pointer.",
    ),
    (P + "Enums", "/properties/phases/items/enum"): (PHASES, MISSING),
    (P + "Enums", "/properties/byName/additionalProperties/enum"): (PHASES, MISSING),
    # "Enums of integer, float and bool types": openapi-gen ignores +enum on int32.
    (P + "Enums", "/properties/priority/enum"): ([1, 2], MISSING),
    # "+required" (controller-gen's reading, MG301).
    (P + "Described", "/required"): (["req", "notTODO", "undocumented"],
                                     ["notTODO", "undocumented"]),
    # "Embedded fields without a json tag".
    (P + "EmbeddedNoTag", "/properties/Item"): (
        MISSING, {"$ref": "#/definitions/com.example.parity.v1.Item"}),
    (P + "EmbeddedNoTag", "/properties/name"): (
        {"description": "Name of the item.", "type": "string"}, MISSING),
    (P + "EmbeddedNoTag", "/properties/port"): (
        {"description": "Port of the item.", "type": "integer", "format": "int32"}, MISSING),
    (P + "EmbeddedNoTag", "/required"): (["name"], ["Item"]),
    # "Unions of structs inlined through a pointer".
    (P + "PointerInline", "/x-kubernetes-unions"): (
        [{"discriminator": "kind", "fields-to-discriminateBy": {"git": "Git", "http": "HTTP"}}],
        MISSING,
    ),
}

# ---------------------------------------------------------------------------------------
# Running openapi-gen


def _missing_tools() -> str | None:
    if shutil.which("openapi-gen") is None:
        return f"openapi-gen is not installed: {INSTALL} kube-openapi"
    if not Path(_go()).is_file():
        return f"Debian's Go is not installed at {DEBIAN_GO}: {INSTALL} golang-go"
    if not (KUBE_OPENAPI / "pkg" / "common" / "common.go").is_file():
        return (f"kube-openapi Go sources not found under {GOCODE}: {INSTALL} "
                "golang-k8s-kube-openapi-dev (or set MARKERGEN_GOCODE)")
    return None


def _go() -> str:
    """The `go` of openapi-gen's GOPATH mode: $MARKERGEN_OPENAPIGEN_GO, else Debian's."""
    return os.environ.get("MARKERGEN_OPENAPIGEN_GO", str(DEBIAN_GO))


def _module_path(root: Path) -> str:
    match = re.search(r"^module\s+(\S+)", (root / "go.mod").read_text(), re.MULTILINE)
    assert match, f"no module line in {root / 'go.mod'}"
    return match.group(1)


def _go_dirs(root: Path) -> list[Path]:
    return sorted({p.parent for p in root.rglob("*.go")})


def _copy_into_gopath(gopath: Path) -> list[str]:
    """Copy every package of ROOTS into GOPATH/src, each opted in to openapi-gen with a
    `+k8s:openapi-gen=true` package comment in doc.go (gengo reads package comments from
    doc.go only); returns the import paths."""
    packages: list[str] = []
    for root in ROOTS:
        module = _module_path(root)
        for d in _go_dirs(root):
            rel = d.relative_to(root).as_posix()
            import_path = f"{module}/{rel}" if rel != "." else module
            target = gopath / "src" / import_path
            target.mkdir(parents=True)
            for f in d.glob("*.go"):
                if not f.name.endswith("_test.go"):
                    shutil.copy2(f, target / f.name)
            doc = target / "doc.go"
            if doc.exists():
                doc.write_text("// +k8s:openapi-gen=true\n\n" + doc.read_text())
            else:
                name = re.search(r"^package\s+(\w+)", next(d.glob("*.go")).read_text(),
                                 re.MULTILINE)
                assert name, f"no package clause in {d}"
                doc.write_text(f"// +k8s:openapi-gen=true\n\npackage {name.group(1)}\n")
            packages.append(import_path)
    return packages


def _go_env(gopath: str, cache: Path) -> dict[str, str]:
    goroot = subprocess.run([_go(), "env", "GOROOT"], capture_output=True, text=True,
                            check=True, timeout=60).stdout.strip()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GO")}
    # GOPATH mode: no module downloads, so nothing can reach the network.
    # openapi-gen's go/build may run `go` itself: the same Go, first on PATH.
    env["PATH"] = os.pathsep.join([str(Path(_go()).parent), env.get("PATH", "")])
    env.update(GO111MODULE="off", GOPATH=gopath, GOROOT=goroot, GOPROXY="off",
               GOFLAGS="", GOCACHE=os.environ.get("GOCACHE", str(cache)))
    return env


def _run(cmd: list[str], cwd: Path, env: dict[str, str]) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT, check=False)
    if proc.returncode != 0:
        pytest.fail(f"{' '.join(cmd[:2])} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return proc.stdout


@pytest.fixture(scope="module")
def theirs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    reason = _missing_tools()
    if reason:
        pytest.skip(reason)
    tmp = tmp_path_factory.mktemp("openapigen")
    gopath = tmp / "gopath"
    packages = _copy_into_gopath(gopath)
    header = tmp / "header.txt"
    header.write_text("")
    env = _go_env(str(gopath), tmp / "gocache")
    _run(["openapi-gen", "-i", ",".join(packages), "-p", GENERATED_PKG,
          "-o", str(gopath / "src"), "-h", str(header), "-r", str(tmp / "report.txt")],
         tmp, env)
    dumper = gopath / "src" / "example.com" / "zz_dump"
    dumper.mkdir(parents=True)
    (dumper / "main.go").write_text(DUMPER % GENERATED_PKG)
    build_env = _go_env(f"{gopath}{os.pathsep}{GOCODE}", tmp / "gocache")
    _run([_go(), "build", "-o", str(tmp / "dump"), "example.com/zz_dump"], tmp, build_env)
    result: dict[str, Any] = json.loads(_run([str(tmp / "dump")], tmp, build_env))
    return result


@pytest.fixture(scope="module")
def ours() -> dict[str, Any]:
    definitions: dict[str, Any] = {}
    for root in ROOTS:
        # consts/ only holds constants imported by imported/: markergen must find them
        # by following the import, as openapi-gen (go/types) does.
        patterns = [f"./{d.relative_to(root).as_posix()}" for d in _go_dirs(root)
                    if d.name != "consts"]
        model = load_model(patterns, root)
        assert all(not p.import_path.endswith("/consts") for p in model.packages)
        text = render_outputs(model, EmitOptions())["openapi-v2.json"]
        definitions.update(json.loads(text)["definitions"])
    return definitions


# ---------------------------------------------------------------------------------------
# The two version transformations (docs/parity.md, "Version differences")

_ZERO_DEFAULTS: tuple[Any, ...] = ("", 0, False, {})
_ENUM_LINE = re.compile(r"^ - `(?P<value>[^`]*)`:(?: (?P<comment>.*))?$")
ENUM_HEADER = "Possible enum values:"


def strip_zero_defaults(schema: Any, path: str = "", found: list[str] | None = None) -> Any:
    """openapi-gen writes `default: <zero value>` on non-pointer, non-omitempty fields;
    markergen does not. Returns the schema without them; paths go to `found`."""
    if isinstance(schema, dict):
        out = {}
        for k, v in schema.items():
            if k == "default" and any(v == z and type(v) is type(z) for z in _ZERO_DEFAULTS):
                if found is not None:
                    found.append(path)
                continue
            out[k] = strip_zero_defaults(v, f"{path}/{k}", found)
        return out
    if isinstance(schema, list):
        return [strip_zero_defaults(v, path, found) for v in schema]
    return schema


def current_enum_paragraph(description: str) -> str:
    """Rewrite the 2021 enum paragraph (`` - `V`: comment``, one line per constant,
    leading blank paragraph kept) the way current openapi-gen writes it
    (`` - `"V"` comment``, one line per value, leading newlines trimmed)."""
    head, sep, tail = description.partition(ENUM_HEADER)
    if not sep:
        return description
    lines: dict[str, str] = {}
    for line in sorted(tail.split("\n")[1:]):
        m = _ENUM_LINE.match(line)
        assert m, f"unexpected enum line {line!r}"
        # First in sorted order wins; testdata declares the kept constant first, which
        # is what current openapi-gen keeps (test_duplicate_enum_values pins both).
        value = m.group("value")
        comment = m.group("comment") or ""
        lines.setdefault(value, f" - `{json.dumps(value)}` {comment}".rstrip(" "))
    return (head + sep + "\n" + "\n".join(sorted(lines.values()))).lstrip("\n")


def to_current(schema: Any) -> Any:
    if isinstance(schema, dict):
        out = {k: to_current(v) for k, v in schema.items()}
        if isinstance(out.get("description"), str):
            out["description"] = current_enum_paragraph(out["description"])
        if isinstance(out.get("enum"), list):
            out["enum"] = sorted(set(out["enum"]), key=json.dumps)
        return out
    if isinstance(schema, list):
        return [to_current(v) for v in schema]
    return schema


def differences(ours: Any, theirs: Any, path: str = "") -> dict[str, tuple[Any, Any]]:
    """Path -> (ours, theirs) of every leaf or key that differs."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        out: dict[str, tuple[Any, Any]] = {}
        for k in sorted(set(ours) | set(theirs)):
            sub = f"{path}/{k}"
            if k not in theirs:
                out[sub] = (ours[k], MISSING)
            elif k not in ours:
                out[sub] = (MISSING, theirs[k])
            else:
                out.update(differences(ours[k], theirs[k], sub))
        return out
    return {} if ours == theirs else {path: (ours, theirs)}


def all_differences(ours: dict[str, Any], theirs: dict[str, Any]) -> dict[tuple[str, str],
                                                                          tuple[Any, Any]]:
    out: dict[tuple[str, str], tuple[Any, Any]] = {}
    for name in sorted(set(ours) & set(theirs)):
        current = to_current(strip_zero_defaults(theirs[name]))
        for path, pair in differences(ours[name], current).items():
            out[(name, path)] = pair
    return out


# ---------------------------------------------------------------------------------------
# The comparison


def test_same_definitions(ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    assert sorted(ours) == sorted(theirs)
    # Sanity: both runs saw every package.
    assert {n.rsplit(".", 1)[0] for n in theirs} == {
        "com.example.kep.kep000", "com.example.kep.kep001", "com.example.kep.kep004basic",
        "com.example.kep.kep004inline", "com.example.kep.kep004openapi",
        "com.example.parity.imported", "com.example.parity.shared", "com.example.parity.v1",
    }


def test_every_difference_is_documented(ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    found = all_differences(ours, theirs)
    unexpected = {k: v for k, v in found.items() if EXPECTED_DIFFERENCES.get(k) != v}
    gone = sorted(set(EXPECTED_DIFFERENCES) - set(found))
    assert not unexpected, "undocumented differences (ours, theirs):\n" + "\n".join(
        f"{d} {p}: {v!r}" for (d, p), v in sorted(unexpected.items()))
    assert not gone, f"documented differences that no longer occur: {gone}"


def test_every_documented_difference_is_in_docs() -> None:
    doc = (REPO / "docs" / "parity.md").read_text()
    for name, path in EXPECTED_DIFFERENCES:
        short = name.rsplit(".", 1)[1]
        assert f"`{short}`" in doc, f"docs/parity.md does not mention {short} ({path})"


def test_unions_are_equal(ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    """The 2019 KEP "OpenAPI": the struct-level list, in openapi-gen's order, for every
    definition (PointerInline is markergen's deliberate extension)."""
    compared = 0
    for name in sorted(theirs):
        if name == P + "PointerInline":
            continue
        assert ours[name].get("x-kubernetes-unions") == theirs[name].get(
            "x-kubernetes-unions"), name
        compared += "x-kubernetes-unions" in theirs[name]
    assert compared == 7  # kep000's four, Source, Build, Undiscriminated
    # Build: own Source union first (inlined), then its +unionDeprecated member-union.
    assert theirs[P + "Build"]["x-kubernetes-unions"] == [
        {"discriminator": "kind", "fields-to-discriminateBy": {"git": "Git", "http": "HTTP"}},
        {"discriminator": "strategy",
         "fields-to-discriminateBy": {"custom": "Custom", "docker": "Docker"}},
    ]


# ---------------------------------------------------------------------------------------
# The version transformations are what they claim to be


def test_zero_defaults_are_the_only_defaults(theirs: dict[str, Any], ours: dict[str, Any]) -> None:
    found: list[str] = []
    strip_zero_defaults(theirs[P + "Scalars"], "", found)
    # Non-pointer, non-omitempty fields; not `omit`, `optStr`, `bytes` (omitempty/pointer)
    # nor `asString` (`,string` returns before defaults are generated).
    assert sorted(found) == sorted(
        f"/properties/{n}" for n in ("str", "flag", "i", "i8", "i16", "i32", "i64", "u",
                                     "u8", "u16", "u32", "u64", "f32", "f64", "b", "NoTag",
                                     "plain"))
    assert theirs[P + "Scalars"]["properties"]["flag"]["default"] is False
    assert theirs[P + "Collections"]["properties"]["single"]["default"] == {}
    assert "default" not in theirs[P + "Collections"]["properties"]["singlePtr"]
    assert all("default" not in p for p in ours[P + "Scalars"]["properties"].values())


def test_duplicate_enum_values(theirs: dict[str, Any], ours: dict[str, Any]) -> None:
    """: sorted and deduplicated; openapi-gen 2021 repeats "Running"."""
    phase = theirs[P + "Enums"]["properties"]["phase"]
    assert phase["enum"] == ["Failed", "Pending", "Running", "Running", "Unknown"]
    assert " - `Running`: repeats the value \"Running\"." in phase["description"]
    assert " - `Running`: means that it runs, explained over two lines." in phase["description"]
    mine = ours[P + "Enums"]["properties"]["phase"]
    assert mine["enum"] == PHASES
    assert mine["description"] == (
        "Phase is a direct enum.\n\nPossible enum values:\n" + ENUM_LINES)


def test_enum_paragraph_without_field_comment(theirs: dict[str, Any],
                                              ours: dict[str, Any]) -> None:
    """2021 keeps the leading blank paragraph and writes `` - ``:`` for ""; current
    openapi-gen trims leading newlines and quotes values."""
    raw = theirs[K + "kep004openapi.Union"]["properties"]["union1"]["description"]
    assert raw.startswith("\n\nPossible enum values:\n")
    assert raw.endswith(" - ``:")
    assert ours[K + "kep004openapi.Union"]["properties"]["union1"]["description"] == KEP004_ENUM
    assert current_enum_paragraph(raw) == KEP004_ENUM


def test_descriptions_match_exactly(theirs: dict[str, Any], ours: dict[str, Any]) -> None:
    """Paragraphs, tab and space indentation, TODO lines, markers and `---`
    (go/ast's Text() removes one space after `//`, so `//   x` keeps two)."""
    described = theirs[P + "Described"]["description"]
    assert described == (
        "Described shows how descriptions are formatted.\n\n"
        "A second paragraph that is wrapped over two lines, with \"quotes\" and `backticks`."
        "\n\nExample:\n\tindented with a tab\n\t  and more\n\n  indented with spaces")
    assert ours[P + "Described"]["description"] == described


# ---------------------------------------------------------------------------------------
# The parity inputs are valid for the real command


def test_cli_generate_writes_the_compared_definitions(tmp_path: Path,
                                                      ours: dict[str, Any]) -> None:
    result = run_cli(["generate", "./...", "--out-dir", str(tmp_path)],
                     cwd=TESTDATA / "openapigen")
    assert result.code == 0, result.stderr
    written = json.loads((tmp_path / "openapi-v2.json").read_text())["definitions"]
    assert written == {k: v for k, v in ours.items() if k.startswith("com.example.parity.")}


# ---------------------------------------------------------------------------------------
# The helpers themselves (these run without Go)


def test_current_enum_paragraph_rewrites_and_deduplicates() -> None:
    raw = "Doc.\n\nPossible enum values:\n - `B`: b one\n - `A`:\n - `B`: b two"
    assert current_enum_paragraph(raw) == (
        'Doc.\n\nPossible enum values:\n - `"A"`\n - `"B"` b one')
    assert current_enum_paragraph("no enum here") == "no enum here"


def test_strip_zero_defaults_keeps_real_defaults() -> None:
    found: list[str] = []
    schema = {"properties": {"a": {"default": 0}, "b": {"default": 1},
                             "c": {"default": "x"}, "d": {"default": {}}}}
    assert strip_zero_defaults(schema, "", found) == {
        "properties": {"a": {}, "b": {"default": 1}, "c": {"default": "x"}, "d": {}}}
    assert found == ["/properties/a", "/properties/d"]


def test_differences_reports_both_sides() -> None:
    assert differences({"a": 1, "b": {"c": 2}}, {"b": {"c": 3}, "d": 4}) == {
        "/a": (1, MISSING), "/b/c": (2, 3), "/d": (MISSING, 4)}
