"""Hints that work: a rule's hint, applied as the edit it describes, makes the check pass.

Each test copies a real-shaped fixture package into a module in tmp_path, applies the
edit the hint spells out (found by the hint's own text, so a hint that stops naming a
concrete edit fails here), and checks again.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from helpers import TESTDATA

from markergen.diagnostics import Diagnostic
from markergen.pipeline import check_model, load_model

ABOVE = re.compile(r"`(// \+[^`]+)` above (\w+)")
WRITE = re.compile(r"write `(// \+[^`]+)`")


def _module(tmp_path: Path, package: str) -> Path:
    root = tmp_path / "m"
    (root / package).mkdir(parents=True)
    (root / "go.mod").write_text("module example.com/m\n\ngo 1.24\n")
    for f in (TESTDATA / "check" / package).glob("*.go"):
        shutil.copy(f, root / package / f.name)
    return root


def _check(root: Path) -> list[Diagnostic]:
    return check_model(load_model(["./..."], root))


def _insert_above(path: Path, line_text: str, go_field: str, after_line: int) -> None:
    """Insert `line_text` (indented like the field) above the field `go_field`'s marker
    block: right above its first comment line, after `after_line` (the diagnostic's)."""
    lines = path.read_text().split("\n")
    at = next(i for i in range(after_line, len(lines)) if re.match(rf"\s*{go_field}\s", lines[i]))
    start = at
    while start > 0 and lines[start - 1].strip().startswith("//"):
        start -= 1
    indent = re.match(r"\s*", lines[at]).group(0)  # type: ignore[union-attr]
    lines.insert(start, indent + line_text)
    path.write_text("\n".join(lines))


def test_mg205_hint_makes_documented_members_members(tmp_path: Path) -> None:
    root = _module(tmp_path, "gateway")
    before = _check(root)
    notes = [d for d in before if d.code == "MG205"]
    assert [d.severity.value for d in notes] == ["info"]  # one note for the union
    assert notes[0].hint is not None
    edits = ABOVE.findall(notes[0].hint)
    assert edits == [
        ("// +unionMember=GRPC", "GRPCAuthConfig"),
        ("// +unionMember=HTTP", "HTTPAuthConfig"),
    ]
    path = root / notes[0].pos.file
    for text, go_field in edits:
        _insert_above(path, text, go_field, notes[0].pos.line)
    after = _check(root)
    assert after == [], [f"{d.code} {d.pos.line}: {d.message}" for d in after]
    # and the union now holds both members, selected by the enum values
    model = load_model(["./..."], root)
    union = model.structs["example.com/m/gateway.HTTPExternalAuthFilter"].unions[0]
    assert [(m.json_name, m.value) for m in union.members] == [("grpc", "GRPC"), ("http", "HTTP")]


def test_mg340_hint_names_the_enum_value(tmp_path: Path) -> None:
    root = _module(tmp_path, "openshift")
    before = _check(root)
    found = [d for d in before if d.code == "MG340"]
    assert len(found) == 1 and found[0].hint is not None
    match = WRITE.search(found[0].hint)
    assert match is not None and match.group(1) == "// +unionMember=SigV4"
    path = root / found[0].pos.file
    lines = path.read_text().split("\n")
    marker_line = lines[found[0].pos.line - 1]
    assert marker_line.strip() == "// +unionMember"
    lines[found[0].pos.line - 1] = marker_line.replace("// +unionMember", match.group(1))
    path.write_text("\n".join(lines))
    after = _check(root)
    assert after == [], [f"{d.code} {d.pos.line}: {d.message}" for d in after]


def test_mg340_member_builds_no_rule(tmp_path: Path) -> None:
    root = _module(tmp_path, "openshift")
    model = load_model(["./..."], root)
    union = model.structs["example.com/m/openshift.RemoteWriteAuthorization"].unions[0]
    assert [m.go_name for m in union.members] == ["BasicAuth"]
    assert [m.go_name for m in union.unmatched] == ["Sigv4"]
    # "SigV4" and "ServiceAccount" select no member: every member must stay unset
    assert union.empty_values == ("ServiceAccount", "SigV4")


def test_openshift_unions_are_one_consistent_union(tmp_path: Path) -> None:
    root = _module(tmp_path, "openshift")
    model = load_model(["./..."], root)
    relabel = model.structs["example.com/m/openshift.RelabelActionConfig"].unions
    assert [(u.dialect, u.discriminator.values if u.discriminator else ()) for u in relabel] == [
        ("kep1027", ("Drop", "HashMod", "Keep", "Lowercase", "Replace"))
    ]
    assert [(m.go_name, m.value) for m in relabel[0].members] == [
        ("Replace", "Replace"),
        ("HashMod", "HashMod"),
    ]
    ipsec = model.structs["example.com/m/openshift.IPsecConfig"].unions[0]
    assert [(m.go_name, m.optional) for m in ipsec.members] == [("Full", True)]
    assert ipsec.empty_values == ("Disabled", "External")
    # omitzero makes a struct member optional, as omitempty does for a pointer
    replace = model.structs["example.com/m/openshift.RelabelActionConfig"].field("Replace")
    assert replace is not None and replace.optional


def test_mg404_hint_makes_one_dialect(tmp_path: Path) -> None:
    root = _module(tmp_path, "kep2019")
    before = _check(root)
    mixed = [d for d in before if d.code == "MG404"]
    assert len(mixed) == 1 and mixed[0].hint is not None  # once, at the struct
    match = re.match(
        r"on (\w+), write `(// \+unionDeprecated)` instead of `(// \+unionMember)`", mixed[0].hint
    )
    assert match is not None
    go_field, new, old = match.groups()
    path = root / mixed[0].pos.file
    lines = path.read_text().split("\n")
    at = next(
        i for i in range(mixed[0].pos.line, len(lines)) if re.match(rf"\s*{go_field}\s", lines[i])
    )
    start = next(i for i in range(at, 0, -1) if lines[i].strip() == old)
    lines[start] = lines[start].replace(old, new)
    path.write_text("\n".join(lines))
    after = _check(root)
    assert {(d.code, d.pos.line) for d in after} == {
        (d.code, d.pos.line) for d in before if d.code != "MG404"
    }


def test_mg341_hint_writes_the_json_names(tmp_path: Path) -> None:
    root = _module(tmp_path, "kubebuilder")
    before = _check(root)
    bad = [d for d in before if d.code == "MG341"]
    assert len(bad) == 1 and bad[0].hint is not None
    match = re.search(r"`(\+kubebuilder:validation:ExactlyOneOf=[^`]+)`", bad[0].hint)
    assert (
        match is not None
        and match.group(1) == "+kubebuilder:validation:ExactlyOneOf=configMap;secret"
    )
    path = root / bad[0].pos.file
    lines = path.read_text().split("\n")
    line = lines[bad[0].pos.line - 1]
    lines[bad[0].pos.line - 1] = line[: line.index("+")] + match.group(1)
    path.write_text("\n".join(lines))
    assert _check(root) == []
