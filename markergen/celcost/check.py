"""Types and overloads of a parsed CEL rule, as cel-go's checker would find them.

The cost estimate needs, for each node, its type (a select adds 1 only on a map or an
object; a scalar has size 1) and, for each call, the overload ids cel-go resolves (the
cost of `+` depends on whether it is `add_string` or `add_int64`; with `dyn` operands
every overload that might apply is kept, as cel-go does, and the estimate covers all).

Only the declarations the API server's CRD environment has are known (cel-go's standard
library, ext.Strings v2, ext.Sets, Kubernetes' lists, regex, URL, quantity, IP/CIDR,
semver, format libraries). A function outside those, message types, and `oldSelf` on a
rule that cannot use it raise CheckError: the estimate then says why it cannot estimate.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from markergen.celcost.decl import Decl
from markergen.celcost.escape import RESERVED
from markergen.celcost.syntax import (
    Call,
    Comprehension,
    Expr,
    Ident,
    ListExpr,
    Literal,
    MapExpr,
    Select,
    Uint,
)


class CheckError(Exception):
    """The rule does not type-check here (or uses what this port does not know)."""


@dataclass(frozen=True, slots=True)
class Type:
    kind: str  # int uint double bool string bytes null duration timestamp list map
    # object dyn type optional opaque
    params: tuple[Type, ...] = ()
    decl: Decl | None = field(default=None, compare=False)
    name: str = ""  # opaque type name (quantity, url, ip, cidr, semver, format, ...)


INT, UINT, DOUBLE, BOOL = Type("int"), Type("uint"), Type("double"), Type("bool")
STRING, BYTES, NULL = Type("string"), Type("bytes"), Type("null")
DURATION, TIMESTAMP, DYN, TYPE = Type("duration"), Type("timestamp"), Type("dyn"), Type("type")
SCALARS = ("int", "uint", "double", "bool", "duration", "timestamp")


def list_of(t: Type) -> Type:
    return Type("list", (t,))


def map_of(k: Type, v: Type) -> Type:
    return Type("map", (k, v))


def opaque(name: str) -> Type:
    return Type("opaque", (), None, name)


def optional_of(t: Type) -> Type:
    return Type("optional", (t,))


def decl_type(d: Decl) -> Type:
    if d.kind == "object":
        return Type("object", (), d)
    if d.kind == "list":
        assert d.elem is not None
        return Type("list", (decl_type(d.elem),), d)
    if d.kind == "map":
        assert d.elem is not None
        return Type("map", (STRING, decl_type(d.elem)), d)
    return Type(d.kind, (), d)


def is_dyn(t: Type) -> bool:
    return t.kind == "dyn"


def _elem(t: Type) -> Type:
    return t.params[0] if t.kind == "list" and t.params else DYN


def _val(t: Type) -> Type:
    return t.params[1] if t.kind == "map" and len(t.params) > 1 else DYN


def _transform_list(step: Expr) -> Expr:
    """The one-element list `[transform]` a map macro's step appends to the accumulator."""
    if isinstance(step, Call) and step.function == "_?_:_" and len(step.args) == 3:
        step = step.args[1]
    if isinstance(step, Call) and step.function == "_+_" and len(step.args) == 2:
        return step.args[1]
    return step


def _join(a: Type, b: Type) -> Type:
    if a == b:
        return a
    if a.kind == "null":
        return b
    if b.kind == "null":
        return a
    if a.kind == b.kind == "list":
        return list_of(_join(_elem(a), _elem(b)))
    if a.kind == b.kind == "map":
        return map_of(_join(a.params[0], b.params[0]), _join(_val(a), _val(b)))
    if a.kind == b.kind and a.kind not in ("opaque",):
        return a
    return DYN


# Type identifiers usable as values (`type(x) == int`).
TYPE_IDENTS = frozenset(
    {
        "int", "uint", "double", "bool", "string", "bytes", "list", "map", "null_type",
        "type", "dyn", "google.protobuf.Duration", "google.protobuf.Timestamp",
    }
)  # fmt: skip

QUANTITY, URL, IP, CIDR = opaque("quantity"), opaque("url"), opaque("ip"), opaque("cidr")
SEMVER, FORMAT = opaque("semver"), opaque("format")
_DURATION_GETTERS = ("getHours", "getMinutes", "getSeconds", "getMilliseconds")
_TIMESTAMP_GETTERS = (
    "getDate", "getDayOfMonth", "getDayOfWeek", "getDayOfYear", "getFullYear",
    "getHours", "getMilliseconds", "getMinutes", "getMonth", "getSeconds",
)  # fmt: skip
# Global functions whose names contain a dot (`optional.of`): the parser sees a member
# call on an identifier; cel-go's checker resolves the qualified name to a global call.
QUALIFIED = frozenset(
    {
        "optional.of", "optional.ofNonZeroValue", "optional.none", "sets.contains",
        "sets.equivalent", "sets.intersects", "strings.quote", "format.named",
        "math.greatest", "math.least", "ip.isCanonical", "lists.range",
    }
)  # fmt: skip
# Nothing is left unported by name. The authorization library (`authorizer` and its
# resource checks with their field and label selectors) is declared only where an
# `authorizer` variable is (admission policies): in a CRD rule `authorizer` is an
# undeclared reference, as the API server's checker says.
NOT_PORTED: frozenset[str] = frozenset()


@dataclass
class Checked:
    """Types of every node and overload ids of every call (keyed by node id)."""

    types: dict[int, Type] = field(default_factory=dict)
    overloads: dict[int, list[str]] = field(default_factory=dict)
    rewritten: dict[int, Expr] = field(default_factory=dict)  # qualified names resolved


@dataclass
class Checker:
    variables: dict[str, Type]
    out: Checked = field(default_factory=Checked)
    scopes: list[dict[str, Type]] = field(default_factory=list)

    def lookup(self, name: str) -> Type | None:
        for s in reversed(self.scopes):
            if name in s:
                return s[name]
        return self.variables.get(name)

    def check(self, e: Expr) -> Type:
        t = self._check(e)
        self.out.types[e.id] = t
        return t

    def _check(self, e: Expr) -> Type:
        if isinstance(e, Literal):
            return _literal_type(e.value)
        if isinstance(e, Ident):
            t = self.lookup(e.name)
            if t is not None:
                return t
            if e.name in TYPE_IDENTS:
                return TYPE
            raise CheckError(f"undeclared reference to {e.name!r}")
        if isinstance(e, Select):
            name = _qualified_name(e)
            if name is not None and self.lookup(name.split(".")[0]) is None and name in TYPE_IDENTS:
                self.out.rewritten[e.id] = Ident(name, e.id)
                return TYPE
            operand = self.check(e.operand)
            if e.test_only:
                self._field(operand, e.field)
                return BOOL
            return self._field(operand, e.field)
        if isinstance(e, ListExpr):
            elem: Type | None = None
            for x in e.elements:
                t = self.check(x)
                elem = t if elem is None else _join(elem, t)
            return list_of(elem or DYN)
        if isinstance(e, MapExpr):
            kt: Type | None = None
            vt: Type | None = None
            for k, v in e.entries:
                a, b = self.check(k), self.check(v)
                kt = a if kt is None else _join(kt, a)
                vt = b if vt is None else _join(vt, b)
            return map_of(kt or DYN, vt or DYN)
        if isinstance(e, Comprehension):
            return self._comprehension(e)
        return self._call(e)

    def _field(self, operand: Type, name: str) -> Type:
        if operand.kind == "object":
            assert operand.decl is not None
            f = operand.decl.fields.get(name)
            if f is None and name in RESERVED:
                # DeclTypeProvider with recognizeKeywordAsFieldName (1.31+): `self.namespace`
                # reaches the property Kubernetes escapes as `__namespace__`
                f = operand.decl.fields.get(f"__{name}__")
            if f is None:
                raise CheckError(f"undefined field {name!r}")
            return decl_type(f)
        if operand.kind == "optional":
            # optional chaining: a field of an optional object is an optional value
            inner = operand.params[0] if operand.params else DYN
            return optional_of(self._field(inner, name))
        if operand.kind == "map":
            return _val(operand)
        if operand.kind == "dyn":
            return DYN
        raise CheckError(f"type {operand.kind} has no field {name!r}")

    def _comprehension(self, e: Comprehension) -> Type:
        if e.macro == "cel.bind":
            # The API server's CRD environment (k8s.io/apiserver pkg/cel/environment
            # base.go) has no ext.Bindings: it refuses the rule as it fails to compile.
            raise CheckError(
                "undeclared reference to 'cel' (cel.bind is not available in CRD rules)"
            )
        rng = self.check(e.iter_range)
        init = self.check(e.accu_init)
        value = DYN  # a two-variable comprehension's second variable
        if rng.kind == "list":
            it = _elem(rng)
            if e.iter_var2:
                it, value = INT, it  # the index, then the item
        elif rng.kind == "map":
            it = rng.params[0]
            if e.iter_var2:
                value = rng.params[1] if len(rng.params) > 1 else DYN
        elif rng.kind == "dyn":
            it = DYN
        else:
            raise CheckError(f"cannot iterate over {rng.kind}")
        accu = init
        if e.macro in ("map", "transformList"):
            accu = list_of(DYN)  # refined after the step is typed
        elif e.macro == "filter":
            accu = list_of(it)
        self.scopes.append({e.accu_var: accu})
        if e.macro != "bind":
            self.scopes[-1][e.iter_var] = it
        if e.iter_var2:
            self.scopes[-1][e.iter_var2] = value
        self.check(e.loop_condition)
        step = self.check(e.loop_step)
        if e.macro in ("transformMap", "transformMapEntry") and step.kind == "map":
            self.scopes[-1][e.accu_var] = step
            step = self.check(e.loop_step)
        if e.macro in ("map", "transformList"):
            # cel-go types the accumulator `[]` as a list of a type parameter that the
            # step binds to the transform's type (`x * 2` gives list(int)); with the
            # element type known, the step is typed again, as an overload may depend on it
            made = self.out.types.get(_transform_list(e.loop_step).id)
            if made is not None and made.kind == "list" and not is_dyn(_elem(made)):
                self.scopes[-1][e.accu_var] = made
                step = self.check(e.loop_step)
            self.scopes[-1][e.accu_var] = step if step.kind == "list" else accu
        result = self.check(e.result)
        self.scopes.pop()
        return result

    def _call(self, e: Call) -> Type:
        fn = e.function
        if e.target is not None:
            qn = _qualified_name(e.target)
            if (
                qn is not None
                and (f"{qn}.{fn}" in QUALIFIED or qn == "format")
                and self.lookup(qn) is None
            ):
                resolved = Call(f"{qn}.{fn}", e.args, None, e.id)
                self.out.rewritten[e.id] = resolved
                return self._call(resolved)
        if fn in NOT_PORTED or fn.split(".")[-1] in NOT_PORTED:
            raise CheckError(f"the cost of {fn}() is not ported")
        target = self.check(e.target) if e.target is not None else None
        args = [self.check(a) for a in e.args]
        ids, result = resolve(fn, target, args)
        self.out.overloads[e.id] = ids
        return result


# bool before int: a bool is an int to isinstance
_LITERAL_TYPES = (
    (bool, BOOL), (int, INT), (Uint, UINT), (float, DOUBLE), (str, STRING), (bytes, BYTES),
)  # fmt: skip


def _literal_type(v: object) -> Type:
    return next((t for kind, t in _LITERAL_TYPES if isinstance(v, kind)), NULL)


def _qualified_name(e: Expr) -> str | None:
    if isinstance(e, Ident):
        return e.name
    if isinstance(e, Select) and not e.test_only:
        inner = _qualified_name(e.operand)
        return None if inner is None else f"{inner}.{e.field}"
    return None


_NUM = ("int", "uint", "double")
_ORDERED = ("int", "uint", "double", "string", "bytes", "bool", "timestamp", "duration")
_SUFFIX = {"int": "int64", "uint": "uint64", "double": "double"}


def _kinds(t: Type, allowed: tuple[str, ...]) -> tuple[str, ...]:
    return allowed if is_dyn(t) else ((t.kind,) if t.kind in allowed else ())


def resolve(fn: str, target: Type | None, args: list[Type]) -> tuple[list[str], Type]:
    """The overload ids cel-go would keep for this call and the result type."""
    n = len(args)
    if fn in ("_==_", "_!=_") and n == 2:
        return (["equals"] if fn == "_==_" else ["not_equals"]), BOOL
    if fn in ("_<_", "_<=_", "_>_", "_>=_") and n == 2:
        op = {"_<_": "less", "_<=_": "less_equals", "_>_": "greater", "_>=_": "greater_equals"}
        ids = []
        for a in _kinds(args[0], _ORDERED):
            for b in _kinds(args[1], _ORDERED):
                if a == b:
                    ids.append(f"{op[fn]}_{_SUFFIX.get(a, a)}")
                elif a in _NUM and b in _NUM:  # CrossTypeNumericComparisons
                    ids.append(f"{op[fn]}_{_SUFFIX[a]}_{_SUFFIX[b]}")
        if not ids:
            raise CheckError(f"no matching overload for {fn}({args[0].kind}, {args[1].kind})")
        return ids, BOOL
    if fn == "_+_" and n == 2:
        return _add(args[0], args[1])
    if fn in ("_-_", "_*_", "_/_", "_%_") and n == 2:
        lhs, rhs = args
        if lhs.kind == "timestamp" and rhs.kind == "timestamp":
            return ["subtract_timestamp_timestamp"], DURATION
        if lhs.kind in ("timestamp", "duration"):
            return [f"{fn}_{lhs.kind}"], lhs
        return [f"{fn}_{lhs.kind}"], (rhs if is_dyn(lhs) else lhs)
    if fn == "-_" and n == 1:
        return [f"negate_{args[0].kind}"], args[0]
    if fn == "!_":
        return ["logical_not"], BOOL
    if fn == "_&&_":
        return ["logical_and"], BOOL
    if fn == "_||_":
        return ["logical_or"], BOOL
    if fn == "@not_strictly_false":
        return ["not_strictly_false"], BOOL
    if fn == "_?_:_" and n == 3:
        return ["conditional"], _join(args[1], args[2])
    if fn == "@in" and n == 2:
        c = args[1]
        if c.kind == "list":
            return ["in_list"], BOOL
        if c.kind == "map":
            return ["in_map"], BOOL
        if is_dyn(c):
            return ["in_list", "in_map"], BOOL
        raise CheckError(f"no matching overload for in over {c.kind}")
    if fn == "_[_]" and n == 2:
        c = args[0]
        if c.kind == "list":
            return ["index_list"], _elem(c)
        if c.kind == "map":
            return ["index_map"], _val(c)
        if is_dyn(c):
            return ["index_list", "index_map"], DYN
        raise CheckError(f"cannot index {c.kind}")
    if fn == "_?._" and n == 2:
        c = args[0]
        inner = c.params[0] if c.kind == "optional" else c
        if inner.kind == "object" and inner.decl is not None:
            return ["select_optional_field"], optional_of(DYN)
        return ["select_optional_field"], optional_of(_val(inner) if inner.kind == "map" else DYN)
    if fn == "_[?_]" and n == 2:
        c = args[0].params[0] if args[0].kind == "optional" else args[0]
        if c.kind == "list":
            return ["list_optindex_optional_int"], optional_of(_elem(c))
        return ["map_optindex_optional_value"], optional_of(_val(c))
    if target is None:
        return _global(fn, args)
    return _member(fn, target, args)


def _add(a: Type, b: Type) -> tuple[list[str], Type]:
    if a.kind == "list" and b.kind == "list":
        return ["add_list"], list_of(_join(_elem(a), _elem(b)))
    pairs = {
        ("int", "int"): ("add_int64", INT),
        ("uint", "uint"): ("add_uint64", UINT),
        ("double", "double"): ("add_double", DOUBLE),
        ("string", "string"): ("add_string", STRING),
        ("bytes", "bytes"): ("add_bytes", BYTES),
        ("duration", "duration"): ("add_duration_duration", DURATION),
        ("timestamp", "duration"): ("add_timestamp_duration", TIMESTAMP),
        ("duration", "timestamp"): ("add_duration_timestamp", TIMESTAMP),
        ("list", "list"): ("add_list", DYN),
    }
    ids = []
    result: Type | None = None
    for (x, y), (oid, rt) in pairs.items():
        if (a.kind == x or is_dyn(a)) and (b.kind == y or is_dyn(b)):
            ids.append(oid)
            result = rt if result is None else (result if result == rt else DYN)
    if not ids:
        raise CheckError(f"no matching overload for _+_({a.kind}, {b.kind})")
    if is_dyn(a) and not is_dyn(b) and b.kind == "list":
        result = b
    elif is_dyn(b) and not is_dyn(a) and a.kind == "list":
        result = a
    return ids, result or DYN


# cel-go's standard conversions: the argument kinds each one takes
_CONVERSIONS_FROM: dict[str, tuple[str, ...]] = {
    "string": ("string", "int", "uint", "double", "bool", "bytes", "timestamp", "duration"),
    "bytes": ("bytes", "string"),
    "int": ("int", "uint", "double", "string", "timestamp", "duration"),
    "uint": ("uint", "int", "double", "string"),
    "double": ("double", "int", "uint", "string"),
    "bool": ("bool", "string"),
    "duration": ("duration", "string"),
    "timestamp": ("timestamp", "string", "int"),
}
_SIZE_IDS = {"string": "size_string", "bytes": "size_bytes", "list": "size_list", "map": "size_map"}


def _global(fn: str, args: list[Type]) -> tuple[list[str], Type]:
    n = len(args)
    a0 = args[0] if args else DYN
    if fn == "cel.@mapInsert" and n in (2, 3):  # transformMap's and transformMapEntry's step
        if n == 3:
            return ["@mapInsert_map_key_value"], map_of(args[1], args[2])
        return ["@mapInsert_map_map"], args[1] if args[1].kind == "map" else a0
    if fn == "size" and n == 1:
        if is_dyn(a0):
            return list(_SIZE_IDS.values()), INT
        if a0.kind in _SIZE_IDS:
            return [_SIZE_IDS[a0.kind]], INT
        raise CheckError(f"size() of {a0.kind}")
    conversions = {
        "int": INT, "uint": UINT, "double": DOUBLE, "string": STRING, "bytes": BYTES,
        "bool": BOOL, "duration": DURATION, "timestamp": TIMESTAMP, "dyn": DYN, "type": TYPE,
    }  # fmt: skip
    if fn in conversions and n == 1:
        if fn == "string" and a0.kind == "bytes":
            return ["bytes_to_string"], STRING
        if fn == "bytes" and a0.kind == "string":
            return ["string_to_bytes"], BYTES
        if fn == "dyn":
            return ["to_dyn"], DYN
        if is_dyn(a0):
            # every overload of the conversion may apply; the estimate covers them all
            # (`string(x)` with x an int-or-string includes bytes_to_string, sized)
            froms = _CONVERSIONS_FROM.get(fn, ())
            ids = [
                "bytes_to_string" if (k, fn) == ("bytes", "string")
                else "string_to_bytes" if (k, fn) == ("string", "bytes")
                else f"{k}_to_{fn}"
                for k in froms
            ]  # fmt: skip
            return ids or [f"dyn_to_{fn}"], conversions[fn]
        return [f"{a0.kind}_to_{fn}"], conversions[fn]
    if fn == "matches" and n == 2:
        return ["matches"], BOOL
    simple: dict[str, Type] = {
        "isURL": BOOL, "url": URL, "isQuantity": BOOL, "quantity": QUANTITY,
        "isIP": BOOL, "ip": IP, "isCIDR": BOOL, "cidr": CIDR, "isSemver": BOOL,
        "semver": SEMVER, "optional.none": optional_of(DYN), "strings.quote": STRING,
        "sets.contains": BOOL, "sets.equivalent": BOOL, "sets.intersects": BOOL,
        "format.named": optional_of(FORMAT), "math.greatest": DYN, "math.least": DYN,
        "lists.range": list_of(INT),
        "ip.isCanonical": BOOL,
    }  # fmt: skip
    if fn in ("optional.of", "optional.ofNonZeroValue") and n == 1:
        return [fn.replace(".", "_").lower()], optional_of(a0)
    if fn in simple:
        if fn == "strings.quote":
            return ["strings_quote"], STRING
        if fn == "ip" and a0.kind == "cidr":
            return ["cidr_ip"], IP
        return [fn.replace(".", "_")], simple[fn]
    if fn.startswith("format.") and n == 0:
        return [fn.replace(".", "_")], FORMAT
    raise CheckError(f"undeclared function {fn}()")


# cel-go ext/lists.go: the element types `sort()` has an overload (and an estimate) for
_SORTABLE = frozenset({"int", "uint", "double", "bool", "duration", "timestamp", "string", "bytes"})


def _ext_list(fn: str, t: Type, args: list[Type]) -> tuple[list[str], Type] | None:
    """The ext.Lists (version 3) member functions of a list."""
    n = len(args)
    if fn == "slice" and n == 2:
        return ["list_slice"], t
    if fn == "flatten" and n <= 1:
        inner = _elem(t)
        flat = list_of(_elem(inner)) if inner.kind == "list" and n == 0 else list_of(DYN)
        return ["list_flatten" if n == 0 else "list_flatten_int"], flat
    if fn in ("distinct", "reverse") and n == 0:
        return [f"list_{fn}"], t
    if fn == "sort" and n == 0:
        kind = _elem(t).kind
        return ([f"list_{kind}_sort"] if kind in _SORTABLE else ["list_sort"]), t
    if fn == "@sortByAssociatedKeys" and n == 1:  # sortBy's expansion
        kind = _elem(args[0]).kind
        return [f"list_{kind}_sortByAssociatedKeys" if kind in _SORTABLE else "list_sortBy"], t
    return None


def _member(fn: str, t: Type, args: list[Type]) -> tuple[list[str], Type]:
    n = len(args)
    k = t.kind
    dyn = is_dyn(t)
    if k == "list":
        found = _ext_list(fn, t, args)
        if found is not None:
            return found
    if fn == "size" and n == 0:
        if dyn:
            return [f"{x}_size" for x in _SIZE_IDS], INT
        if k in _SIZE_IDS:
            return [f"{k}_size"], INT
    if k == "string" or dyn:
        strings: dict[str, tuple[str, Type]] = {
            "contains": ("contains_string", BOOL),
            "startsWith": ("starts_with_string", BOOL),
            "endsWith": ("ends_with_string", BOOL),
            "matches": ("matches_string", BOOL),
            "charAt": ("string_char_at_int", STRING),
            "indexOf": ("string_index_of_string", INT),
            "lastIndexOf": ("string_last_index_of_string", INT),
            "lowerAscii": ("string_lower_ascii", STRING),
            "upperAscii": ("string_upper_ascii", STRING),
            "replace": ("string_replace_string_string", STRING),
            "split": ("string_split_string", list_of(STRING)),
            "substring": ("string_substring_int", STRING),
            "trim": ("string_trim", STRING),
            "format": ("string_format", STRING),
            "find": ("string_find", STRING),
            "findAll": ("string_find_all", list_of(STRING)),
        }
        if fn in strings and (k == "string" or fn not in ("indexOf", "lastIndexOf")):
            return [strings[fn][0]], strings[fn][1]
    if k == "list" or dyn:
        elem = _elem(t)
        lists: dict[str, Type] = {
            "join": STRING, "isSorted": BOOL, "sum": elem, "min": elem, "max": elem,
            "indexOf": INT, "lastIndexOf": INT,
        }  # fmt: skip
        if fn in lists:
            return [f"list_{fn}"], lists[fn]
    if k == "duration" and fn in _DURATION_GETTERS:
        return [f"duration_to_{fn}"], INT
    if k == "timestamp" and fn in _TIMESTAMP_GETTERS:
        return [f"timestamp_to_{fn}"], INT
    if k == "optional":
        inner = t.params[0] if t.params else DYN
        opt: dict[str, Type] = {"hasValue": BOOL, "value": inner, "orValue": inner, "or": t}
        if fn in opt:
            return [f"optional_{fn}"], opt[fn]
    if k == "opaque" or dyn:
        name = t.name
        results: dict[str, Type] = {
            "isLessThan": BOOL, "isGreaterThan": BOOL, "compareTo": INT, "add": QUANTITY,
            "sub": QUANTITY, "isInteger": BOOL, "asInteger": INT, "asApproximateFloat": DOUBLE,
            "sign": INT, "getScheme": STRING, "getHost": STRING, "getHostname": STRING,
            "getPort": STRING, "getEscapedPath": STRING, "getQuery": map_of(STRING, list_of(STRING)),
            "family": INT, "isUnspecified": BOOL, "isLoopback": BOOL,
            "isLinkLocalMulticast": BOOL, "isLinkLocalUnicast": BOOL, "isGlobalUnicast": BOOL,
            "containsIP": BOOL, "containsCIDR": BOOL, "ip": IP, "masked": CIDR,
            "prefixLength": INT, "major": INT, "minor": INT, "patch": INT,
            "validate": optional_of(list_of(STRING)),
        }  # fmt: skip
        if fn in results:
            oid = f"{name}_{fn}"
            if name == "cidr" and fn == "ip":
                oid = "cidr_ip"
            if fn in ("containsIP", "containsCIDR") and args and args[0].kind == "string":
                oid = f"cidr_contains_{'ip' if fn == 'containsIP' else 'cidr'}_string"
            return [oid], results[fn]
    if fn == "isCanonical" or fn == "ip.isCanonical":
        return ["ip_is_canonical"], BOOL
    raise CheckError(f"undeclared function {k}.{fn}()")
