"""Hints that work: a rule's hint, applied as the edit it describes, makes the check pass.

Each test copies a real-shaped fixture package into a module in tmp_path, applies the
edit the hint spells out (found by the hint's own text, so a hint that stops naming a
concrete edit fails here), and checks again.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import TESTDATA

from markergen import hints
from markergen.diagnostics import CATALOG, Diagnostic, Severity
from markergen.explain import examples, sections
from markergen.golang.syntax import Position
from markergen.pipeline import check_model, load_model

ABOVE = re.compile(r"`(// \+[^`]+)` above (\w+)")
WRITE = re.compile(r"write `(\+[^`]+)` instead of `(\+[^`]+)`")


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
    assert match is not None and match.groups() == ("+unionMember=SigV4", "+unionMember")
    path = root / found[0].pos.file
    lines = path.read_text().split("\n")
    marker_line = lines[found[0].pos.line - 1]
    assert marker_line.strip() == "// +unionMember"
    lines[found[0].pos.line - 1] = marker_line.replace(match.group(2), match.group(1))
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


# ---------------------------------------------------------------------------
# Every rule's hint, applied to its bad example in docs/rules.md.
#
# The hint is read as the edits markergen.hints spells (`write X instead of Y`,
# `add X above NAME`, `add X below NAME`, `remove X from NAME`), applied to the file
# the way a reader would, and the check runs again: the code must be gone, and no new
# error may appear. A hint that is prose, or an edit that does not fix the problem,
# fails here; so does a new code whose hint nobody tried.

EDIT = re.compile(
    r"(?:on (?P<on>\w+), )?write `(?P<new>[^`]+)` instead of `(?P<old>[^`]+)`"
    r"|replace `(?P<r_old>[^`]*)` with `(?P<r_new>[^`]*)` on this line"
    r"|add `(?P<add>[^`]+)` (?P<where>above|below) (?P<add_to>\w+)"
    r"|write (?P<lines>`[^`]+`(?: and `[^`]+`)*) above (?P<w_to>\w+)(?: in (?P<w_in>\w+))?"
    r"|write the field as `(?P<decl>[^`]+)`"
    r"|remove `(?P<rm>[^`]+)` from (?P<rm_from>\w+)"
    r"|(?P<delete>delete this line)"
)
JOINER = re.compile(r"\s*(?:;|\band\b)\s*")


# Codes whose bad example no edit of the Go file fixes, and why.
NOT_AN_EDIT = {
    "MG001": "a syntax error: what the author meant cannot be told from what tree-sitter "
    "could not parse, so the hint points at Go's own error message instead",
    "MG002": "the file's bytes are not UTF-8: the fix is to save it in another encoding, "
    "the text stays the same",
    "MG006": "the fix is a go.mod file (or running inside the module), not the Go file",
    "MG020": "the fix makes a package available (go.mod, vendor/, the module cache)",
    "MG104": "the fix is the command line: the package of the enum type must be read too",
    "MG343": "the fix makes the embedded struct's package available (go.mod, vendor/, the "
    "module cache) or names it on the command line",
}


def _outside_code(text: str, sep: str) -> list[str]:
    """`text` split at `sep` where it is not inside a `code span`."""
    parts, start, inside = [], 0, False
    for i, ch in enumerate(text):
        if ch == "`":
            inside = not inside
        elif not inside and text.startswith(sep, i):
            parts.append(text[start:i])
            start = i + len(sep)
    return [*parts, text[start:]]


def _all_edits(segment: str) -> list[re.Match[str]] | None:
    """The edits of a segment made of edits and joiners only, else None."""
    found, at = [], 0
    while at < len(segment):
        joiner = JOINER.match(segment, at) if found else None
        if joiner is not None and joiner.end() > at:
            at = joiner.end()
        edit = EDIT.match(segment, at)
        if edit is None:
            return None
        found.append(edit)
        at = edit.end()
    return found or None


def edits_of(hint: str) -> list[re.Match[str]]:
    """The edits of a hint. What follows ` (` (an alternative, an explanation) is not
    read; of the parts around `: ` (a lead-in such as "make it a pointer: ", or a reason
    after "delete this line: "), those made only of edits joined by `;` or `and` are
    the edits, and there must be one."""
    primary = _outside_code(hint, " (")[0]
    found = [e for part in _outside_code(primary, ": ") if (e := _all_edits(part.strip()))]
    assert found, f"hint is not a list of edits: {hint!r}"
    return [e for edits in found for e in edits]


def _is_comment(line: str) -> bool:
    return line.strip().startswith("//")


def _declaration(lines: list[str], name: str, near: int) -> int:
    """The index of the line declaring `name` (a type, field, constant, variable or
    function) nearest after the 0-based line `near`, else before it."""
    decl = re.compile(
        rf"^\s*(?:(?:type|const|var|func)\s+(?:\([^)]*\)\s*)?)?{re.escape(name)}\b(?!\.)"
    )
    found = [i for i, t in enumerate(lines) if not _is_comment(t) and decl.match(t)]
    assert found, f"no declaration of {name}"
    after = [i for i in found if i >= near]
    return after[0] if after else found[-1]


def _block(lines: list[str], at: int) -> range:
    """The declaration at line `at` (or the one whose comment holds it) with its comment."""
    end = at
    while end < len(lines) - 1 and _is_comment(lines[end]):
        end += 1
    start = end
    while start > 0 and _is_comment(lines[start - 1]):
        start -= 1
    return range(start, end + 1)


def _same_comment(a: str, b: str) -> bool:
    return re.sub(r"^//\s*", "", a.strip()) == re.sub(r"^//\s*", "", b.strip())


def _replace_in(lines: list[str], where: list[int], old: str, new: str) -> None:
    for i in where:
        text = lines[i]
        # On a declaration line, the text after the name is meant (`Value string` with
        # `*string` instead of `string`), never the name itself.
        lead = re.match(r"\s*[A-Za-z_]\w*", text)
        start = lead.end() if lead and not _is_comment(text) and old != lead.group(0).strip() else 0
        match = re.compile(r"(?<!\w)" + re.escape(old) + r"(?!\w)").search(text, start)
        if match is None:
            match = re.compile(re.escape(old)).search(text, start)
        if match is not None:
            lines[i] = text[: match.start()] + new + text[match.end() :]
            return
    raise AssertionError(f"`{old}` not found on lines {[w + 1 for w in where]}")


def apply_hint(path: Path, d: Diagnostic) -> None:
    assert d.hint is not None, f"{d.code} has no hint"
    lines = path.read_text(encoding="utf-8").split("\n")
    here = d.pos.line - 1
    for edit in edits_of(d.hint):
        if edit["delete"] is not None:
            del lines[here]
            continue
        if edit["r_old"] is not None:
            _replace_in(lines, [here], edit["r_old"], edit["r_new"])
            continue
        if edit["decl"] is not None:
            at = _declaration(lines, edit["decl"].split()[0], here)
            text = lines[at]
            indent = re.match(r"\s*", text).group(0)  # type: ignore[union-attr]
            tag = re.search(r"\s`|\s//", text)
            lines[at] = indent + edit["decl"] + (text[tag.start() :] if tag else "")
            continue
        if edit["lines"] is not None:
            near = here
            if edit["w_in"]:
                near = next(
                    i for i, t in enumerate(lines) if re.match(rf"type {edit['w_in']}\b", t)
                )
            at = _declaration(lines, edit["w_to"], near)
            indent = re.match(r"\s*", lines[at]).group(0)  # type: ignore[union-attr]
            start = _block(lines, at).start
            new_lines = re.findall(r"`([^`]+)`", edit["lines"])
            lines[start:start] = [indent + t for t in new_lines]
            here += len(new_lines) if start <= here else 0
            continue
        if edit["new"] is not None:
            if edit["on"]:
                at = _declaration(lines, edit["on"], here)
                where = [at, *(i for i in _block(lines, at) if i != at)]
            else:
                where = [here, *(i for i in _block(lines, here) if i != here)]
            _replace_in(lines, where, edit["old"], edit["new"])
        elif edit["add"] is not None:
            at = _declaration(lines, edit["add_to"], here)
            indent = re.match(r"\s*", lines[at]).group(0)  # type: ignore[union-attr]
            if edit["where"] == "above":
                start = _block(lines, at).start
                lines.insert(start, indent + edit["add"])
                here += 1 if start <= here else 0
            else:
                lines.insert(at + 1, indent + edit["add"])
                here += 1 if at + 1 <= here else 0
        else:
            block = _block(lines, _declaration(lines, edit["rm_from"], here))
            hit = [i for i in block if _is_comment(lines[i]) and _same_comment(lines[i], edit["rm"])]
            assert hit, f"`{edit['rm']}` is not in the comment of {edit['rm_from']}"
            del lines[hit[0]]
            here -= 1 if hit[0] < here else 0
    path.write_text("\n".join(lines), encoding="utf-8")


def _doc_module(tmp_path: Path, text: str) -> Path:
    (tmp_path / "go.mod").write_text("module example.com/doc\n\ngo 1.24\n", encoding="utf-8")
    (tmp_path / "v1").mkdir()
    (tmp_path / "v1" / "types.go").write_text(text, encoding="utf-8")
    return tmp_path


GO_CODES = sorted(c for c in CATALOG if not c.startswith("MG5"))  # MG5xx: CRD YAML


@pytest.mark.parametrize("code", [c for c in GO_CODES if c not in NOT_AN_EDIT])
def test_hint_fixes_the_bad_example(code: str, tmp_path: Path) -> None:
    bad, _ = examples(sections()[code])
    root = _doc_module(tmp_path, bad)
    before = _check(root)
    assert any(d.code == code for d in before), f"bad example of {code} does not trigger it"
    for _ in range(sum(d.code == code for d in before)):
        now = [d for d in _check(root) if d.code == code]
        if not now:
            break
        apply_hint(root / now[0].pos.file, now[0])
    after = _check(root)
    text = (root / "v1" / "types.go").read_text(encoding="utf-8")
    assert [d for d in after if d.code == code] == [], text
    errors = {(d.code, d.message) for d in after if d.severity.value == "error"}
    old_errors = {(d.code, d.message) for d in before if d.severity.value == "error"}
    assert errors <= old_errors, (sorted(errors - old_errors), text)


def test_exemptions_are_codes_with_reasons() -> None:
    assert set(NOT_AN_EDIT) <= set(GO_CODES)
    assert all(len(reason.split()) > 5 for reason in NOT_AN_EDIT.values())


def test_hint_interpreter_applies_each_edit_kind(tmp_path: Path) -> None:
    path = tmp_path / "a.go"
    path.write_text(
        "package a\n\ntype T struct {\n\t// +unionMember\n\t// +optional\n"
        '\tValue string `json:"value"`\n}\n',
        encoding="utf-8",
    )
    hint = (
        "on Value, write `*string` instead of `string`; add `// +k` above Value; "
        "remove `// +optional` from Value; add `const X = 1` below T (or prose)"
    )
    apply_hint(path, Diagnostic(Position("a.go", 6, 2), "MG000", Severity.ERROR, "m", hint))
    assert path.read_text(encoding="utf-8") == (
        "package a\n\ntype T struct {\nconst X = 1\n\t// +k\n\t// +unionMember\n"
        '\tValue *string `json:"value"`\n}\n'
    )
    with pytest.raises(AssertionError, match="not a list of edits"):
        edits_of("make it a pointer")


def test_mg105_alternative_for_a_deliberate_omission_works_when_followed(
    tmp_path: Path,
) -> None:
    """MG105's hint is two-way: the list with the value added (the primary edit, applied
    above with every other code), or, when the API leaves the value out on purpose, an
    ignore comment above the constant. Followed, that comment silences MG105 and is
    itself no finding (it silences something: no MG010; it is well formed: no MG011);
    the docs' third example is that result."""
    bad, _ = examples(sections()["MG105"])
    (tmp_path / "hinted").mkdir()
    root = _doc_module(tmp_path / "hinted", bad)
    (d,) = [d for d in _check(root) if d.code == "MG105"]
    assert d.hint is not None
    alternative = _outside_code(d.hint, " (or ")[1]
    edit = EDIT.search(alternative)
    assert edit is not None and edit["add"] is not None, alternative
    assert edit["add"].startswith("// markergen:ignore MG105 ") and edit["add_to"] == "ForwardSyntax"
    apply_hint(root / d.pos.file, replace(d, hint=hints.add_above(edit["add"], edit["add_to"])))
    assert _check(root) == [], (root / "v1" / "types.go").read_text(encoding="utf-8")
    blocks = re.findall(r"```go\n(.*?)```", sections()["MG105"], re.DOTALL)
    assert len(blocks) == 3 and "markergen:ignore MG105" in blocks[2]
    (tmp_path / "third").mkdir()
    root = _doc_module(tmp_path / "third", blocks[2])
    assert _check(root) == []


def test_an_ignore_comment_on_a_constant_covers_only_that_constant(tmp_path: Path) -> None:
    """On a constant, an ignore covers the lines from the comment down to the constant:
    one on the wrong constant silences nothing (MG010, and the MG105 stays), and its
    MG010 hint removes it from that constant's comment."""
    root = _doc_module(
        tmp_path,
        "package v1\n\n// +kubebuilder:validation:Enum=Strict\ntype Mode string\n\nconst (\n"
        "\t// markergen:ignore MG105 the controller's own value\n"
        '\tModeStrict Mode = "Strict"\n'
        '\tModeSyntax Mode = "Syntax"\n)\n',
    )
    found = sorted((d.code, d.pos.line) for d in _check(root))
    assert found == [("MG010", 7), ("MG105", 9)]
    (unused,) = [d for d in _check(root) if d.code == "MG010"]
    apply_hint(root / unused.pos.file, unused)
    assert sorted(d.code for d in _check(root)) == ["MG105"]
