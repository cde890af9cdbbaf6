"""Constants from imported packages, found as the go command finds them.

Each test lays out a real tree on disk (go.mod, go.work, vendor/, a module cache as Go
writes it, a GOPATH) and checks the enum values the whole pipeline resolves. The
environment is passed explicitly, so the developer's own GOPATH never leaks in.
"""

from __future__ import annotations

import json
from pathlib import Path

from markergen.golang.imports import escape_module_path, parse_gomod
from markergen.model import Model
from markergen.pipeline import load_model
from markergen.rules import all_diagnostics

API = """package v1

import shared "{path}"

// +enum
type Protocol string

const (
	ProtocolTCP Protocol = Protocol(shared.TCP)
	ProtocolUDP Protocol = shared.UDP
)
"""

SHARED = """package shared

type Name string

const (
	TCP Name = "TCP"
	UDP = Alias
)

const Alias = "UDP"
"""


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def values(model: Model) -> dict[str, list[str]]:
    return {key: [v.value for v in e.values] for key, e in model.enums.items()}


def load(root: Path, pattern: str, **env: str) -> Model:
    environment = {"HOME": str(root / "home"), **env}
    return load_model([pattern], root, env=environment)


def test_two_packages_of_one_module(tmp_path: Path) -> None:
    write(tmp_path / "go.mod", "module example.com/m\n\ngo 1.22\n")
    write(tmp_path / "api/v1/types.go", API.format(path="example.com/m/shared"))
    write(tmp_path / "shared/names.go", SHARED)
    model = load(tmp_path, "./api/v1")
    assert values(model) == {"example.com/m/api/v1.Protocol": ["TCP", "UDP"]}
    # The imported package is read (cache key) but neither emitted nor checked.
    assert [p.import_path for p in model.packages] == ["example.com/m/api/v1"]
    assert str(tmp_path / "shared/names.go") in model.files_read
    assert "api/v1/types.go" in model.files_read
    assert not all_diagnostics(model)


def test_replace_to_a_local_directory(tmp_path: Path) -> None:
    write(
        tmp_path / "app/go.mod",
        "module example.com/app\n\nrequire example.com/lib v1.0.0\n\n"
        "replace example.com/lib => ../lib\n",
    )
    write(tmp_path / "app/api/v1/types.go", API.format(path="example.com/lib/shared"))
    write(tmp_path / "lib/go.mod", "module example.com/lib\n")
    write(tmp_path / "lib/shared/names.go", SHARED)
    model = load(tmp_path / "app", "./api/v1")
    assert values(model) == {"example.com/app/api/v1.Protocol": ["TCP", "UDP"]}
    assert str(tmp_path / "lib/shared/names.go") in model.files_read


def test_go_work_with_two_modules(tmp_path: Path) -> None:
    write(tmp_path / "go.work", "go 1.22\n\nuse (\n\t./app\n\t./lib\n)\n")
    write(tmp_path / "app/go.mod", "module example.com/app\n")
    write(tmp_path / "app/api/v1/types.go", API.format(path="example.com/lib/shared"))
    write(tmp_path / "lib/go.mod", "module example.com/lib\n")
    write(tmp_path / "lib/shared/names.go", SHARED)
    model = load(tmp_path / "app", "./api/v1")
    assert values(model) == {"example.com/app/api/v1.Protocol": ["TCP", "UDP"]}
    assert str(tmp_path / "go.work") in model.files_read
    # GOWORK=off: the workspace is ignored, and nothing else provides the module.
    model = load(tmp_path / "app", "./api/v1", GOWORK="off")
    assert values(model) == {"example.com/app/api/v1.Protocol": []}
    assert model.enums["example.com/app/api/v1.Protocol"].incomplete


def test_vendor_directory(tmp_path: Path) -> None:
    write(tmp_path / "go.mod", "module example.com/app\n\nrequire example.com/lib v1.0.0\n")
    write(tmp_path / "api/v1/types.go", API.format(path="example.com/lib/shared"))
    write(tmp_path / "vendor/example.com/lib/shared/names.go", SHARED)
    # A module cache holding other values must not win over vendor/.
    cache = tmp_path / "cache"
    write(cache / "example.com/lib@v1.0.0/shared/names.go", SHARED.replace('"TCP"', '"tcp"'))
    model = load(tmp_path, "./api/v1", GOMODCACHE=str(cache))
    assert values(model) == {"example.com/app/api/v1.Protocol": ["TCP", "UDP"]}


def test_module_cache_with_escaped_paths(tmp_path: Path) -> None:
    write(
        tmp_path / "app/go.mod",
        "module example.com/app\n\nrequire (\n\tgithub.com/Acme/Lib v1.2.0 // indirect\n)\n",
    )
    write(tmp_path / "app/api/v1/types.go", API.format(path="github.com/Acme/Lib/shared"))
    gopath = tmp_path / "gopath"
    # GOMODCACHE unset: $GOPATH/pkg/mod, with upper case written !lower.
    write(gopath / "pkg/mod/github.com/!acme/!lib@v1.2.0/shared/names.go", SHARED)
    model = load(tmp_path / "app", "./api/v1", GOPATH=str(gopath))
    assert values(model) == {"example.com/app/api/v1.Protocol": ["TCP", "UDP"]}


def test_default_gopath_is_home_go(tmp_path: Path) -> None:
    write(tmp_path / "app/go.mod", "module example.com/app\n\nrequire example.com/lib v1.0.0\n")
    write(tmp_path / "app/api/v1/types.go", API.format(path="example.com/lib/shared"))
    write(tmp_path / "home/go/pkg/mod/example.com/lib@v1.0.0/shared/names.go", SHARED)
    model = load(tmp_path / "app", "./api/v1", HOME=str(tmp_path / "home"))
    assert values(model) == {"example.com/app/api/v1.Protocol": ["TCP", "UDP"]}


def test_versioned_replace_reads_the_replacement_from_the_cache(tmp_path: Path) -> None:
    write(
        tmp_path / "app/go.mod",
        "module example.com/app\n\nrequire example.com/lib v1.0.0\n\n"
        "replace example.com/lib v1.0.0 => example.com/fork v1.1.0\n",
    )
    write(tmp_path / "app/api/v1/types.go", API.format(path="example.com/lib/shared"))
    cache = tmp_path / "cache"
    write(cache / "example.com/lib@v1.0.0/shared/names.go", SHARED.replace('"TCP"', '"old"'))
    write(cache / "example.com/fork@v1.1.0/shared/names.go", SHARED)
    model = load(tmp_path / "app", "./api/v1", GOMODCACHE=str(cache))
    assert values(model) == {"example.com/app/api/v1.Protocol": ["TCP", "UDP"]}


def test_gopath_mode(tmp_path: Path) -> None:
    gopath = tmp_path / "gopath"
    write(gopath / "src/example.com/app/api/v1/types.go", API.format(path="example.com/shared"))
    write(gopath / "src/example.com/shared/names.go", SHARED)
    model = load(gopath / "src/example.com/app", "./api/v1", GOPATH=str(gopath))
    assert [v.value for e in model.enums.values() for v in e.values] == ["TCP", "UDP"]


def test_missing_import_names_the_path_and_the_places_searched(tmp_path: Path) -> None:
    write(tmp_path / "go.mod", "module example.com/app\n\nrequire example.com/lib v1.0.0\n")
    write(tmp_path / "api/v1/types.go", API.format(path="example.com/lib/shared"))
    cache = tmp_path / "cache"
    model = load(tmp_path, "./api/v1", GOMODCACHE=str(cache))
    enum = model.enums["example.com/app/api/v1.Protocol"]
    assert enum.values == () and enum.incomplete
    found = [d for d in all_diagnostics(model) if d.code in ("MG020", "MG102")]
    assert [(d.code, d.pos.file, d.pos.line) for d in found] == [
        ("MG020", "api/v1/types.go", 9),
        ("MG020", "api/v1/types.go", 10),
    ]
    expected = (cache / "example.com/lib@v1.0.0/shared").as_posix()
    assert f"searched: {expected})" in found[0].message
    assert "example.com/lib/shared.TCP" in found[0].message
    assert "go mod" in (found[0].hint or "")


def test_standard_library_imports_are_not_reported(tmp_path: Path) -> None:
    write(tmp_path / "go.mod", "module example.com/app\n")
    write(
        tmp_path / "api/v1/types.go",
        'package v1\n\nimport "net/http"\n\n// +enum\ntype Method string\n\n'
        'const (\n\tGet Method = "GET"\n\tPost Method = http.MethodPost\n)\n',
    )
    model = load(tmp_path, "./api/v1")
    assert values(model) == {"example.com/app/api/v1.Method": ["GET"]}
    assert not [d for d in all_diagnostics(model) if d.code == "MG020"]


def test_gomod_parsing_and_escaping() -> None:
    mod = parse_gomod(
        Path("/m"),
        'module "example.com/m" // comment\n\nrequire (\n\ta.io/x v1.0.0\n\t"b.io/y" v2.0.0'
        " // indirect\n)\nreplace a.io/x => ./x\nreplace (\n\tb.io/y v2.0.0 => c.io/z v3.0.0\n)\n",
    )
    assert mod.module == "example.com/m"
    assert mod.requires == (("a.io/x", "v1.0.0"), ("b.io/y", "v2.0.0"))
    assert mod.replaces == (("a.io/x", "", "./x", ""), ("b.io/y", "v2.0.0", "c.io/z", "v3.0.0"))
    assert escape_module_path("github.com/BurntSushi/toml") == "github.com/!burnt!sushi/toml"


def test_incomplete_enum_in_openapi(tmp_path: Path) -> None:
    from markergen.emit.options import EmitOptions
    from markergen.emit.outputs import render_outputs

    write(tmp_path / "go.mod", "module example.com/app\n\nrequire example.com/lib v1.0.0\n")
    write(
        tmp_path / "api/v1/types.go",
        API.format(path="example.com/lib/shared")
        + 'const ProtocolSCTP Protocol = "SCTP"\n\n'
        + "type Port struct {\n\t// Protocol of the port.\n"
        + '\tProtocol Protocol `json:"protocol"`\n}\n',
    )
    model = load(tmp_path, "./api/v1", GOMODCACHE=str(tmp_path / "cache"))
    assert model.enums["example.com/app/api/v1.Protocol"].incomplete
    outputs = render_outputs(model, EmitOptions())
    for name in ("openapi-v2.json", "openapi-v3.json"):
        text = outputs[name]
        prop = json.loads(text)
        found = [
            s
            for s in _walk(prop)
            if isinstance(s, dict) and "Protocol of the port." in str(s.get("description", ""))
        ]
        assert found, name
        assert "enum" not in found[0], name
        assert "incomplete enum" in found[0]["description"], name
        assert '`"SCTP"`' in found[0]["description"], name


def _walk(node: object) -> list[object]:
    out = [node]
    if isinstance(node, dict):
        for v in node.values():
            out.extend(_walk(v))
    elif isinstance(node, list):
        for v in node:
            out.extend(_walk(v))
    return out


# ---------------------------------------------------------------------------------------
# A field whose type is another package's enum (issue 18, item 3)

COREV1 = """package v1

// Protocol defines network protocols supported for things like container ports.
// +enum
type Protocol string

const (
	// ProtocolTCP is the TCP protocol.
	ProtocolTCP Protocol = "TCP"
	// ProtocolUDP is the UDP protocol.
	ProtocolUDP Protocol = "UDP"
)

// A struct type of the same package: looked at, never an enum.
type ObjectReference struct {
	Name string `json:"name"`
}
"""
COREV1_MORE = """package v1

// In another file than the type: still a value (the package's constants of the type).
const ProtocolSCTP Protocol = "SCTP"
"""
KUBEBUILDER = """package v1

import corev1 "k8s.io/api/core/v1"

type Port struct {
	Protocol corev1.Protocol `json:"protocol"`
	Protocols []corev1.Protocol `json:"protocols,omitempty"`
	Ref corev1.ObjectReference `json:"ref"`
}
"""


def _port_props(model: Model) -> dict[str, object]:
    from markergen.emit.options import EmitOptions
    from markergen.emit.outputs import render_outputs

    doc = json.loads(render_outputs(model, EmitOptions())["openapi-v2.json"])
    props: dict[str, object] = doc["definitions"]["com.example.op.api.v1.Port"]["properties"]
    return props


def _kubebuilder_project(root: Path) -> None:
    write(root / "go.mod", "module example.com/op\n\nrequire k8s.io/api v0.31.0\n")
    write(root / "api/v1/types.go", KUBEBUILDER)


def test_field_of_an_imported_enum_type_from_the_module_cache(tmp_path: Path) -> None:
    _kubebuilder_project(tmp_path)
    cache = tmp_path / "cache"
    write(cache / "k8s.io/api@v0.31.0/core/v1/types.go", COREV1)
    write(cache / "k8s.io/api@v0.31.0/core/v1/more.go", COREV1_MORE)
    write(cache / "k8s.io/api@v0.31.0/core/v1/unrelated.go", "package v1\n\nconst X = 1\n")
    model = load(tmp_path, "./api/v1", GOMODCACHE=str(cache))
    enum = model.enums["k8s.io/api/core/v1.Protocol"]
    assert enum.imported and [v.value for v in enum.values] == ["TCP", "UDP", "SCTP"]
    props = _port_props(model)
    assert props["protocol"] == {
        "type": "string",
        "enum": ["SCTP", "TCP", "UDP"],
        "description": 'Possible enum values:\n - `"SCTP"` In another file than the type: '
        'still a value (the package\'s constants of the type).\n - `"TCP"` is the TCP '
        'protocol.\n - `"UDP"` is the UDP protocol.',
    }
    assert props["protocols"] == {
        "type": "array",
        "items": {"type": "string", "enum": ["SCTP", "TCP", "UDP"]},
    }
    # A struct of the imported package stays a reference; nothing of it is emitted.
    assert props["ref"] == {"$ref": "#/definitions/io.k8s.api.core.v1.ObjectReference"}
    assert [p.import_path for p in model.packages] == ["example.com/op/api/v1"]
    assert not [d for d in all_diagnostics(model) if d.code != "MG302"]
    # Only the files that mention the type were read as Go (and recorded for the cache).
    assert str(cache / "k8s.io/api@v0.31.0/core/v1/types.go") in model.files_read


def test_field_of_an_imported_enum_type_from_vendor(tmp_path: Path) -> None:
    _kubebuilder_project(tmp_path)
    write(tmp_path / "vendor/k8s.io/api/core/v1/types.go", COREV1)
    model = load(tmp_path, "./api/v1", GOMODCACHE=str(tmp_path / "empty"))
    assert _port_props(model)["protocol"]["enum"] == ["TCP", "UDP"]  # type: ignore[index]


def test_imported_enum_discriminator_gets_its_values(tmp_path: Path) -> None:
    write(tmp_path / "go.mod", "module example.com/op\n\nrequire k8s.io/api v0.31.0\n")
    write(
        tmp_path / "api/v1/types.go",
        """package v1

import corev1 "k8s.io/api/core/v1"

type TCP struct{}

type UDP struct{}

type Listener struct {
	// +unionDiscriminator
	// +required
	Protocol corev1.Protocol `json:"protocol"`
	// +unionMember
	// +optional
	TCP *TCP `json:"tcp,omitempty"`
	// +unionMember
	// +optional
	UDP *UDP `json:"udp,omitempty"`
}
""",
    )
    write(tmp_path / "cache/k8s.io/api@v0.31.0/core/v1/types.go", COREV1)
    model = load(tmp_path, "./api/v1", GOMODCACHE=str(tmp_path / "cache"))
    (union,) = model.structs["example.com/op/api/v1.Listener"].unions
    assert union.discriminator is not None and union.discriminator.values == ("TCP", "UDP")
    assert not [d for d in all_diagnostics(model) if d.code == "MG104"]
    # Without the module cache the values are unknown, and MG104 says so.
    missing = load(tmp_path, "./api/v1", GOMODCACHE=str(tmp_path / "nowhere"))
    assert [d.code for d in all_diagnostics(missing) if d.code == "MG104"] == ["MG104"]


def test_field_of_an_unfound_package_keeps_its_reference(tmp_path: Path) -> None:
    """No diagnostic for a plain field (every metav1 field would get one in a tree without
    a module cache); its schema stays a $ref listed as an external reference."""
    _kubebuilder_project(tmp_path)
    model = load(tmp_path, "./api/v1", GOMODCACHE=str(tmp_path / "nowhere"))
    assert _port_props(model)["protocol"] == {"$ref": "#/definitions/io.k8s.api.core.v1.Protocol"}
    assert "k8s.io/api/core/v1.Protocol" not in model.enums
    assert not [d for d in all_diagnostics(model) if d.code in ("MG020", "MG104")]


def test_imported_enum_with_a_missing_constant_is_incomplete(tmp_path: Path) -> None:
    """The imported type's own constant refers to a third package that is missing: MG020
    is not raised for the imported package (never checked), but the enum is incomplete
    in the outputs rather than silently short."""
    _kubebuilder_project(tmp_path)
    cache = tmp_path / "cache"
    write(
        cache / "k8s.io/api@v0.31.0/core/v1/types.go",
        COREV1.replace('ProtocolUDP Protocol = "UDP"', "ProtocolUDP Protocol = net.UDP").replace(
            "package v1\n", 'package v1\n\nimport net "example.com/gone/net"\n'
        ),
    )
    write(cache / "k8s.io/api@v0.31.0/go.mod", "module k8s.io/api\n")
    model = load(tmp_path, "./api/v1", GOMODCACHE=str(cache))
    enum = model.enums["k8s.io/api/core/v1.Protocol"]
    assert enum.incomplete and [v.value for v in enum.values] == ["TCP"]
    protocol = _port_props(model)["protocol"]
    assert "enum" not in protocol  # type: ignore[operator]
    assert "incomplete enum" in protocol["description"]  # type: ignore[index]


def test_imported_files_follow_the_inputs_ignore_rule(tmp_path: Path) -> None:
    # `ignore` ANDed in: never builds, skipped; ORed in: builds, read (as for inputs).
    write(tmp_path / "go.mod", "module example.com/m\n\ngo 1.22\n")
    write(tmp_path / "api/v1/types.go", API.format(path="example.com/m/shared"))
    write(tmp_path / "shared/names.go", "//go:build linux || ignore\n\n" + SHARED)
    write(
        tmp_path / "shared/other.go",
        '//go:build ignore && linux\n\npackage shared\n\nconst Alias = "ignored"\n',
    )
    model = load(tmp_path, "./api/v1")
    assert values(model) == {"example.com/m/api/v1.Protocol": ["TCP", "UDP"]}


def test_an_imported_alias_takes_the_constants_of_the_type_it_names(tmp_path: Path) -> None:
    # testdata/golang/aliasenum: `type FamilyPolicyType = FamilyPolicy` carries +enum in
    # a module `replace`d by a local directory; the constants are FamilyPolicy's, in two
    # files other than the alias's (as k8s.io/api's IPFamilyPolicyType).
    from helpers import TESTDATA

    from markergen.emit.options import EmitOptions
    from markergen.emit.outputs import render_outputs

    app = TESTDATA / "golang" / "aliasenum" / "app"
    model = load(app, "./api/...", GOMODCACHE=str(tmp_path / "empty"))
    enum = model.enums["example.com/dep/policy.FamilyPolicyType"]
    assert enum.imported and [v.value for v in enum.values] == ["Single", "Prefer", "Require"]
    assert not [d for d in all_diagnostics(model) if d.code == "MG102"]
    doc = json.loads(render_outputs(model, EmitOptions())["openapi-v2.json"])
    prop = doc["definitions"]["com.example.app.api.v1.ServiceSpec"]["properties"]["familyPolicy"]
    assert prop["enum"] == ["Prefer", "Require", "Single"]
