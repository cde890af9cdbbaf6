"""The runtime (markergen/runtime, which imports nothing of markergen so that a webhook can
vendor it) is held to the one reference of what a union accepts: `markergen.accept.union`.

Unions are generated as Go text (every combination of: one to three members, each
optional or not, the discriminator required or optional, a value that selects no member
or none; the 2019 KEP's `+union` with and without a discriminator; controller-gen's
ExactlyOneOf and AtMostOneOf; validation-gen's `+k8s:unionMember` with and without
`+k8s:unionDiscriminator`, and `+k8s:zeroOrOneOfMember`), read by the real Go reader, and their runtime table is
generated as `markergen generate` writes it. On every object of the union's family
(`family`: each value with its members, without one, with another value's member, no
discriminator, each member alone, two together; `family_k8s` for validation-gen's),
`validate` reports no error exactly when the reference allows the object.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from markergen.accept.union import family, family_k8s, set_value
from markergen.emit.naming import key_definition_name
from markergen.emit.options import EmitOptions
from markergen.emit.table import build_table
from markergen.model import Model, Union
from markergen.pipeline import load_model
from markergen.runtime import Table, validate

NAMES = ["Alpha", "Beta", "Gamma"]


def _kep1027(i: int, n: int, required: bool, optional: tuple[bool, ...], empty: bool) -> str:
    values = NAMES[:n] + (["Manual"] if empty else [])
    consts = "\n".join(f'\tK{i}{v} K{i} = "{v}"' for v in values)
    tag = "type" if required else "type,omitempty"
    members = "\n".join(
        f"\t// +unionMember{',optional' if opt else ''}\n\t// +optional\n"
        f'\t{v} *M `json:"{v.lower()},omitempty"`'
        for v, opt in zip(NAMES[:n], optional, strict=True)
    )
    return f"""
// K{i} names the member.
// +enum
type K{i} string

const (
{consts}
)

// U{i} is a union.
type U{i} struct {{
\t// +unionDiscriminator
\t// +{"required" if required else "optional"}
\tType K{i} `json:"{tag}"`
{members}
}}
"""


def _kep2019(i: int, n: int, discriminated: bool) -> str:
    disc = '\t// +unionDiscriminator\n\t// +optional\n\tType string `json:"type,omitempty"`\n'
    members = "\n".join(
        f'\t// +optional\n\t{v} *M `json:"{v.lower()},omitempty"`' for v in NAMES[:n]
    )
    return f"""
// U{i} is a union of the 2019 KEP.
// +union
type U{i} struct {{
{disc if discriminated else ""}{members}
}}
"""


def _kubebuilder(i: int, n: int, marker: str) -> str:
    members = "\n".join(
        f'\t// +optional\n\t{v} *M `json:"{v.lower()},omitempty"`' for v in NAMES[:n]
    )
    names = ";".join(v.lower() for v in NAMES[:n])
    return f"""
// U{i} is a union of controller-gen's markers.
// +kubebuilder:validation:{marker}={names}
type U{i} struct {{
{members}
}}
"""


def _k8s(i: int, n: int, member: str, discriminated: bool) -> str:
    disc = (
        '\t// +k8s:unionDiscriminator\n\t// +k8s:optional\n\tType string `json:"type,omitempty"`\n'
    )
    members = "\n".join(
        f'\t// +k8s:{member}\n\t// +k8s:optional\n\t{v} *M `json:"{v.lower()},omitempty"`'
        for v in NAMES[:n]
    )
    return f"""
// U{i} is a union of validation-gen's tags.
type U{i} struct {{
{disc if discriminated else ""}{members}
}}
"""


def _sources() -> list[str]:
    out: list[str] = []
    for n in (1, 2, 3):
        for required, empty in itertools.product((True, False), (True, False)):
            for optional in itertools.product((False, True), repeat=n):
                out.append(_kep1027(len(out), n, required, optional, empty))
        for discriminated in (False, True):
            out.append(_kep2019(len(out), n, discriminated))
        if n > 1:
            for marker in ("ExactlyOneOf", "AtMostOneOf"):
                out.append(_kubebuilder(len(out), n, marker))
        for member, discriminated in itertools.product(
            ("unionMember", "zeroOrOneOfMember"), (False, True)
        ):
            if member == "unionMember" or not discriminated:
                out.append(_k8s(len(out), n, member, discriminated))
    return out


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Model, Table]:
    root: Path = tmp_path_factory.mktemp("unions")
    (root / "go.mod").write_text("module example.com/unions\n\ngo 1.21\n")
    (root / "v1").mkdir()
    text = "package v1\n\n// M is a member's value.\ntype M struct {\n"
    text += '\tX string `json:"x,omitempty"`\n}\n' + "".join(_sources())
    (root / "v1" / "types.go").write_text(text)
    model = load_model(["./..."], root)
    return model, Table.from_dict(build_table(model, EmitOptions()))


def _unions(model: Model) -> list[Union]:
    return [u for s in model.structs.values() for u in s.unions]


def test_every_generated_union_is_read(generated: tuple[Model, Table]) -> None:
    model, _ = generated
    semantics = sorted({u.semantics for u in _unions(model)})
    assert len(_unions(model)) == len(_sources())
    assert semantics == ["k8s", "kep1027", "kep2019"]


def test_runtime_validate_gives_the_reference_verdict(generated: tuple[Model, Table]) -> None:
    model, table = generated
    tried = 0
    wrong: list[str] = []
    for union in _unions(model):
        disc = union.discriminator
        enum = list(disc.values) if disc is not None and disc.values else None
        name = key_definition_name(union.struct)
        probes = (
            family_k8s(union, union.members, enum, {m.json_name: "object" for m in union.members})
            if union.semantics == "k8s"
            else family(union, union.members, enum)
        )
        for probe in probes:
            obj: dict[str, Any] = {
                k: set_value("object") if v == {} else v for k, v in probe.obj.items()
            }
            tried += 1
            if (validate(table, name, obj) == []) != probe.allowed:
                verdict = "allows" if probe.allowed else "forbids"
                wrong.append(f"{union.struct} ({union.semantics}): the reference {verdict} {obj}")
    assert tried > 300
    assert not wrong, "\n".join(wrong)
