"""Agreement with validation-gen on its own test cases (issue 15), not run in CI.

    python bench/bench_validationgen_agreement.py CODEGEN_CHECKOUT [--family F]... [-v]

CODEGEN_CHECKOUT is a kubernetes/code-generator checkout (or kubernetes' staging copy).
For every case directory under `cmd/validation-gen/output_tests/tags/` of the families
below, markergen builds its runtime table from the case's Go types (`doc.go`, through
the real pipeline: tree-sitter, markers, model, table), then replays each object of the
case's `*_test.go` (`st.Value(obj).OldValue(old).Opts(...).ExpectValid()` /
`.ExpectMatches(matcher, field.ErrorList{...})`) through `markergen.runtime.validate`.

A replay agrees in verdict when both say valid or both say invalid, and in paths when
the multisets of (path, type) are equal, with the origin compared too when the test's
matcher compares origins (`ByOrigin()`). The Go test files are read pragmatically: the
Go expressions are parsed with tree-sitter and turned into JSON the way encoding/json
would (zero values, `omitempty`); a replay whose Go the script cannot turn into JSON is
counted as "not read", never as agreement.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tree_sitter_go
from tree_sitter import Language, Node, Parser

from markergen.emit.options import EmitOptions
from markergen.emit.table import build_table
from markergen.golang.literals import unquote
from markergen.model import Model, TypeRef
from markergen.pipeline import load_model
from markergen.runtime import Table, validate

TAGS = Path("cmd/validation-gen/output_tests/tags")
# The union families (issue 15 and this helper's part of it), and the neighbours whose
# unions other parts of the issue add (modes; alpha/beta levels): listed separately.
FAMILIES = {
    "union": ["union"],
    "zeroOrOneOf": ["zerooroneof"],
    "item": ["item/union", "item/zerorooneof"],
    "subfield": ["subfield/unions"],
    "options": ["options/unions"],
    "levels": ["levels/unions"],
    "mode": ["mode"],
    # k8smodes' part: mode unions under stages and options, enums with exclusions
    "levels-modes": ["levels/modes"],
    "options-modes": ["options/discriminators"],
    "enum": ["enum", "enum/options"],
    "levels-enums": ["levels/enums"],
}
DEFAULT = ["union", "zeroOrOneOf", "item", "subfield", "options"]

GO = Language(tree_sitter_go.language())


class Unsupported(Exception):
    """Go the script does not turn into JSON."""


def text(n: Node) -> str:
    return (n.text or b"").decode("utf-8")


def named(n: Node) -> list[Node]:
    return [c for c in n.named_children if c.type != "comment"]


# ---------------------------------------------------------------------------
# Go values → JSON, as encoding/json writes them


@dataclass
class Types:
    model: Model
    pkg: str
    consts: dict[str, Any]
    vars: dict[str, Node] = field(default_factory=dict)

    def struct(self, name: str) -> Any:
        return self.model.structs.get(f"{self.pkg}.{name}")

    def named(self, name: str) -> Any:
        return self.model.types.get(f"{self.pkg}.{name}")


def _type_of(node: Node, t: Types) -> TypeRef:
    """A TypeRef for a type expression written in the test file."""
    kind = node.type
    if kind == "type_identifier":
        name = text(node)
        if name in ("string", "bool", "int", "int32", "int64", "float64", "uint", "byte"):
            return TypeRef("builtin", name)
        return TypeRef("named", name, t.pkg)
    if kind == "pointer_type":
        return TypeRef("pointer", elem=_type_of(named(node)[0], t))
    if kind == "slice_type":
        return TypeRef("slice", elem=_type_of(node.child_by_field_name("element"), t))  # type: ignore[arg-type]
    if kind == "map_type":
        return TypeRef(
            "map",
            key=_type_of(node.child_by_field_name("key"), t),  # type: ignore[arg-type]
            elem=_type_of(node.child_by_field_name("value"), t),  # type: ignore[arg-type]
        )
    if kind == "qualified_type":
        raise Unsupported(f"type {text(node)}")
    raise Unsupported(f"type {kind} {text(node)}")


def _underlying(ref: TypeRef, t: Types) -> TypeRef:
    seen = 0
    while ref.kind == "named" and seen < 16:
        nt = t.named(ref.name) if ref.package == t.pkg else None
        if nt is None:
            return ref
        ref, seen = nt.underlying, seen + 1
    return ref


def zero(ref: TypeRef, t: Types) -> Any:
    base = _underlying(ref, t)
    if base.kind in ("pointer", "slice", "map", "interface"):
        return None
    if base.kind == "builtin":
        if base.name == "string":
            return ""
        if base.name == "bool":
            return False
        return 0
    if base.kind == "named" and t.struct(base.name) is not None:
        return struct_json(base.name, {}, t)
    return None


def _empty(value: Any) -> bool:
    return (
        value in (None, "", 0, False)
        or value == []
        or (isinstance(value, dict) and not value and False)
    )


def struct_json(name: str, given: dict[str, Any], t: Types) -> dict[str, Any]:
    s = t.struct(name)
    if s is None:
        raise Unsupported(f"struct {name}")
    out: dict[str, Any] = {}
    for f in s.fields:
        if not f.exported or f.json.skip:
            continue
        if f.inline:
            inner = f.type.deref()
            sub = struct_json(inner.name, given.get(f.go_name, {}) or {}, t)
            out.update(sub)
            continue
        value = given[f.go_name] if f.go_name in given else zero(f.type, t)
        if f.json.omitempty and (
            _empty(value) or (isinstance(value, dict) and not value and f.type.kind != "named")
        ):
            continue
        if getattr(f.json, "omitzero", False) and value == zero(f.type, t):
            continue
        out[f.json_name] = value
    return out


def to_json(node: Node, want: TypeRef | None, t: Types) -> Any:
    kind = node.type
    if kind == "parenthesized_expression":
        return to_json(named(node)[0], want, t)
    if kind == "unary_expression" and text(node).startswith("&"):
        inner = named(node)[0]
        return to_json(inner, want.elem if want and want.kind == "pointer" else want, t)
    if kind in ("interpreted_string_literal", "raw_string_literal"):
        return unquote(text(node))
    if kind == "int_literal":
        return int(text(node).replace("_", ""), 0)
    if kind == "float_literal":
        return float(text(node))
    if kind == "true":
        return True
    if kind == "false":
        return False
    if kind == "nil":
        return None
    if kind == "identifier":
        name = text(node)
        if name in t.consts:
            return t.consts[name]
        if name in t.vars:
            return to_json(t.vars[name], want, t)
        raise Unsupported(f"identifier {name}")
    if kind == "composite_literal":
        ref = _type_of(node.child_by_field_name("type"), t)  # type: ignore[arg-type]
        return literal(node.child_by_field_name("body"), ref, t)  # type: ignore[arg-type]
    if kind == "literal_value":
        if want is None:
            raise Unsupported("untyped literal")
        return literal(node, want.elem if want.kind == "pointer" and want.elem else want, t)
    if kind == "call_expression":
        fn = text(node.child_by_field_name("function"))  # type: ignore[arg-type]
        args = named(node.child_by_field_name("arguments"))  # type: ignore[arg-type]
        if re.fullmatch(r"\(\*\w+\)", fn) and len(args) == 1 and args[0].type == "nil":
            return None  # a typed nil pointer: no object
        if re.fullmatch(r"ptr\.To(\[.*\])?", fn) and len(args) == 1:
            return to_json(args[0], want.elem if want and want.kind == "pointer" else want, t)
        if len(args) == 1 and (
            t.named(fn) is not None or fn in ("string", "int32", "int64", "int")
        ):
            return to_json(args[0], None, t)  # a conversion
        raise Unsupported(f"call {fn}")
    raise Unsupported(f"{kind}: {text(node)[:60]}")


def literal(body: Node, ref: TypeRef, t: Types) -> Any:
    base = _underlying(ref, t)
    elements = [c for c in named(body)]
    if base.kind in ("slice", "array"):
        return [to_json(_value(e), base.elem, t) for e in elements]
    if base.kind == "map":
        out: dict[str, Any] = {}
        for e in elements:
            if e.type != "keyed_element":
                raise Unsupported("map element")
            k, v = named(e)
            key = to_json(_value(k), base.key, t)
            out[str(key).lower() if isinstance(key, bool) else str(key)] = to_json(
                _value(v), base.elem, t
            )
        return out
    if base.kind == "named":
        s = t.struct(base.name)
        if s is None:
            raise Unsupported(f"literal of {base.name}")
        given: dict[str, Any] = {}
        for e in elements:
            if e.type != "keyed_element":
                raise Unsupported("positional struct literal")
            k, v = named(e)
            go_name = text(k).strip()
            f = s.field(go_name)
            if f is None:
                raise Unsupported(f"field {go_name}")
            given[go_name] = to_json(_value(v), f.type, t)
        return struct_json(base.name, given, t)
    raise Unsupported(f"literal of {ref}")


def _value(n: Node) -> Node:
    # tree-sitter-go wraps keyed/literal elements' expressions in `literal_element`
    if n.type == "literal_element":
        return named(n)[0]
    return n


# ---------------------------------------------------------------------------
# The expected errors


def path_of(node: Node) -> str:
    """`field.NewPath("a", "b").Child("c").Index(2).Key("k")` → `a.b.c[2][k]`."""
    if node.type == "nil":
        return ""  # the object itself
    if node.type != "call_expression":
        raise Unsupported(f"path {text(node)[:40]}")
    fn = node.child_by_field_name("function")
    args = named(node.child_by_field_name("arguments"))  # type: ignore[arg-type]
    assert fn is not None
    if text(fn) == "field.NewPath":
        return ".".join(unquote(text(a)) for a in args)
    if fn.type == "selector_expression":
        base = path_of(fn.child_by_field_name("operand"))  # type: ignore[arg-type]
        method = text(fn.child_by_field_name("field"))  # type: ignore[arg-type]
        if method == "Child":
            return ".".join([base, *(unquote(text(a)) for a in args)])
        if method == "Index":
            return f"{base}[{text(args[0])}]"
        if method == "Key":
            return f"{base}[{unquote(text(args[0]))}]"
    raise Unsupported(f"path {text(node)[:40]}")


TYPES = {
    "Invalid": "Invalid",
    "Required": "Required",
    "Forbidden": "Forbidden",
    "NotSupported": "NotSupported",
}


def expected_errors(node: Node) -> list[tuple[str, str, str, str]]:
    """`field.ErrorList{...}[.WithOrigin("o")]` → (path, type, origin, detail)."""
    origin = ""
    if node.type == "call_expression":
        fn = node.child_by_field_name("function")
        assert fn is not None
        if (
            fn.type == "selector_expression"
            and text(fn.child_by_field_name("field")) == "WithOrigin"
        ):  # type: ignore[arg-type]
            origin = unquote(text(named(node.child_by_field_name("arguments"))[0]))  # type: ignore[arg-type]
            node = fn.child_by_field_name("operand")  # type: ignore[assignment]
    if node.type != "composite_literal":
        raise Unsupported(f"error list {text(node)[:40]}")
    out = []
    for e in named(node.child_by_field_name("body")):  # type: ignore[arg-type]
        out.append(_one_error(_value(e), origin))
    return out


def _one_error(node: Node, origin: str) -> tuple[str, str, str, str]:
    if node.type != "call_expression":
        raise Unsupported(f"error {text(node)[:40]}")
    fn = node.child_by_field_name("function")
    args = named(node.child_by_field_name("arguments"))  # type: ignore[arg-type]
    assert fn is not None
    if fn.type == "selector_expression":
        method = text(fn.child_by_field_name("field"))  # type: ignore[arg-type]
        operand = fn.child_by_field_name("operand")
        assert operand is not None
        if method == "WithOrigin":
            return _one_error(operand, unquote(text(args[0])))
        if text(operand) == "field" and method in TYPES:
            detail = ""
            if method != "NotSupported" and args[-1].type in (
                "interpreted_string_literal",
                "raw_string_literal",
            ):
                detail = unquote(text(args[-1]))
            return path_of(args[0]), TYPES[method], origin, detail
        if method in ("MarkAlpha", "MarkBeta", "MarkCoveredByDeclarative", "MarkDeclarativeNative"):
            return _one_error(operand, origin)
    raise Unsupported(f"error {text(fn)}")


# ---------------------------------------------------------------------------
# The replays


@dataclass
class Replay:
    case: str
    line: int
    type_name: str
    obj: Any
    old: Any
    options: frozenset[str]
    want: list[tuple[str, str, str, str]]
    by_origin: bool
    detail: str  # "", "substring" or "exact": how the test's matcher compares details


def _chain(node: Node) -> list[tuple[str, list[Node]]]:
    """`st.Value(a).OldValue(b).ExpectValid()` → [("Value", [a]), ("OldValue", [b]), ...]."""
    out: list[tuple[str, list[Node]]] = []
    while node.type == "call_expression":
        fn = node.child_by_field_name("function")
        if fn is None or fn.type != "selector_expression":
            break
        out.append(
            (text(fn.child_by_field_name("field")), named(node.child_by_field_name("arguments")))
        )  # type: ignore[arg-type]
        node = fn.child_by_field_name("operand")  # type: ignore[assignment]
    return list(reversed(out))


def _root_type(node: Node, t: Types) -> str:
    while node.type in ("unary_expression", "parenthesized_expression"):
        node = named(node)[0]
    if node.type == "identifier" and text(node) in t.vars:
        return _root_type(t.vars[text(node)], t)
    if node.type == "composite_literal":
        ty = node.child_by_field_name("type")
        assert ty is not None
        return text(ty)
    raise Unsupported(f"value {text(node)[:40]}")


def replays(case: Path, test_file: Path, t: Types, errors: Counter[str]) -> list[Replay]:
    tree = Parser(GO).parse(test_file.read_bytes())
    out: list[Replay] = []
    stack = [tree.root_node]
    nodes: list[Node] = []
    while stack:
        n = stack.pop()
        nodes.append(n)
        stack.extend(reversed(n.children))
    for n in nodes:
        if n.type == "short_var_declaration":
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            if left is not None and right is not None and len(named(left)) == 1:
                t.vars[text(named(left)[0])] = named(right)[0]
            continue
        if n.type != "expression_statement":
            continue
        chain = _chain(named(n)[0])
        if not chain or chain[0][0] != "Value" or not chain[-1][0].startswith("Expect"):
            continue
        where = f"{case.name}:{n.start_point[0] + 1}"
        try:
            steps = dict(chain[:-1])
            value = steps["Value"][0]
            type_name = _root_type(value, t)
            obj = to_json(value, None, t)
            old = to_json(steps["OldValue"][0], None, t) if "OldValue" in steps else None
            options: frozenset[str] = frozenset()
            if "Opts" in steps:
                opts = to_json_opts(steps["Opts"][0])
                options = frozenset(k for k, v in opts.items() if v)
            verb, args = chain[-1]
            detail = ""
            if verb == "ExpectValid":
                want: list[tuple[str, str, str, str]] = []
                by_origin = True
            elif verb == "ExpectMatches":
                by_origin = "ByOrigin" in text(args[0])
                if "ByDetailSubstring" in text(args[0]):
                    detail = "substring"
                elif "ByDetailExact" in text(args[0]):
                    detail = "exact"
                want = expected_errors(args[1])
            else:
                raise Unsupported(verb)
        except (Unsupported, KeyError, ValueError) as e:
            errors[f"not read: {e}"] += 1
            print(f"  not read {where}: {e}", file=sys.stderr)
            continue
        out.append(
            Replay(
                case.name,
                n.start_point[0] + 1,
                type_name,
                obj,
                old,
                options,
                want,
                by_origin,
                detail,
            )
        )
    return out


def to_json_opts(node: Node) -> dict[str, bool]:
    fn = node.child_by_field_name("function") if node.type == "call_expression" else None
    if fn is not None and text(fn) == "opts":
        # tags/enum/options' helper: `opts("FeatureA", ...)` enables the options named
        args = named(node.child_by_field_name("arguments"))  # type: ignore[arg-type]
        if not all(a.type == "interpreted_string_literal" for a in args):
            raise Unsupported("options")
        return {unquote(text(a)): True for a in args}
    if node.type != "composite_literal":
        raise Unsupported("options")
    out = {}
    for e in named(node.child_by_field_name("body")):  # type: ignore[arg-type]
        k, v = named(e)
        out[unquote(text(_value(k)))] = text(_value(v)) == "true"
    return out


def consts_of(doc: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for m in re.finditer(r'^\s*(\w+)\s+(?:\w+\s+)?=\s+("(?:[^"\\]|\\.)*"|-?\d+)\s*$', doc, re.M):
        out[m.group(1)] = unquote(m.group(2)) if m.group(2).startswith('"') else int(m.group(2))
    return out


# ---------------------------------------------------------------------------


def run_case(case: Path, verbose: bool) -> tuple[Counter[str], list[str]]:
    counts: Counter[str] = Counter()
    problems: list[str] = []
    doc = case / "doc.go"
    tests = sorted(p for p in case.glob("*_test.go"))
    if not doc.exists() or not tests:
        return counts, problems
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "go.mod").write_text("module example.com/case\n\ngo 1.24\n")
        (root / "api").mkdir()
        for f in case.glob("*.go"):
            if not f.name.endswith("_test.go") and not f.name.startswith("zz_generated"):
                (root / "api" / f.name).write_text(f.read_text())
        model = load_model(["./..."], root)
        table = Table.from_dict(build_table(model, EmitOptions()))
    t = Types(model, "example.com/case/api", consts_of(doc.read_text()))
    for test in tests:
        for r in replays(case, test, t, counts):
            name = next((n for n in table.types if n.endswith("." + r.type_name)), None)
            if name is None:
                counts["not read: no table type"] += 1
                continue
            got = validate(table, name, r.obj, r.old, r.options)
            counts["replays"] += 1
            ours = sorted((e.path, e.type, e.origin, e.message) for e in got)
            theirs = sorted(r.want)
            same_verdict = bool(ours) == bool(theirs)
            same_paths = matches(theirs, ours, r.by_origin, r.detail)
            ours = [x[:3] for x in ours]
            theirs = [x[:3] for x in theirs]
            counts["verdict"] += same_verdict
            counts["paths"] += same_verdict and same_paths
            if not (same_verdict and same_paths):
                problems.append(
                    f"{case.relative_to(case.parents[2])}/{test.name}:{r.line}: "
                    f"validation-gen {theirs} markergen {ours}"
                    + (
                        f"\n      object {r.obj} old {r.old} options {sorted(r.options)}"
                        if verbose
                        else ""
                    )
                )
    return counts, problems


def matches(
    want: list[tuple[str, str, str, str]],
    got: list[tuple[str, str, str, str]],
    by_origin: bool,
    detail: str,
) -> bool:
    """apimachinery's `ErrorMatcher.Test`: each wanted error matches a got error by path
    and type (and origin with `ByOrigin()`, detail with `ByDetailSubstring()` /
    `ByDetailExact()`); with an origin, one wanted error may match several got errors
    (tests "insulated from the exact number"); nothing may be left over."""

    def same(w: tuple[str, str, str, str], g: tuple[str, str, str, str]) -> bool:
        if g[:2] != w[:2] or (by_origin and g[2] != w[2]):
            return False
        if detail == "substring":
            return w[3] in g[3]
        return detail != "exact" or w[3] == g[3]

    remaining = list(got)
    for w in want:
        hit = [g for g in remaining if same(w, g)]
        if not hit:
            return False
        if by_origin and w[2]:
            remaining = [g for g in remaining if g not in hit]
        else:
            remaining.remove(hit[0])
    return not remaining


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkout", type=Path)
    ap.add_argument(
        "--family", action="append", choices=sorted(FAMILIES), help="default: " + ", ".join(DEFAULT)
    )
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    tags = args.checkout / TAGS
    if not tags.is_dir():
        tags = args.checkout / "staging/src/k8s.io/code-generator" / TAGS
    total: Counter[str] = Counter()
    all_problems: list[str] = []
    for fam in args.family or DEFAULT:
        fam_counts: Counter[str] = Counter()
        cases = 0
        for sub in FAMILIES[fam]:
            for doc in sorted((tags / sub).rglob("doc.go")):
                counts, problems = run_case(doc.parent, args.verbose)
                cases += 1
                fam_counts.update(counts)
                all_problems.extend(problems)
        n = fam_counts["replays"]
        print(
            f"{fam:12} cases {cases:3}  replays {n:4}  verdict {fam_counts['verdict']:4}/{n}"
            f"  paths {fam_counts['paths']:4}/{n}"
            + "".join(
                f"  {k} {v}" for k, v in sorted(fam_counts.items()) if k.startswith("not read")
            )
        )
        total.update(fam_counts)
    n = total["replays"]
    print(
        f"{'total':12}            replays {n:4}  verdict {total['verdict']:4}/{n}  paths {total['paths']:4}/{n}"
    )
    if all_problems:
        print("\ndisagreements:")
        for p in all_problems:
            print("  " + p)
    return 0 if not all_problems else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
