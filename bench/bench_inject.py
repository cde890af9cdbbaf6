"""Injected marker mistakes in real API files: is each one reported once, with the right
code, at the right line? And do harmless edits add nothing?

Usage: python bench/bench_inject.py CHECKOUT [CHECKOUT...] [--files N] [--per-kind K]
       [--seed S] [--kinds a,b] [--show]

For each CHECKOUT (a Go module: kubernetes/api, gateway-api, openshift/api) the script
copies its Go files and go.mod to a temporary directory, samples up to N API type files
(`types*.go`, `*_types.go`; generated files and tests left out), and then, one at a time,
applies a known mistake (or a harmless edit) to one real file, runs

    python -m markergen check --format json ./<the file's package>

in the copy, and compares the diagnostics with those of the unchanged package (lines of
the edited file shifted by the edit). Each mutation kind expects one code at one line
(the marker's line, or the field's when the field itself is wrong); it is counted as

  ok          the expected code, once, at the expected line(s)
  wrong-line  the expected code, elsewhere
  missed      the expected code not reported
  extra       other new diagnostics too (counted separately; --show lists them)

Harmless edits (fields reordered, blank lines and ordinary comments added, an unrelated
field renamed) expect nothing: any new or vanished diagnostic is counted as false.

The checkouts are only read. Not part of CI: it needs checkouts the repository does
not hold, and it runs markergen a few hundred times (a few minutes on two cores).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

UNION_MARKERS = (
    "unionDiscriminator",
    "unionMember",
    "unionDiscriminatedBy",
    "unionDeprecated",
    "union",
    "enum",
    "k8s:unionMember",
    "k8s:unionDiscriminator",
    "k8s:zeroOrOneOfMember",
    "kubebuilder:validation:Enum",
    "kubebuilder:validation:ExactlyOneOf",
)
MARKER_LINE = re.compile(r"^(\s*)//\s*\+([\w:]+)(.*)$")
FIELD_LINE = re.compile(r"^\t([A-Za-z_]\w*)\s+(\S[^`]*?)\s*(`[^`]*`)?\s*(//.*)?$")
CONST_SPEC = re.compile(r"^\t([A-Za-z_]\w*)\s+([A-Za-z_]\w*)\s*=\s*(\".*\")\s*(//.*)?$")


# ---------------------------------------------------------------------------- Go text


@dataclass
class GoField:
    name: str
    line: int  # 0-based index of the field line
    type: str
    tag: str
    doc_start: int  # first line of its comment block (== line without one)
    markers: list[tuple[int, str, str]]  # (line, name, rest)


@dataclass
class GoStruct:
    name: str
    line: int
    end: int
    markers: list[tuple[int, str, str]]
    fields: list[GoField] = field(default_factory=list)


def _comment_block(lines: list[str], at: int) -> int:
    start = at
    while start > 0 and lines[start - 1].strip().startswith("//"):
        start -= 1
    return start


def _markers(lines: list[str], start: int, end: int) -> list[tuple[int, str, str]]:
    out = []
    for i in range(start, end):
        m = MARKER_LINE.match(lines[i])
        if m:
            out.append((i, m.group(2), m.group(3)))
    return out


def structs(lines: list[str]) -> list[GoStruct]:
    out = []
    for i, text in enumerate(lines):
        m = re.match(r"^type (\w+) struct \{\s*(//.*)?$", text)
        if not m:
            continue
        end = next((j for j in range(i + 1, len(lines)) if lines[j] == "}"), None)
        if end is None:
            continue
        s = GoStruct(m.group(1), i, end, _markers(lines, _comment_block(lines, i), i))
        depth = 0
        for j in range(i + 1, end):
            t = lines[j]
            if depth == 0:
                fm = FIELD_LINE.match(t)
                if fm and not t.strip().startswith("//"):
                    start = _comment_block(lines, j)
                    s.fields.append(
                        GoField(
                            fm.group(1), j, fm.group(2), fm.group(3) or "", start,
                            _markers(lines, start, j),
                        )
                    )
            depth += t.count("{") - t.count("}")
        out.append(s)
    return out


def member_marker(f: GoField) -> tuple[int, str, str] | None:
    return next((m for m in f.markers if m[1] in ("unionMember", "k8s:unionMember",
                                                   "k8s:zeroOrOneOfMember")), None)


def has(f: GoField, name: str) -> bool:
    return any(m[1] == name for m in f.markers)


# ---------------------------------------------------------------------------- mutations


@dataclass
class Mutation:
    kind: str
    file: str  # relative to the copy's root
    text: str  # the whole new file
    expect: tuple[tuple[str, int], ...]  # (code, 1-based line in the new text)
    shift: Callable[[int], int]  # a 1-based line of the old text → of the new one
    where: str


def _same(line: int) -> int:
    return line


def _inserted(at: int, n: int = 1) -> Callable[[int], int]:
    """Lines inserted before 0-based index `at`."""
    return lambda line: line + n if line - 1 >= at else line


def _deleted(at: int) -> Callable[[int], int]:
    return lambda line: line - 1 if line - 1 > at else line


def _swap_letters(name: str) -> str:
    prefix, sep, last = name.rpartition(":")
    i = 1 if len(last) > 3 else 0
    return prefix + sep + last[:i] + last[i + 1] + last[i] + last[i + 2 :]


Finder = Callable[[str, list[str], list[GoStruct]], Iterator[Mutation]]


def _join(lines: list[str]) -> str:
    return "\n".join(lines)


def _replace_line(
    kind: str, path: str, lines: list[str], i: int, text: str, code: str, where: str
) -> Mutation:
    """Line `i` (0-based) becomes `text`; `code` is expected on it."""
    new = list(lines)
    new[i] = text
    return Mutation(kind, path, _join(new), ((code, i + 1),), _same, f"{path}:{i + 1} {where}")


def _insert_line(
    kind: str, path: str, lines: list[str], at: int, text: str, code: str, where: str
) -> Mutation:
    """`text` inserted before line `at` (0-based); `code` is expected on it."""
    new = [*lines[:at], text, *lines[at:]]
    return Mutation(kind, path, _join(new), ((code, at + 1),), _inserted(at), where)


def _attached(lines: list[str], i: int) -> bool:
    """Whether the comment line `i` is in the doc of a declaration (not a tombstone or
    a free-floating comment)."""
    j = i
    while j < len(lines) and lines[j].strip().startswith("//"):
        j += 1
    return j < len(lines) and bool(lines[j].strip()) and not lines[j].strip().startswith(")")


def misspelt_marker(path: str, lines: list[str], ss: list[GoStruct]) -> Iterator[Mutation]:
    """MG003: a union or enum marker with two letters swapped."""
    for i, text in enumerate(lines):
        m = MARKER_LINE.match(text)
        if m and m.group(2) in UNION_MARKERS and _attached(lines, i):
            yield _replace_line("misspelt-marker", path, lines, i,
                                f"{m.group(1)}// +{_swap_letters(m.group(2))}{m.group(3)}",
                                "MG003", f"+{m.group(2)}")


def enum_on_const(path: str, lines: list[str], ss: list[GoStruct]) -> Iterator[Mutation]:
    """MG005: `+enum` on a constant."""
    in_block = False
    for i, text in enumerate(lines):
        if text.startswith("const ("):
            in_block = True
        elif in_block and text == ")":
            in_block = False
        elif in_block and CONST_SPEC.match(text):
            at = _comment_block(lines, i)
            yield _insert_line("marker-on-const", path, lines, at, "\t// +enum", "MG005",
                               f"{path}:{i + 1}")


def member_on_var(path: str, lines: list[str], ss: list[GoStruct]) -> Iterator[Mutation]:
    """MG005: `+unionMember` on a variable."""
    for i, text in enumerate(lines):
        if re.match(r"^var \w+", text) or (re.match(r"^\t\w+\s*(=|\w)", text) and _in_var_block(lines, i)):
            at = _comment_block(lines, i)
            indent = "\t" if text.startswith("\t") else ""
            yield _insert_line("marker-on-var", path, lines, at, indent + "// +unionMember",
                               "MG005",
                               f"{path}:{i + 1}")


def _in_var_block(lines: list[str], i: int) -> bool:
    for j in range(i - 1, -1, -1):
        if lines[j].startswith("var ("):
            return True
        if not lines[j].startswith(("\t", "//")) and lines[j].strip():
            return False
    return False


def union_on_func(path: str, lines: list[str], ss: list[GoStruct]) -> Iterator[Mutation]:
    """MG005: `+union` on a function or method."""
    for i, text in enumerate(lines):
        if text.startswith("func "):
            at = _comment_block(lines, i)
            yield _insert_line("marker-on-func", path, lines, at, "// +union", "MG005",
                               f"{path}:{i + 1}")


def enum_on_field(path: str, lines: list[str], ss: list[GoStruct]) -> Iterator[Mutation]:
    """MG005: `+enum` on a struct field."""
    for s in ss:
        for f in s.fields:
            if not f.markers or all(m[1] not in UNION_MARKERS for m in f.markers):
                at = f.doc_start
                yield _insert_line("enum-on-field", path, lines, at, "\t// +enum", "MG005",
                                   f"{path}:{f.line + 1} {s.name}.{f.name}")


def hidden_member(path: str, lines: list[str], ss: list[GoStruct]) -> Iterator[Mutation]:
    """MG308: a union member with json:"-"."""
    for s in ss:
        for f in s.fields:
            if member_marker(f) is None or 'json:"' not in f.tag:
                continue
            yield _replace_line("member-json-dash", path, lines, f.line,
                                re.sub(r'json:"[^"]*"', 'json:"-"', lines[f.line], count=1),
                                "MG308", f"{s.name}.{f.name}")


def _discriminated(s: GoStruct) -> bool:
    return any(has(f, "unionDiscriminator") for f in s.fields)


def plain_members(s: GoStruct) -> list[tuple[GoField, tuple[int, str, str]]]:
    return [(f, m) for f in s.fields for m in f.markers if m[1] == "unionMember"]


def value_not_in_enum(path: str, lines: list[str], ss: list[GoStruct]) -> Iterator[Mutation]:
    """MG303: a member value that is no value of the discriminator's enum."""
    for s in ss:
        if not _discriminated(s):
            continue
        for f, (i, _, rest) in plain_members(s):
            flags = ",optional" if "optional" in rest else ""
            yield _replace_line("member-value-not-in-enum", path, lines, i,
                                re.sub(r"\+unionMember.*$", f"+unionMember=NoSuchValue{flags}", lines[i]),
                                "MG303", f"{s.name}.{f.name}")


def scalar_member(path: str, lines: list[str], ss: list[GoStruct]) -> Iterator[Mutation]:
    """MG302: a member that is no pointer and has no omitempty."""
    for s in ss:
        for f in s.fields:
            if member_marker(f) is None or not re.fullmatch(r"\*(string|int32|int64|bool)", f.type):
                continue
            new = list(lines)
            text = lines[f.line].replace(f.type, f.type[1:], 1)
            new[f.line] = text.replace(",omitempty", "").replace(",omitzero", "")
            yield Mutation("member-not-pointer", path, _join(new), (("MG302", f.line + 1),),
                           _same, f"{path}:{f.line + 1} {s.name}.{f.name}")


def duplicate_value(path: str, lines: list[str], ss: list[GoStruct]) -> Iterator[Mutation]:
    """MG304: two members with the same value."""
    for s in ss:
        members = plain_members(s)
        if not _discriminated(s) or len(members) < 2:
            continue
        (f1, (_, _, rest1)), (f2, (i2, _, rest2)) = members[0], members[1]
        value = rest1[1:].split(",")[0] if rest1.startswith("=") else f1.name
        flags = ",optional" if "optional" in rest2 else ""
        yield _replace_line("duplicate-member-value", path, lines, i2,
                            re.sub(r"\+unionMember.*$", f"+unionMember={value}{flags}", lines[i2]),
                            "MG304", f"{s.name}.{f2.name}")


def no_discriminator(path: str, lines: list[str], ss: list[GoStruct]) -> Iterator[Mutation]:
    """MG307: members left without their discriminator."""
    for s in ss:
        if any(m[1] == "union" for m in s.markers):
            continue
        discs = [m for f in s.fields for m in f.markers if m[1] == "unionDiscriminator"]
        members = plain_members(s)
        if len(discs) != 1 or not members:
            continue
        at = discs[0][0]
        new = lines[:at] + lines[at + 1 :]
        expect = tuple(("MG307", i if i > at else i + 1) for _, (i, _, _) in members)
        yield Mutation("missing-discriminator", path, _join(new), expect, _deleted(at),
                       f"{path}:{at + 1} {s.name}")


def malformed_marker(path: str, lines: list[str], ss: list[GoStruct]) -> Iterator[Mutation]:
    """MG004: a union marker whose value cannot be read (an empty `=`, an unclosed
    parenthesis, an enum list with no `=`)."""
    for i, text in enumerate(lines):
        m = MARKER_LINE.match(text)
        if not m or not _attached(lines, i):
            continue
        name, rest = m.group(2), m.group(3)
        if name == "unionMember":
            bad = "+unionMember="
        elif name in UNION_MARKERS and rest.startswith("(") and rest.endswith(")"):
            bad = f"+{name}{rest[:-1]}"
        elif name == "kubebuilder:validation:Enum" and rest.startswith("="):
            bad = f"+{name}{rest[1:] and ' ' + rest[1:]}"
        else:
            continue
        yield _replace_line("malformed-marker", path, lines, i,
                            f"{m.group(1)}// {bad}", "MG004", f"+{name}")


def untyped_enum_const(path: str, lines: list[str], ss: list[GoStruct]) -> Iterator[Mutation]:
    """MG103: an enum constant that lost its type (the KEP's own `Beta = "BETA"`)."""
    enums = set()
    for i, text in enumerate(lines):
        tm = re.match(r"^type (\w+) string", text)
        if tm and any(
            MARKER_LINE.match(lines[j]) and MARKER_LINE.match(lines[j]).group(2)  # type: ignore[union-attr]
            in ("enum", "kubebuilder:validation:Enum", "k8s:enum")
            for j in range(_comment_block(lines, i), i)
        ):
            enums.add(tm.group(1))
    seen: Counter[str] = Counter()
    for i, text in enumerate(lines):
        cm = CONST_SPEC.match(text)
        if cm and cm.group(2) in enums:
            seen[cm.group(2)] += 1
            if seen[cm.group(2)] == 2:  # not the block's first: Go repeats nothing here
                yield _replace_line("untyped-enum-constant", path, lines, i,
                                    f"\t{cm.group(1)} = {cm.group(3)}", "MG103", cm.group(1))


def required_member(path: str, lines: list[str], ss: list[GoStruct]) -> Iterator[Mutation]:
    """MG301: a member marked required."""
    for s in ss:
        for f in s.fields:
            mm = member_marker(f)
            opts = [m for m in f.markers if m[1] in ("optional", "k8s:optional")]
            if mm is None or not opts:
                continue
            new = list(lines)
            for i, name, _ in opts:
                new[i] = lines[i].replace("+" + name, "+" + name.replace("optional", "required"))
            new[f.line] = lines[f.line].replace(",omitempty", "")
            if not re.fullmatch(r"\*\w+|\[\].*|map\[.*", f.type):
                continue
            yield Mutation("member-required", path, _join(new), (("MG301", f.line + 1),),
                           _same, f"{path}:{f.line + 1} {s.name}.{f.name}")


def int_discriminator(path: str, lines: list[str], ss: list[GoStruct]) -> Iterator[Mutation]:
    """MG201: a discriminator that is no string."""
    for s in ss:
        for f in s.fields:
            if has(f, "unionDiscriminator") or has(f, "k8s:unionDiscriminator"):
                new = list(lines)
                name_end = lines[f.line].index(f.name) + len(f.name)
                text = lines[f.line]
                new[f.line] = text[:name_end] + text[name_end:].replace(f.type, "int32", 1)
                yield Mutation("discriminator-not-string", path, _join(new),
                               (("MG201", f.line + 1),), _same,
                               f"{path}:{f.line + 1} {s.name}.{f.name}")


def wrong_one_of(path: str, lines: list[str], ss: list[GoStruct]) -> Iterator[Mutation]:
    """MG341: a controller-gen union list naming no field."""
    for s in ss:
        for i, name, rest in s.markers:
            if name.endswith(("ExactlyOneOf", "AtMostOneOf", "AtLeastOneOf")) and rest.startswith("="):
                yield _replace_line("one-of-names-no-field", path, lines, i,
                                    lines[i].replace(rest, "=noSuchField;" + rest[1:], 1),
                                    "MG341", s.name)


def discriminator_also_member(path: str, lines: list[str], ss: list[GoStruct]) -> Iterator[Mutation]:
    """MG204: the discriminator marked as a member too."""
    for s in ss:
        for f in s.fields:
            if has(f, "unionDiscriminator"):
                at = f.line
                new = [*lines[:at], "\t// +unionMember", *lines[at:]]
                yield Mutation("discriminator-also-member", path, _join(new),
                               (("MG204", at + 1),), _inserted(at),
                               f"{path}:{f.line + 1} {s.name}.{f.name}")


def by_no_discriminator(path: str, lines: list[str], ss: list[GoStruct]) -> Iterator[Mutation]:
    """MG306: `+unionDiscriminatedBy` naming no discriminator."""
    for s in ss:
        if not _discriminated(s):
            continue
        for f, _ in plain_members(s):
            at = f.line
            yield _insert_line("discriminated-by-nothing", path, lines, at,
                               "\t// +unionDiscriminatedBy=NoSuchField", "MG306",
                               f"{path}:{f.line + 1} {s.name}.{f.name}")


def enum_on_struct(path: str, lines: list[str], ss: list[GoStruct]) -> Iterator[Mutation]:
    """MG101: `+enum` on a struct type (integer enums are read since issue 18)."""
    for s in ss:
        at = _comment_block(lines, s.line)
        yield _insert_line("enum-on-struct-type", path, lines, at, "// +enum", "MG101",
                           f"{path}:{s.line + 1} {s.name}")


def default_not_in_enum(path: str, lines: list[str], ss: list[GoStruct]) -> Iterator[Mutation]:
    """MG206: a discriminator's default that is no enum value."""
    for s in ss:
        for f in s.fields:
            if not (has(f, "unionDiscriminator") or has(f, "k8s:unionDiscriminator")):
                continue
            for i, name, rest in f.markers:
                if name in ("default", "kubebuilder:default") and rest.startswith("="):
                    yield _replace_line("default-not-in-enum", path, lines, i,
                                        lines[i].replace(rest, '="NoSuchValue"' if name == "default" else "=NoSuchValue"),
                                        "MG206", f"{s.name}.{f.name}")


# ---------------------------------------------------------------------------- harmless


def _unmarked_struct(s: GoStruct) -> bool:
    return not s.markers or all(m[1] not in UNION_MARKERS for m in s.markers)


def reorder_fields(path: str, lines: list[str], ss: list[GoStruct]) -> Iterator[Mutation]:
    for s in ss:
        for a, b in zip(s.fields, s.fields[1:], strict=False):
            if b.doc_start != a.line + 1:
                continue  # keep what stands between them where it is
            block_a = lines[a.doc_start : a.line + 1]
            block_b = lines[b.doc_start : b.line + 1]
            new = lines[: a.doc_start] + block_b + block_a + lines[b.line + 1 :]
            yield Mutation("harmless:reorder-fields", path, _join(new), (), _same,
                           f"{path}:{a.line + 1} {s.name}.{a.name}<->{b.name}")
            break


def blank_lines_and_comments(path: str, lines: list[str], ss: list[GoStruct]) -> Iterator[Mutation]:
    for s in ss:
        for f in s.fields:
            at = f.line + 1
            new = [*lines[:at], "", "\t// An ordinary comment, about nothing in particular.", "", *lines[at:]]
            yield Mutation("harmless:blank-lines-and-comments", path, _join(new), (),
                           _inserted(at, 3), f"{path}:{at} {s.name}")
    for i, text in enumerate(lines):
        if text.startswith("type "):
            at = _comment_block(lines, i)
            new = [*lines[:at], "// A comment nobody attached to anything.", "", *lines[at:]]
            yield Mutation("harmless:blank-lines-and-comments", path, _join(new), (),
                           _inserted(at, 2), f"{path}:{at + 1} top level")


def rename_unrelated_field(path: str, lines: list[str], ss: list[GoStruct]) -> Iterator[Mutation]:
    for s in ss:
        if not _unmarked_struct(s) or any(member_marker(f) or has(f, "unionDiscriminator")
                                          for f in s.fields):
            continue
        for f in s.fields:
            if not f.tag or 'json:",inline' in f.tag:
                continue
            new = list(lines)
            new[f.line] = lines[f.line].replace(f.name, f.name + "Renamed", 1)
            yield Mutation("harmless:rename-unrelated-field", path, _join(new), (), _same,
                           f"{path}:{f.line + 1} {s.name}.{f.name}")


FINDERS: tuple[Finder, ...] = (
    misspelt_marker, enum_on_const, member_on_var, union_on_func, enum_on_field,
    hidden_member, value_not_in_enum, scalar_member, duplicate_value, no_discriminator,
    malformed_marker, untyped_enum_const, required_member, int_discriminator, wrong_one_of,
    discriminator_also_member, by_no_discriminator, enum_on_struct, default_not_in_enum,
    reorder_fields, blank_lines_and_comments, rename_unrelated_field,
)


# ---------------------------------------------------------------------------- running


Key = tuple[str, str, int, str]  # code, file, line, message


def check(root: Path, package: str) -> list[dict[str, object]]:
    res = subprocess.run(
        [sys.executable, "-m", "markergen", "check", "--format", "json", "./" + package],
        cwd=root, capture_output=True, text=True, check=False,
    )
    if res.returncode not in (0, 1):
        raise SystemExit(f"markergen failed in {root}/{package}:\n{res.stderr}")
    return list(json.loads(res.stdout or "[]"))


def keys(diags: list[dict[str, object]], file: str, shift: Callable[[int], int]) -> Counter[Key]:
    out: Counter[Key] = Counter()
    for d in diags:
        line = int(d["line"])  # type: ignore[call-overload]
        if d["file"] == file:
            line = shift(line)
        out[(str(d["code"]), str(d["file"]), line, str(d["message"]))] += 1
    return out


@dataclass
class Outcome:
    kind: str
    verdict: str  # ok / wrong-line / missed / false
    extra: list[Key]
    where: str
    got: list[Key]


def judge(m: Mutation, base: list[dict[str, object]], after: list[dict[str, object]]) -> Outcome:
    before = keys(base, m.file, m.shift)
    now = keys(after, m.file, _same)
    new = list((now - before).elements())
    gone = list((before - now).elements())
    if not m.expect:
        # harmless: compare without lines (a moved field moves its diagnostics)
        b = Counter((k[0], k[1], k[3]) for k in before.elements())
        n = Counter((k[0], k[1], k[3]) for k in now.elements())
        changed = [(c, f, 0, msg) for c, f, msg in ((n - b) + (b - n)).elements()]
        return Outcome(m.kind, "false" if changed else "ok", changed, m.where, changed)
    codes = {c for c, _ in m.expect}
    hits = [k for k in new if k[0] in codes and k[1] == m.file]
    at_line = Counter((k[0], k[2]) for k in hits)
    expected = Counter(m.expect)
    if at_line == expected:
        verdict = "ok"
    elif not hits:
        verdict = "missed"
    elif all(at_line[e] >= 1 for e in expected):
        verdict = "duplicate"
    else:
        verdict = "wrong-line"
    extra = [k for k in new if k not in hits] + [("-" + k[0], *k[1:]) for k in gone]  # type: ignore[misc]
    return Outcome(m.kind, verdict, extra, m.where, hits)


def api_files(root: Path) -> list[str]:
    out = []
    for p in sorted(root.rglob("*.go")):
        rel = p.relative_to(root).as_posix()
        name = p.name
        if "/vendor/" in f"/{rel}" or "/testdata/" in f"/{rel}" or name.endswith("_test.go"):
            continue
        if not (name.startswith("types") or name.endswith("_types.go")):
            continue
        if name.startswith("zz_generated") or "Code generated" in p.read_text(errors="replace")[:400]:
            continue
        out.append(rel)
    return out


def copy_go(src: Path, dst: Path) -> None:
    for p in src.rglob("*"):
        if ".git" in p.parts or not p.is_file():
            continue
        if p.suffix == ".go" or p.name in ("go.mod", "go.work", "markergen.yaml"):
            target = dst / p.relative_to(src)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(p, target)


def run_checkout(src: Path, args: argparse.Namespace) -> list[Outcome]:
    rng = random.Random(args.seed)
    kinds = set(args.kinds.split(",")) if args.kinds else None
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="inject-") as tmp:
        root = Path(tmp)
        copy_go(src, root)
        files = api_files(root)
        sample = sorted(rng.sample(files, min(args.files, len(files))))
        by_kind: dict[str, list[Mutation]] = {}
        for rel in sample:
            lines = (root / rel).read_text(encoding="utf-8").split("\n")
            ss = structs(lines)
            for finder in FINDERS:
                for m in finder(rel, lines, ss):
                    if kinds is None or m.kind in kinds:
                        by_kind.setdefault(m.kind, []).append(m)
        baselines: dict[str, list[dict[str, object]]] = {}
        for kind in sorted(by_kind):
            chosen = rng.sample(by_kind[kind], min(args.per_kind, len(by_kind[kind])))
            for m in chosen:
                package = str(Path(m.file).parent)
                if package not in baselines:
                    baselines[package] = check(root, package)
                path = root / m.file
                original = path.read_text(encoding="utf-8")
                path.write_text(m.text, encoding="utf-8")
                try:
                    after = check(root, package)
                finally:
                    path.write_text(original, encoding="utf-8")
                outcomes.append(judge(m, baselines[package], after))
    return outcomes


def report(name: str, outcomes: list[Outcome], show: bool) -> tuple[int, int]:
    print(f"== {name}: {len(outcomes)} mutations")
    print(f"   {'kind':<34} {'n':>3} {'ok':>3} {'wrong':>5} {'missed':>6} {'dup':>3} {'false':>5} {'+extra':>6}")
    bad = 0
    for kind in sorted({o.kind for o in outcomes}):
        rows = [o for o in outcomes if o.kind == kind]
        c = Counter(o.verdict for o in rows)
        extra = sum(1 for o in rows if o.extra and o.verdict != "false")
        bad += len(rows) - c["ok"]
        print(f"   {kind:<34} {len(rows):>3} {c['ok']:>3} {c['wrong-line']:>5} {c['missed']:>6} "
              f"{c['duplicate']:>3} {c['false']:>5} {extra:>6}")
        if show:
            for o in rows:
                if o.verdict != "ok" or o.extra:
                    print(f"      {o.verdict:<10} {o.where}")
                    for k in o.got if o.verdict != "ok" else []:
                        print(f"         got   {k[0]} line {k[2]}: {k[3][:110]}")
                    for k in o.extra:
                        print(f"         extra {k[0]} line {k[2]}: {k[3][:110]}")
    return len(outcomes), bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkouts", nargs="+", type=Path)
    ap.add_argument("--files", type=int, default=40, help="API type files sampled per checkout")
    ap.add_argument("--per-kind", type=int, default=4, help="mutations tried per kind")
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--kinds", default="", help="comma-separated mutation kinds (default all)")
    ap.add_argument("--show", action="store_true", help="list every mutation that is not ok")
    args = ap.parse_args(argv)
    total = bad = 0
    for src in args.checkouts:
        n, b = report(src.name, run_checkout(src.resolve(), args), args.show)
        total += n
        bad += b
    print(f"== all: {total} mutations, {total - bad} ok, {bad} not ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
