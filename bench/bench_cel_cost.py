"""Replay Kubernetes' own CEL cost tests through markergen's port of the estimate.

    python bench/bench_cel_cost.py CHECKOUT [CHECKOUT...]

CHECKOUT is a checkout of k8s.io/apiextensions-apiserver (or any directory holding its
`pkg/apiserver/schema/cel` package). The script reads the Go test tables there with
tree-sitter and a small interpreter for the Go the tables are written in (composite
literals, the test files' own helper functions, closures, `ptr.To`, `fmt.Sprintf`), so
that every schema is built the way the Go test builds it, then compares:

- TestCelEstimatedCostStability: each rule's expected `MaxCost` with `withRule(schema)`;
- TestCostEstimation: `expectedCalcCost` (schema generated with nil bounds) and
  `expectedSetCost` (bounds set), and the `...ExceedsLimit` lower bounds.

Like the Go test (`schemaChecker` checks a cost only when it is non-zero), an expected 0
is not a check and is counted apart. TestCelCostStability lists *runtime* costs, which
are not estimates: its cases are counted as not applicable.

Prints, per table and in total: matched / readable, and what could not be read and why.

With `--crds`, each CHECKOUT is instead searched for CustomResourceDefinitions (outside
`vendor/`) and every `x-kubernetes-validations` rule in them is estimated at its node:
how many were estimated, how many the port cannot estimate and why, how many are over
the per-rule limit (a robustness check on real rules: nothing may crash).
"""

from __future__ import annotations

import ast
import collections
import copy
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tree_sitter_go
from tree_sitter import Language, Node, Parser

from markergen.celcost.decl import schema_decl
from markergen.celcost.rulecost import CannotEstimate, call_cost, context_cardinality, rule_cost
from markergen.crd.cost import STATIC_ESTIMATED_COST_LIMIT, hand_rules

PACKAGE = Path("pkg/apiserver/schema/cel")
VALIDATION = Path("pkg/apis/apiextensions/validation/validation_test.go")
FILES = ("compilation_test.go", "validation_test.go", "celcoststability_test.go")
MAX_INT64 = 2**63 - 1
MAX_UINT64 = 2**64 - 1
# Structural's embedded structs: their fields live on the schema itself
EMBEDDED = frozenset({"Generic", "ValueValidation", "Extensions", "ValidationExtensions"})


class Unreadable(Exception):
    """Go this interpreter does not evaluate (the case is reported, not guessed)."""


@dataclass
class Func:
    node: Node
    closure: dict[str, Any]
    src: bytes


@dataclass
class Interp:
    funcs: dict[str, Func] = field(default_factory=dict)
    globals_: dict[str, Any] = field(default_factory=dict)

    # -- expressions -------------------------------------------------------------------
    def eval(self, n: Node, env: dict[str, Any]) -> Any:
        t = n.type
        if t == "parenthesized_expression":
            return self.eval(n.named_children[0], env)
        if t == "interpreted_string_literal":
            return ast.literal_eval(n.text.decode("utf-8"))  # type: ignore[union-attr]
        if t == "raw_string_literal":
            return n.text.decode("utf-8")[1:-1]  # type: ignore[union-attr]
        if t == "int_literal":
            return int(n.text.decode().replace("_", ""), 0)  # type: ignore[union-attr]
        if t == "float_literal":
            return float(n.text.decode())  # type: ignore[union-attr]
        if t in ("true", "false"):
            return t == "true"
        if t == "nil":
            return None
        if t == "identifier":
            name = n.text.decode()  # type: ignore[union-attr]
            if name in env:
                return env[name]
            if name in self.globals_:
                return self.globals_[name]
            if name in self.funcs:
                return self.funcs[name]
            raise Unreadable(f"unknown identifier {name}")
        if t == "selector_expression":
            return self.select(n, env)
        if t == "unary_expression":
            op = n.child_by_field_name("operator")
            v = self.eval(n.child_by_field_name("operand"), env)  # type: ignore[arg-type]
            o = op.text.decode() if op else ""  # type: ignore[union-attr]
            if o in ("&", "*"):
                return v
            if o == "-":
                return -v
            if o == "!":
                return not v
            raise Unreadable(f"operator {o}")
        if t == "binary_expression":
            return self.binary(n, env)
        if t == "composite_literal":
            return self.composite(n, env)
        if t == "func_literal":
            return Func(n, env, b"")
        if t == "call_expression":
            return self.call(n, env)
        if t == "type_conversion_expression":  # int64(x), ptr.To[int64](x)
            return self.eval(n.child_by_field_name("operand"), env)  # type: ignore[arg-type]
        if t == "index_expression":
            v = self.eval(n.child_by_field_name("operand"), env)  # type: ignore[arg-type]
            return v[self.eval(n.child_by_field_name("index"), env)]  # type: ignore[arg-type]
        raise Unreadable(f"Go expression {t}")

    def select(self, n: Node, env: dict[str, Any]) -> Any:
        operand = n.child_by_field_name("operand")
        fname = n.child_by_field_name("field").text.decode()  # type: ignore[union-attr]
        assert operand is not None
        qual = f"{operand.text.decode()}.{fname}"  # type: ignore[union-attr]
        consts = {"math.MaxInt64": MAX_INT64, "math.MaxInt": MAX_INT64,
                  "math.MaxUint64": MAX_UINT64, "math.MaxUint": MAX_UINT64,
                  "math.MaxInt32": 2**31 - 1,
                  "math.MaxFloat64": sys.float_info.max}  # fmt: skip
        if qual in consts:
            return consts[qual]
        if qual in ("celconfig.PerCallLimit",):
            return 1_000_000
        v = self.eval(operand, env)
        if isinstance(v, dict):
            if fname in EMBEDDED:
                return v
            return v.get(fname)
        raise Unreadable(f"selector {qual}")

    def binary(self, n: Node, env: dict[str, Any]) -> Any:
        op = n.child_by_field_name("operator").text.decode()  # type: ignore[union-attr]
        left = n.child_by_field_name("left")
        right = n.child_by_field_name("right")
        assert left is not None and right is not None
        a = self.eval(left, env)
        if op == "&&":
            return bool(a) and bool(self.eval(right, env))
        if op == "||":
            return bool(a) or bool(self.eval(right, env))
        b = self.eval(right, env)
        ops: dict[str, Callable[[Any, Any], Any]] = {
            "==": lambda x, y: x == y, "!=": lambda x, y: x != y, "+": lambda x, y: x + y,
            "-": lambda x, y: x - y, "*": lambda x, y: x * y, "<": lambda x, y: x < y,
            ">": lambda x, y: x > y, "/": lambda x, y: x // y if isinstance(x, int) else x / y,
        }  # fmt: skip
        if op not in ops:
            raise Unreadable(f"operator {op}")
        return ops[op](a, b)

    def composite(self, n: Node, env: dict[str, Any]) -> Any:
        typ = n.child_by_field_name("type")
        body = n.child_by_field_name("body")
        assert body is not None
        tname = typ.text.decode() if typ is not None else ""  # type: ignore[union-attr]
        return self.literal_value(body, env, tname)

    def literal_value(self, body: Node, env: dict[str, Any], tname: str) -> Any:
        elems = [c for c in body.named_children if c.type in ("keyed_element", "literal_element")]
        keyed = any(c.type == "keyed_element" for c in elems)
        if not keyed:
            return [self.element(c, env, _elem_type(tname)) for c in elems]
        out: dict[Any, Any] = {}
        is_map = tname.startswith("map[")
        for c in elems:
            k, v = c.named_children[0], c.named_children[1]
            key = self.element(k, env, "") if is_map else k.text.decode()  # type: ignore[union-attr]
            val = self.element(v, env, _elem_type(tname) if is_map else "")
            if not is_map and key in EMBEDDED and isinstance(val, dict):
                out.update(val)
            else:
                out[key] = val
        return out

    def element(self, n: Node, env: dict[str, Any], tname: str) -> Any:
        if n.type == "literal_element":
            n = n.named_children[0]
        if n.type == "literal_value":
            return self.literal_value(n, env, tname)
        return self.eval(n, env)

    def call(self, n: Node, env: dict[str, Any]) -> Any:
        fn_node = n.child_by_field_name("function")
        args_node = n.child_by_field_name("arguments")
        assert fn_node is not None and args_node is not None
        name = fn_node.text.decode()  # type: ignore[union-attr]
        if name == "make":
            kind = args_node.named_children[0].type
            return {} if kind == "map_type" else []
        args = [self.eval(a, env) for a in args_node.named_children]
        if name in ("uint64", "int64", "int", "int32", "uint", "float64", "string"):
            return args[0]
        if name.startswith("ptr.To"):
            return args[0]
        if name == "fmt.Sprintf":
            return _sprintf(args[0], args[1:])
        if name == "len":
            return len(args[0] or ())
        if name == "append":
            return [*(args[0] or []), *args[1:]]
        f = self.eval(fn_node, env)
        if not isinstance(f, Func):
            raise Unreadable(f"call of {name}")
        return self.invoke(f, args)

    # -- statements ------------------------------------------------------------------
    def invoke(self, f: Func, args: list[Any]) -> Any:
        params = f.node.child_by_field_name("parameters")
        assert params is not None
        env = dict(f.closure)
        i = 0
        for p in params.named_children:
            ptype = p.child_by_field_name("type")
            ptext = ptype.text.decode() if ptype is not None else ""  # type: ignore[union-attr]
            names = [c for c in p.named_children if c.type == "identifier"]
            if p.type == "variadic_parameter_declaration":
                env[names[0].text.decode()] = list(args[i:])  # type: ignore[union-attr]
                i = len(args)
                continue
            for nm in names:
                v = args[i] if i < len(args) else None
                if isinstance(v, (dict, list)) and not ptext.startswith(("*", "map", "[]")):
                    v = copy.deepcopy(v)  # a struct passed by value
                env[nm.text.decode()] = v  # type: ignore[union-attr]
                i += 1
        body = f.node.child_by_field_name("body")
        assert body is not None
        _, value = self.block(body, env)
        return value

    def block(self, body: Node, env: dict[str, Any]) -> tuple[bool, Any]:
        stmts = body.named_children
        if len(stmts) == 1 and stmts[0].type == "statement_list":
            stmts = stmts[0].named_children
        for s in stmts:
            done, value = self.stmt(s, env)
            if done:
                return True, value
        return False, None

    def stmt(self, s: Node, env: dict[str, Any]) -> tuple[bool, Any]:
        t = s.type
        if t == "comment":
            return False, None
        if t == "return_statement":
            vals = [self.eval(c, env) for c in _exprs(s)]
            return True, (vals[0] if len(vals) == 1 else tuple(vals))
        if t == "short_var_declaration":
            left = _exprs(s.child_by_field_name("left"))
            right = [self.eval(c, env) for c in _exprs(s.child_by_field_name("right"))]
            if len(left) > 1 and len(right) == 1 and isinstance(right[0], tuple):
                right = list(right[0])
            for ln, rv in zip(left, right, strict=True):
                env[ln.text.decode()] = rv  # type: ignore[union-attr]
            return False, None
        if t == "assignment_statement":
            left = _exprs(s.child_by_field_name("left"))
            right = [self.eval(c, env) for c in _exprs(s.child_by_field_name("right"))]
            for ln, rv in zip(left, right, strict=True):
                self.assign(ln, rv, env)
            return False, None
        if t == "if_statement":
            cond = s.child_by_field_name("condition")
            assert cond is not None
            if self.eval(cond, env):
                return self.block(s.child_by_field_name("consequence"), env)  # type: ignore[arg-type]
            alt = s.child_by_field_name("alternative")
            if alt is not None:
                if alt.type == "if_statement":
                    return self.stmt(alt, env)
                return self.block(alt, env)
            return False, None
        if t == "for_statement":
            rc = next((c for c in s.named_children if c.type == "range_clause"), None)
            if rc is None:
                raise Unreadable("for loop without range")
            left = _exprs(rc.child_by_field_name("left"))
            over = self.eval(rc.child_by_field_name("right"), env)  # type: ignore[arg-type]
            items = list(over.items()) if isinstance(over, dict) else list(enumerate(over or []))
            for k, v in items:
                if left:
                    env[left[0].text.decode()] = k  # type: ignore[union-attr]
                if len(left) > 1:
                    env[left[1].text.decode()] = v  # type: ignore[union-attr]
                done, value = self.block(s.child_by_field_name("body"), env)  # type: ignore[arg-type]
                if done:
                    return True, value
            return False, None
        if t == "var_declaration":
            for spec in (c for c in s.named_children if c.type == "var_spec"):
                self.var_spec(spec, env)
            return False, None
        if t == "expression_statement":
            self.eval(s.named_children[0], env)
            return False, None
        raise Unreadable(f"Go statement {t}")

    def var_spec(self, spec: Node, env: dict[str, Any]) -> None:
        names = [c for c in spec.named_children if c.type == "identifier"]
        value = spec.child_by_field_name("value")
        vals = [self.eval(c, env) for c in _exprs(value)] if value is not None else []
        for i, nm in enumerate(names):
            env[nm.text.decode()] = vals[i] if i < len(vals) else None  # type: ignore[union-attr]

    def assign(self, target: Node, value: Any, env: dict[str, Any]) -> None:
        if target.type == "identifier":
            env[target.text.decode()] = value  # type: ignore[union-attr]
            return
        if target.type == "selector_expression":
            obj = self.eval(target.child_by_field_name("operand"), env)  # type: ignore[arg-type]
            fname = target.child_by_field_name("field").text.decode()  # type: ignore[union-attr]
            if not isinstance(obj, dict):
                raise Unreadable("assignment to a field of a non-struct")
            if fname in EMBEDDED and isinstance(value, dict):
                obj.update(value)
            else:
                obj[fname] = value
            return
        if target.type == "index_expression":
            obj = self.eval(target.child_by_field_name("operand"), env)  # type: ignore[arg-type]
            obj[self.eval(target.child_by_field_name("index"), env)] = value  # type: ignore[arg-type]
            return
        raise Unreadable(f"assignment to {target.type}")

    # -- loading -----------------------------------------------------------------------
    def load(self, path: Path) -> Node:
        data = path.read_bytes()
        tree = Parser(Language(tree_sitter_go.language())).parse(data)
        root = tree.root_node
        for n in root.named_children:
            if n.type == "function_declaration":
                name = n.child_by_field_name("name").text.decode()  # type: ignore[union-attr]
                self.funcs[name] = Func(n, {}, data)
        return root

    def load_globals(self, root: Node) -> list[str]:
        problems = []
        for n in root.named_children:
            if n.type in ("var_declaration", "const_declaration"):
                for spec in _descendants(n, "var_spec"):
                    try:
                        self.var_spec(spec, self.globals_)
                    except (Unreadable, KeyError, TypeError) as e:
                        problems.append(str(e))
                for spec in _descendants(n, "const_spec"):
                    try:
                        self.var_spec(spec, self.globals_)
                    except (Unreadable, KeyError, TypeError) as e:
                        problems.append(str(e))
        return problems


def _exprs(n: Node | None) -> list[Node]:
    """The expressions of an expression list, a return statement, or one expression."""
    if n is None:
        return []
    if n.type == "expression_list":
        return list(n.named_children)
    if n.type == "return_statement":
        out: list[Node] = []
        for c in n.named_children:
            out.extend(c.named_children if c.type == "expression_list" else [c])
        return out
    return [n]


def _descendants(n: Node, typ: str) -> Iterator[Node]:
    for c in n.named_children:
        if c.type == typ:
            yield c
        else:
            yield from _descendants(c, typ)


def _elem_type(tname: str) -> str:
    if tname.startswith("[]"):
        return tname[2:]
    if tname.startswith("map["):
        depth = 0
        for i, ch in enumerate(tname):
            if ch == "[":
                depth += 1
            elif ch == "]":
                depth -= 1
                if depth == 0:
                    return tname[i + 1 :]
    return ""


def _sprintf(fmt: str, args: list[Any]) -> str:
    out = []
    i = 0
    a = 0
    while i < len(fmt):
        ch = fmt[i]
        if ch == "%" and i + 1 < len(fmt):
            verb = fmt[i + 1]
            if verb == "%":
                out.append("%")
            elif verb == "d":
                out.append(str(int(args[a])))
                a += 1
            elif verb == "s":
                out.append(str(args[a]))
                a += 1
            elif verb == "f":
                out.append(f"{float(args[a]):f}")
                a += 1
            else:
                raise Unreadable(f"fmt verb %{verb}")
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


# -- Structural (as the Go tests build it) to OpenAPI ---------------------------------
def openapi(s: Any) -> dict[str, Any]:
    if not isinstance(s, dict):
        raise Unreadable("schema is not a struct")
    out: dict[str, Any] = {}
    simple = {"Type": "type", "Format": "format", "MaxLength": "maxLength",
              "MaxItems": "maxItems", "MaxProperties": "maxProperties",
              "Required": "required", "Nullable": "nullable",
              "XIntOrString": "x-kubernetes-int-or-string",
              "XEmbeddedResource": "x-kubernetes-embedded-resource",
              "XListType": "x-kubernetes-list-type",
              "XListMapKeys": "x-kubernetes-list-map-keys"}  # fmt: skip
    for k, v in s.items():
        if v is None or v == "" or v is False or v == []:
            continue
        if k in simple:
            out[simple[k]] = v
        elif k == "Properties":
            out["properties"] = {str(n): openapi(p) for n, p in v.items()}
        elif k == "Items":
            out["items"] = openapi(v)
        elif k == "AdditionalProperties":
            inner = v.get("Structural", v.get("Schema")) if isinstance(v, dict) else None
            if inner is not None:
                out["additionalProperties"] = openapi(inner)
            elif isinstance(v, dict) and v.get("Bool"):
                out["additionalProperties"] = True
        elif k == "Enum":
            out["enum"] = [e.get("Object") if isinstance(e, dict) else e for e in v]
        elif k == "Default":
            out["default"] = v.get("Object") if isinstance(v, dict) else v
        elif k == "XValidations":
            out["x-kubernetes-validations"] = [
                {"rule": r.get("Rule", "")} for r in v if isinstance(r, dict)
            ]
    return out


@dataclass
class Tally:
    matched: int = 0
    mismatched: list[str] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)
    not_a_check: int = 0
    cannot_estimate: list[str] = field(default_factory=list)

    @property
    def readable(self) -> int:
        return self.matched + len(self.mismatched) + len(self.cannot_estimate)


def estimate_root_rule(schema: Any, rule: str) -> int:
    """schemaChecker: Compile(schema, SchemaDeclType(schema, false)) → MaxCost."""
    d = schema_decl(openapi(schema), resource_root=False)
    if d is None:
        raise CannotEstimate("schema not visible to CEL")
    return call_cost(rule, d)


def check(tally: Tally, label: str, schema: Any, rule: str, want: int, at_least: int) -> None:
    if want == 0 and at_least == 0:
        tally.not_a_check += 1
        return
    try:
        got = estimate_root_rule(schema, rule)
    except CannotEstimate as e:
        tally.cannot_estimate.append(f"{label}: {rule!r}: {e}")
        return
    ok = got == want if want else got >= at_least
    if ok:
        tally.matched += 1
    else:
        tally.mismatched.append(f"{label}: {rule!r}: expected {want or f'>= {at_least}'}, got {got}")


def cases(interp: Interp, root: Node, test: str) -> Iterator[tuple[Node, dict[str, Node]]]:
    fn = next(
        (n for n in root.named_children if n.type == "function_declaration"
         and n.child_by_field_name("name").text.decode() == test),  # type: ignore[union-attr]
        None,
    )  # fmt: skip
    if fn is None:
        return
    lit = next(_descendants(fn, "composite_literal"))
    body = lit.child_by_field_name("body")
    assert body is not None
    for el in body.named_children:
        if el.type != "literal_element":
            continue
        value = el.named_children[0]
        fields: dict[str, Node] = {}
        for kv in value.named_children:
            if kv.type == "keyed_element":
                k, v = kv.named_children[0], kv.named_children[1]
                fields[k.text.decode()] = v.named_children[0] if v.type == "literal_element" else v  # type: ignore[union-attr]
        yield el, fields


def replay_estimated_stability(interp: Interp, root: Node, tally: Tally) -> None:
    for _, f in cases(interp, root, "TestCelEstimatedCostStability"):
        name = interp.eval(f["name"], {}) if "name" in f else "?"
        try:
            schema = interp.eval(f["schema"], {})
        except (Unreadable, KeyError, TypeError, IndexError) as e:
            n = len(_descendants_list(f.get("expectCost"), "keyed_element"))
            tally.unreadable.append(f"{name}: schema: {e} ({n} rules)")
            continue
        costs = f.get("expectCost")
        if costs is None:
            continue
        body = costs.child_by_field_name("body") if costs.type == "composite_literal" else costs
        for kv in body.named_children:  # type: ignore[union-attr]
            if kv.type != "keyed_element":
                continue
            k, v = kv.named_children[0], kv.named_children[1]
            try:
                rule = interp.element(k, {}, "")
                want = interp.element(v, {}, "")
            except (Unreadable, KeyError, TypeError) as e:
                tally.unreadable.append(f"{name}: {k.text.decode()[:60]}: {e}")  # type: ignore[union-attr]
                continue
            check(tally, f"TestCelEstimatedCostStability/{name}", schema, rule, int(want), 0)


def _descendants_list(n: Node | None, typ: str) -> list[Node]:
    return list(_descendants(n, typ)) if n is not None else []


def replay_cost_estimation(interp: Interp, root: Node, tally: Tally) -> None:
    for _, f in cases(interp, root, "TestCostEstimation"):
        name = interp.eval(f["name"], {}) if "name" in f else "?"
        try:
            gen = interp.eval(f["schemaGenerator"], {})
            nums = {
                k: int(interp.eval(f[k], {})) if k in f else 0
                for k in ("setMaxElements", "expectedCalcCost", "expectCalcCostExceedsLimit",
                          "expectedSetCost", "expectedSetCostExceedsLimit")
            }  # fmt: skip
            calc = interp.invoke(gen, [None])
            setm = interp.invoke(gen, [nums["setMaxElements"]])
        except (Unreadable, KeyError, TypeError, IndexError) as e:
            tally.unreadable.append(f"{name}: {e} (2 checks)")
            continue
        for label, schema, want, at_least in (
            ("calc", calc, nums["expectedCalcCost"], nums["expectCalcCostExceedsLimit"]),
            ("set", setm, nums["expectedSetCost"], nums["expectedSetCostExceedsLimit"]),
        ):
            rules = (openapi(schema).get("x-kubernetes-validations") or [{}])
            check(tally, f"TestCostEstimation/{name}/{label}", schema, rules[0].get("rule", ""),
                  want, at_least)  # fmt: skip


def replay_cost_info(interp: Interp, root: Node, tally: Tally) -> None:
    """TestCostInfo: the cardinality of a leaf below a chain of schemas (each the child
    of the one before: the items of an array, the values of a map, a property)."""
    for _, f in cases(interp, root, "TestCostInfo"):
        name = interp.eval(f["name"], {}) if "name" in f else "?"
        try:
            chain = [openapi(s) for s in interp.eval(f["schema"], {})]
            want = interp.eval(f["expectedMaxCardinality"], {})
        except (Unreadable, KeyError, TypeError, IndexError) as e:
            tally.unreadable.append(f"{name}: {e}")
            continue
        node: dict[str, Any] = {"type": "string"}
        path: list[str] = []
        for s in reversed(chain):
            s = dict(s)
            if s.get("type") == "array":
                s["items"], step = node, ["items"]
            elif "additionalProperties" in s:
                s["additionalProperties"], step = node, ["additionalProperties"]
            else:
                s["properties"], step = {"x": node}, ["properties", "x"]
            node, path = s, [*step, *path]
        got = context_cardinality(node, path)
        if got == want:
            tally.matched += 1
        else:
            tally.mismatched.append(f"TestCostInfo/{name}: expected {want}, got {got}")


def runtime_cases(root: Node) -> int:
    fn = next(
        (n for n in root.named_children if n.type == "function_declaration"
         and n.child_by_field_name("name").text.decode() == "TestCelCostStability"),  # type: ignore[union-attr]
        None,
    )  # fmt: skip
    if fn is None:
        return 0
    return sum(
        len([kv for kv in m.named_children if kv.type == "keyed_element"])
        for kv in _descendants(fn, "keyed_element")
        if kv.named_children[0].text == b"expectCost"  # type: ignore[comparison-overlap]
        for m in _descendants_list(kv, "literal_value")[:1]
    )


def sweep_crds(checkouts: list[Path]) -> int:
    import yaml

    counts: collections.Counter[str] = collections.Counter()
    reasons: collections.Counter[str] = collections.Counter()
    for checkout in checkouts:
        for p in sorted(checkout.rglob("*.yaml")):
            if "vendor" in p.parts:
                continue
            try:
                text = p.read_text(encoding="utf-8")
                if "CustomResourceDefinition" not in text or "x-kubernetes-validations" not in text:
                    continue
                docs = list(yaml.load_all(text, Loader=yaml.CSafeLoader))
            except (OSError, UnicodeDecodeError, yaml.YAMLError):
                continue
            for d in docs:
                if not isinstance(d, dict) or d.get("kind") != "CustomResourceDefinition":
                    continue
                for v in (d.get("spec") or {}).get("versions") or []:
                    schema = ((v or {}).get("schema") or {}).get("openAPIV3Schema")
                    for below, r in hand_rules(schema):
                        rule = r.get("rule")
                        if not isinstance(rule, str):
                            continue
                        try:
                            c = rule_cost(rule, schema, below, r.get("optionalOldSelf") is True)
                        except CannotEstimate as e:
                            counts["cannot estimate"] += 1
                            reasons[str(e)] += 1
                            continue
                        counts["estimated"] += 1
                        if c.total > STATIC_ESTIMATED_COST_LIMIT:
                            counts["over the per-rule limit"] += 1
    print(
        f"rules in CRDs: {counts['estimated']} estimated, {counts['cannot estimate']} cannot "
        f"estimate, {counts['over the per-rule limit']} over the per-rule limit"
    )
    for why, n in reasons.most_common():
        print(f"  {n} x {why}")
    return 0


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    if argv[0] == "--crds":
        return sweep_crds([Path(a) for a in argv[1:]])
    grand = Tally()
    for checkout in map(Path, argv):
        pkg = checkout / PACKAGE if (checkout / PACKAGE).is_dir() else checkout
        interp = Interp()
        roots = {}
        for name in FILES:
            p = pkg / name
            if p.is_file():
                roots[name] = interp.load(p)
        if not roots:
            print(f"{checkout}: no {PACKAGE} test files")
            continue
        # A package-level value the tables do not use may be unreadable (a case that
        # uses it then fails on its own, as not readable); listed, not counted.
        skipped = [p for r in roots.values() for p in interp.load_globals(r)]
        per: dict[str, Tally] = {}
        if "celcoststability_test.go" in roots:
            per["TestCelEstimatedCostStability"] = t = Tally()
            replay_estimated_stability(interp, roots["celcoststability_test.go"], t)
        if "compilation_test.go" in roots:
            per["TestCostEstimation"] = t = Tally()
            replay_cost_estimation(interp, roots["compilation_test.go"], t)
        validation = checkout / VALIDATION
        if validation.is_file():
            vinterp = Interp()
            per["TestCostInfo (cardinality)"] = t = Tally()
            replay_cost_info(vinterp, vinterp.load(validation), t)
        runtime = runtime_cases(roots["celcoststability_test.go"]) if (
            "celcoststability_test.go" in roots
        ) else 0
        print(f"# {checkout}")
        for p in skipped:
            print(f"  (package-level value not evaluated: {p})")
        for test, t in per.items():
            print(
                f"{test}: matched {t.matched} / {t.readable} readable; "
                f"{len(t.unreadable)} not readable; {t.not_a_check} expected 0 (not a check)"
            )
            for m in t.mismatched:
                print(f"  MISMATCH {m}")
            for m in t.cannot_estimate:
                print(f"  CANNOT ESTIMATE {m}")
            for m in t.unreadable:
                print(f"  NOT READABLE {m}")
            grand.matched += t.matched
            grand.mismatched += t.mismatched
            grand.cannot_estimate += t.cannot_estimate
            grand.unreadable += t.unreadable
            grand.not_a_check += t.not_a_check
        print(f"TestCelCostStability: {runtime} runtime costs (not estimates; not applicable)")
    print(
        f"TOTAL: matched {grand.matched} / {grand.readable} readable "
        f"({len(grand.mismatched)} mismatched, {len(grand.cannot_estimate)} cannot estimate); "
        f"{len(grand.unreadable)} not readable; {grand.not_a_check} expected 0 (not a check)"
    )
    return 0 if not grand.mismatched else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
