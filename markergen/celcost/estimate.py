"""cel-go's static cost estimate (checker/cost.go) with the Kubernetes estimators plugged in.

A line-by-line port of `coster` from cel-go v0.29 checker/cost.go, configured as the API
server configures it (k8s.io/apiserver pkg/cel/environment/base.go):
`PresenceTestHasCost(false)` (a `has()` adds nothing beyond its operand), the
`library.CostEstimator` of k8s.io/apiserver pkg/cel/library/cost.go for Kubernetes'
and the extension libraries' functions, and apiextensions-apiserver's `sizeEstimator`
(pkg/apiserver/schema/cel/compilation.go), which sizes a value reached from `self` by
the `MaxElements` of its schema node (see markergen.celcost.decl).

Costs and sizes are [min, max] ranges of unsigned 64-bit integers that saturate at
2^64 - 1 instead of overflowing, as in Go. The API server keeps the max.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from markergen.celcost.check import SCALARS, Checked, Type
from markergen.celcost.decl import Decl
from markergen.celcost.syntax import (
    ACCUMULATOR,
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

MAX_U64 = 2**64 - 1
_TWO_64 = float(2**64)
SELECT_AND_IDENT_COST = 1  # cel-go common/cost.go
CONST_COST = 0
LIST_CREATE_BASE_COST = 10
MAP_CREATE_BASE_COST = 30
STRING_TRAVERSAL_COST_FACTOR = 0.1
REGEX_STRING_LENGTH_COST_FACTOR = 0.25
MAX_FORMAT_SIZE = 64  # k8s.io/apiserver pkg/cel/limits.go
MAX_NAME_FORMAT_REGEX_SIZE = 128


def _add(x: int, y: int) -> int:
    return MAX_U64 if x + y > MAX_U64 else x + y


def _mul(x: int, y: int) -> int:
    return MAX_U64 if x * y > MAX_U64 else x * y


def _factor(x: int, y: float) -> int:
    xf = float(x)
    if xf > 0 and y > 0 and xf > float(MAX_U64) / y:
        return MAX_U64
    c = math.ceil(xf * y)
    return MAX_U64 if c >= _TWO_64 else int(c)


@dataclass(frozen=True, slots=True)
class Range:
    """cel-go's SizeEstimate and CostEstimate (the same arithmetic)."""

    min: int
    max: int

    def add(self, o: Range) -> Range:
        return Range(_add(self.min, o.min), _add(self.max, o.max))

    def mul(self, o: Range) -> Range:
        return Range(_mul(self.min, o.min), _mul(self.max, o.max))

    def factor(self, f: float) -> Range:
        return Range(_factor(self.min, f), _factor(self.max, f))

    def union(self, o: Range) -> Range:
        return Range(min(self.min, o.min), max(self.max, o.max))


def fixed(n: int) -> Range:
    return Range(n, n)


UNKNOWN = Range(0, MAX_U64)
ZERO = Range(0, 0)


@dataclass(frozen=True, slots=True)
class Entry:
    """entrySizeEstimate: the container kind and the sizes of its keys and values."""

    container: str  # list or map
    key: Range
    val: Range

    def union(self, o: Entry | None) -> Entry | None:
        if o is None:
            return None
        return Entry(self.container, self.key.union(o.key), self.val.union(o.val))


def _entry_union(a: Entry | None, b: Entry | None) -> Entry | None:
    return None if a is None else a.union(b)


@dataclass(frozen=True, slots=True)
class Node:
    """checker.AstNode: the path from a variable, the type, the expression, its size."""

    path: tuple[str, ...] | None
    type: Type
    expr: Expr | None
    computed: Range | None


class GoPath:
    """A field path as cel-go's coster keeps it: a Go `[]string` slice. Appending to one
    whose backing array has room writes into that array, which other paths may share
    (an iteration variable's path and every field selected through it), so a later
    selection can change the path an earlier one recorded. The API server sizes a
    comprehension's range after its body, with whatever its path then reads: in
    `self.l.all(o, o.tags.all(t, o.name != t))` the range `o.tags` reads as
    `o.name` by then. The estimate follows it, as the server refuses by it."""

    __slots__ = ("_array", "_len")

    def __init__(self, array: list[str], length: int) -> None:
        self._array = array
        self._len = length

    @classmethod
    def of(cls, name: str) -> GoPath:
        return cls([name], 1)  # []string{name}: capacity 1

    def append(self, name: str) -> GoPath:
        if self._len < len(self._array):
            self._array[self._len] = name  # room in the shared array: written in place
            return GoPath(self._array, self._len + 1)
        # growslice: a new array of twice the capacity (1 for an empty one); a []string of
        # up to 256 elements has no other size class on the way
        cap = len(self._array)
        grown = max(1, 2 * cap) if cap < 256 else cap + (cap + 3 * 256) // 4
        array = [*self._array[: self._len], name]
        array.extend([""] * (grown - len(array)))
        return GoPath(array, self._len + 1)

    def read(self) -> tuple[str, ...]:
        return tuple(self._array[: self._len])


def _append(path: GoPath | None, name: str) -> GoPath:
    return GoPath.of(name) if path is None else path.append(name)


@dataclass
class _Local:
    path: GoPath | None
    size: Range | None
    entry: Entry | None


class SizeEstimator:
    """apiextensions compilation.go `sizeEstimator`: a path from the rule's variable
    through fields, `@items`, `@values` and `@keys` to a schema node gives [0, MaxElements]."""

    def __init__(self, root: Decl) -> None:
        self.root = root

    def estimate_size(self, node: Node) -> Range | None:
        if not node.path:
            return None
        cur = self.root
        for name in node.path[1:]:
            if name in ("@items", "@values"):
                if cur.elem is None:
                    return None
                cur = cur.elem
            elif name == "@keys":
                if cur.key is None:
                    return None
                cur = cur.key
            else:
                f = cur.fields.get(name)
                if f is None:
                    return None
                cur = f
        return Range(0, cur.max_elements)


@dataclass
class Coster:
    checked: Checked
    sizes: SizeEstimator
    presence_test_cost: Range = ZERO  # PresenceTestHasCost(false)
    paths: dict[int, GoPath] = field(default_factory=dict)
    locals_: dict[str, list[_Local]] = field(default_factory=dict)
    computed_sizes: dict[int, Range] = field(default_factory=dict)
    computed_entries: dict[int, Entry] = field(default_factory=dict)

    # -- helpers ---------------------------------------------------------------------
    def node(self, e: Expr) -> Expr:
        return self.checked.rewritten.get(e.id, e)

    def type_of(self, e: Expr) -> Type:
        t = self.checked.types.get(e.id)
        assert t is not None, f"unchecked node {e!r}"
        return t

    def peek(self, name: str) -> _Local | None:
        stack = self.locals_.get(name)
        return stack[-1] if stack else None

    def push(self, name: str, local: _Local) -> None:
        self.locals_.setdefault(name, []).append(local)

    def pop(self, name: str) -> None:
        self.locals_[name].pop()

    def get_path(self, e: Expr) -> GoPath | None:
        e = self.node(e)
        if isinstance(e, Ident):
            v = self.peek(e.name)
            if v is not None:
                return v.path
        return self.paths.get(e.id)

    def new_node(self, e: Expr) -> Node:
        found = self.get_path(e)
        path = found.read() if found is not None else None
        if path and path[0] in (ACCUMULATOR, "@result"):
            path = None  # only provide paths to root variables
        return Node(path, self.type_of(e), e, self.compute_size(e))

    def set_size(self, e: Expr, size: Range | None) -> None:
        if size is not None:
            self.computed_sizes[e.id] = size

    def size_or_unknown(self, x: Expr | Node) -> Range:
        if isinstance(x, Node):
            return x.computed if x.computed is not None else UNKNOWN
        s = self.compute_size(x)
        return s if s is not None else UNKNOWN

    def compute_size(self, e: Expr) -> Range | None:
        if e.id in self.computed_sizes:
            return self.computed_sizes[e.id]
        e = self.node(e)
        s = _expr_size(e)
        if s is not None:
            return s
        found = self.get_path(e)
        n = Node(found.read() if found is not None else None, self.type_of(e), e, None)
        s = self.sizes.estimate_size(n)
        if s is not None:
            self.computed_sizes[e.id] = s
            return s
        s = _type_size(self.type_of(e))
        if s is not None:
            return s
        if isinstance(e, Ident):
            v = self.peek(e.name)
            if v is not None and v.size is not None:
                return v.size
        return None

    def set_entry(self, e: Expr, entry: Entry | None) -> None:
        if entry is not None:
            self.computed_entries[e.id] = entry

    def compute_entry(self, e: Expr) -> Entry | None:
        if e.id in self.computed_entries:
            return self.computed_entries[e.id]
        e = self.node(e)
        if isinstance(e, Ident):
            v = self.peek(e.name)
            if v is not None and v.entry is not None:
                return v.entry
        return None

    def copy_sizes(self, dst: Expr, src: Expr) -> None:
        self.set_size(dst, self.compute_size(src))
        self.set_entry(dst, self.compute_entry(src))

    # -- cost ------------------------------------------------------------------------
    def cost(self, e: Expr) -> Range:
        e = self.node(e)
        if isinstance(e, Literal):
            return fixed(CONST_COST)
        if isinstance(e, Ident):
            v = self.peek(e.name)
            self.paths[e.id] = v.path if v is not None and v.path is not None else GoPath.of(e.name)
            if v is not None and v.path is None:
                self.paths.pop(e.id, None)
            return fixed(SELECT_AND_IDENT_COST)
        if isinstance(e, Select):
            return self.cost_select(e)
        if isinstance(e, Call):
            return self.cost_call(e)
        if isinstance(e, ListExpr):
            return self.cost_list(e)
        if isinstance(e, MapExpr):
            return self.cost_map(e)
        if e.macro == "bind":
            return self.cost_bind(e)
        return self.cost_comprehension(e)

    def cost_select(self, e: Select) -> Range:
        if e.test_only:
            return self.presence_test_cost.add(self.cost(e.operand))
        s = self.cost(e.operand)
        if self.type_of(e.operand).kind in ("map", "object"):
            s = s.add(fixed(SELECT_AND_IDENT_COST))
        self.paths[e.id] = _append(self.get_path(e.operand), e.field)
        return s

    def cost_call(self, e: Call) -> Range:
        if e.function == "dyn" and e.target is None and len(e.args) == 1:
            arg_cost = self.cost(e.args[0])
            self.copy_sizes(e, e.args[0])
            return fixed(1).add(arg_cost)
        arg_costs: list[Range] = []
        arg_nodes: list[Node] = []
        for a in e.args:
            arg_costs.append(self.cost(a))
            arg_nodes.append(self.new_node(a))
        ids = self.checked.overloads.get(e.id, [])
        if not ids:
            return ZERO
        total = ZERO
        target: Node | None = None
        if e.target is not None:
            total = total.add(self.cost(e.target))
            target = self.new_node(e.target)
        fn_cost = Range(MAX_U64, 0)
        result: Range | None = None
        for oid in ids:
            est_cost, est_size = self.function_cost(e, oid, target, arg_nodes, arg_costs)
            fn_cost = fn_cost.union(est_cost)
            if est_size is not None:
                result = est_size if result is None else result.union(est_size)
            if oid in ("index_list", "index_map") and e.args:
                ent = self.compute_entry(e.args[0])
                result = ent.val if ent is not None else None
                sub = "@items" if oid == "index_list" else "@values"
                self.paths[e.id] = _append(self.get_path(e.args[0]), sub)
            if result is None:
                result = self.compute_size(e)
        self.set_size(e, result)
        return total.add(fn_cost)

    def cost_list(self, e: ListExpr) -> Range:
        s = ZERO
        item = Range(MAX_U64, 0)
        if not e.elements:
            item = Range(0, 0)
        for x in e.elements:
            s = s.add(self.cost(x))
            item = item.union(self.size_or_unknown(x))
        self.set_entry(e, Entry("list", fixed(1), item))
        return s.add(fixed(LIST_CREATE_BASE_COST))

    def cost_map(self, e: MapExpr) -> Range:
        s = ZERO
        key = Range(MAX_U64, 0)
        val = Range(MAX_U64, 0)
        if not e.entries:
            key = val = Range(0, 0)
        for k, v in e.entries:
            s = s.add(self.cost(k)).add(self.cost(v))
            key = key.union(self.size_or_unknown(k))
            val = val.union(self.size_or_unknown(v))
        self.set_entry(e, Entry("map", key, val))
        return s.add(fixed(MAP_CREATE_BASE_COST))

    def _local_var(self, name: str, e: Expr) -> None:
        self.push(name, _Local(self.get_path(e), self.compute_size(e), self.compute_entry(e)))

    def _iter_single(self, name: str, rng: Expr) -> None:
        ent = self.compute_entry(rng)
        size = ent.key if ent is not None else None
        container = ent.container if ent is not None else self.type_of(rng).kind
        sub = "@keys"
        if container == "list":
            size = ent.val if ent is not None else None
            sub = "@items"
        self.push(name, _Local(_append(self.get_path(rng), sub), size, None))

    def _iter_pair(self, key: str, value: str, rng: Expr) -> None:
        """pushIterKey and pushIterValue: the index (`@indices`) or key, and the item."""
        ent = self.compute_entry(rng)
        container = ent.container if ent is not None else self.type_of(rng).kind
        path = self.get_path(rng)
        is_list = container == "list"
        key_path = _append(path, "@indices" if is_list else "@keys")
        self.push(key, _Local(key_path, ent.key if ent is not None else None, None))
        value_path = _append(self.get_path(rng), "@items" if is_list else "@values")
        self.push(value, _Local(value_path, ent.val if ent is not None else None, None))

    def cost_comprehension(self, e: Comprehension) -> Range:
        s = self.cost(e.iter_range).add(self.cost(e.accu_init))
        self._local_var(e.accu_var, e.accu_init)
        if e.iter_var2:
            self._iter_pair(e.iter_var, e.iter_var2, e.iter_range)
        else:
            self._iter_single(e.iter_var, e.iter_range)
        loop = self.cost(e.loop_condition)
        step = self.cost(e.loop_step)
        self.pop(e.iter_var)
        if e.iter_var2:
            self.pop(e.iter_var2)
        s = s.add(self.cost(e.result))
        self.pop(e.accu_var)
        count = self.size_or_unknown(e.iter_range)
        s = s.add(count.mul(step.add(loop)))
        if isinstance(e.accu_init, Literal):
            self.set_size(e, self.compute_size(e.accu_init))
        elif isinstance(e.accu_init, (ListExpr, MapExpr)):
            self.set_size(e, count)
            step_entry = self.compute_entry(e.loop_step)
            if step_entry is not None:
                self.set_entry(e, step_entry)
        return s

    def cost_bind(self, e: Comprehension) -> Range:
        s = self.cost(e.iter_range).add(self.cost(e.accu_init))
        self._local_var(e.accu_var, e.accu_init)
        s = s.add(self.cost(e.result))
        self.pop(e.accu_var)
        self.copy_sizes(e, e.result)
        return s

    # -- function costs ------------------------------------------------------------
    def function_cost(
        self, e: Call, oid: str, target: Node | None, args: list[Node], arg_costs: list[Range]
    ) -> tuple[Range, Range | None]:
        arg_sum = ZERO
        for c in arg_costs:
            arg_sum = arg_sum.add(c)
        fn = self.node(e)
        assert isinstance(fn, Call)
        sets = _SETS_COST_FACTOR.get(oid)
        if sets is not None and len(args) == 2:
            # cel-go ext/sets.go registers its own estimator for these overloads, and
            # the checker asks it before the Kubernetes one: m x n comparisons, plus 1
            pairs = self.k8s_size(args[0]).mul(self.k8s_size(args[1])).factor(sets)
            return pairs.add(fixed(1)).add(arg_sum), None
        listed = self._ext_lists_cost(oid, target, args)
        if listed is not None:
            return listed[0].add(arg_sum), listed[1]
        k8s = self.k8s_call_cost(fn.function, oid, target, args)
        if k8s is not None:
            return k8s[0].add(arg_sum), k8s[1]
        size = self.size_or_unknown
        if oid == "string_format" and target is not None:
            return size(target).factor(STRING_TRAVERSAL_COST_FACTOR).add(arg_sum), None
        if oid == "string_to_bytes" and len(args) == 1:
            sz = size(args[0])
            return sz.factor(STRING_TRAVERSAL_COST_FACTOR).add(arg_sum), Range(
                sz.min, _mul(sz.max, 4)
            )
        if oid == "bytes_to_string" and len(args) == 1:
            sz = size(args[0])
            return sz.factor(STRING_TRAVERSAL_COST_FACTOR).add(arg_sum), Range(sz.min // 4, sz.max)
        if oid == "strings_quote" and len(args) == 1:
            sz = size(args[0])
            return sz.factor(STRING_TRAVERSAL_COST_FACTOR).add(arg_sum), Range(
                _add(sz.min, 2), _add(_mul(sz.max, 2), 2)
            )
        if oid in ("starts_with_string", "ends_with_string") and len(args) == 1:
            return size(args[0]).factor(STRING_TRAVERSAL_COST_FACTOR).add(arg_sum), None
        if oid == "in_list" and len(args) == 2:
            return size(args[1]).factor(1).add(arg_sum), None
        if oid == "matches_string" and target is not None and len(args) == 1:
            str_cost = size(target).add(fixed(1)).factor(STRING_TRAVERSAL_COST_FACTOR)
            regex_cost = size(args[0]).factor(REGEX_STRING_LENGTH_COST_FACTOR)
            return str_cost.mul(regex_cost).add(arg_sum), None
        if oid == "contains_string" and target is not None and len(args) == 1:
            str_cost = size(target).factor(STRING_TRAVERSAL_COST_FACTOR)
            sub_cost = size(args[0]).factor(STRING_TRAVERSAL_COST_FACTOR)
            return str_cost.mul(sub_cost).add(arg_sum), None
        if oid in ("logical_or", "logical_and"):
            lhs, rhs = arg_costs[0], arg_costs[1]
            return Range(lhs.min, lhs.add(rhs).max), None
        if oid == "conditional":
            sz = size(args[1]).union(size(args[2]))
            ent = _entry_union(self._entry_of(args[1]), self._entry_of(args[2]))
            self.set_entry(e, ent)
            return arg_costs[0].add(arg_costs[1].union(arg_costs[2])), sz
        if oid in ("add_string", "add_bytes", "add_list") and len(args) == 2:
            result = size(args[0]).add(size(args[1]))
            ent = _entry_union(self._entry_of(args[0]), self._entry_of(args[1]))
            if ent is not None:
                self.set_entry(e, ent)
            if oid == "add_list":
                return fixed(1).add(arg_sum), result
            return result.factor(STRING_TRAVERSAL_COST_FACTOR).add(arg_sum), result
        if oid in _SIZED_COMPARISONS:
            lhs, rhs = size(args[0]), size(args[1])
            smallest = min(lhs.max, rhs.max)
            lo = 1 if smallest > 0 else 0
            return Range(lo, smallest).factor(STRING_TRAVERSAL_COST_FACTOR).add(arg_sum), None
        return fixed(1).add(arg_sum), None

    def _ext_lists_cost(
        self, oid: str, target: Node | None, args: list[Node]
    ) -> tuple[Range, Range] | None:
        """cel-go ext/lists.go's estimators (ext.Lists version 3, which the checker asks
        before the Kubernetes one): 1 + 10 for the new list + its size x a factor."""
        size = self.k8s_size
        if oid == "list_slice" and target is not None and len(args) == 2:
            sz = size(target)
            start, end = _uint_literal(args[0], 0), _uint_literal(args[1], sz.max)
            return _allocating(1.0, fixed((end - start) % (MAX_U64 + 1)))
        if oid == "lists_range" and target is None and len(args) == 1:
            return _allocating(1.0, fixed(_uint_literal(args[0], MAX_U64)))
        if oid == "list_reverse" and target is not None and not args:
            return _allocating(1.0, size(target))
        if oid in ("list_flatten", "list_flatten_int") and target is not None and len(args) <= 1:
            depth = _uint_literal(args[0], MAX_U64) if args else 1
            return _allocating(float(depth), size(target))
        if oid == "list_distinct" and target is not None and not args:
            sz = size(target)
            return _allocating(2.0, sz.mul(sz))
        if oid.endswith("_sortByAssociatedKeys") and target is not None and len(args) == 1:
            sz = size(args[0])  # the keys' list
            per = 2.0 + (
                STRING_TRAVERSAL_COST_FACTOR if "_string_" in oid or "_bytes_" in oid else 0.0
            )
            return _allocating(per, sz.mul(sz))
        if oid.endswith("_sort") and oid != "list_sort" and target is not None and not args:
            sz = size(target)
            per = 2.0 + (STRING_TRAVERSAL_COST_FACTOR if oid in _TEXT_SORTS else 0.0)
            return _allocating(per, sz.mul(sz))
        return None

    def _entry_of(self, n: Node) -> Entry | None:
        return self.compute_entry(n.expr) if n.expr is not None else None

    # -- k8s.io/apiserver pkg/cel/library/cost.go EstimateCallCost ------------------
    def k8s_size(self, n: Node) -> Range:
        if n.computed is not None:
            return n.computed
        s = self.sizes.estimate_size(n)
        return s if s is not None else UNKNOWN

    def list_element(self, n: Node) -> Node | None:
        if n.type.kind == "list" and n.type.params:
            lt = n.type.params[0]
            path = (*n.path, "@items") if n.path is not None else None
            return Node(path, lt, None, None)
        if n.type.kind == "map" and n.type.params:
            return Node(
                (*n.path, "@items") if n.path is not None else None, n.type.params[0], None, None
            )
        return None

    def k8s_call_cost(
        self, function: str, oid: str, target: Node | None, args: list[Node]
    ) -> tuple[Range, Range | None] | None:
        f = STRING_TRAVERSAL_COST_FACTOR
        size = self.k8s_size
        if function == "check":
            return fixed(350000), None
        if function in _NOMINAL:
            return fixed(1), None
        if function in ("isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes"):
            if target is not None:
                el_cost = fixed(1)
                el = self.list_element(target)
                if el is not None:
                    if el.type.kind in ("string", "bytes"):
                        el_cost = el_cost.add(size(el).factor(f))
                    return size(target).mul(el_cost), None
                if function == "includes":
                    return size(target).mul(el_cost), None
                return size(target).factor(f), None
        elif function in ("url", "jsonpatch.escapeKey"):
            if len(args) == 1:
                sz = size(args[0])
                return sz.factor(f), sz
        elif function in ("lowerAscii", "upperAscii", "substring", "trim"):
            if target is not None:
                sz = size(target)
                return sz.factor(f), sz
        elif function == "replace":
            if target is not None and len(args) >= 2:
                return self._replace(size(target), size(args[0]), size(args[1]))
        elif function == "split":
            if target is not None:
                sz = size(target)
                mx = sz.max
                if len(args) > 1:
                    a = args[1].expr
                    if (
                        isinstance(a, Literal)
                        and isinstance(a.value, int)
                        and not isinstance(a.value, bool)
                    ):
                        mx = a.value % 2**64
                return sz.factor(2 * f), Range(0, mx)
        elif function == "join":
            if target is not None:
                sz = ZERO
                list_size = size(target)
                el = self.list_element(target)
                if el is not None:
                    sz = list_size.mul(size(el))
                if args:
                    sep = size(args[0])
                    lo = list_size.min - 1 if list_size.min > 0 else 0
                    hi = list_size.max - 1 if list_size.max > 0 else 0
                    sz = sz.add(sep.mul(Range(lo, hi)))
                return sz.factor(f), sz
        elif function in ("find", "findAll"):
            if target is not None and args:
                sz = size(target)
                str_cost = sz.add(fixed(1)).factor(f)
                regex_cost = size(args[0]).factor(REGEX_STRING_LENGTH_COST_FACTOR)
                return str_cost.mul(regex_cost), Range(0, sz.max)
        elif function in ("cidr", "isIP", "isCIDR"):
            if args:
                return size(args[0]).factor(f), None
        elif function == "ip":
            if oid == "cidr_ip":
                return fixed(1), None
            if args:
                return size(args[0]).factor(f), None
        elif function == "ip.isCanonical":
            if args:
                return size(args[0]).factor(2 * f), None
        elif function in ("containsIP", "containsCIDR"):
            if args:
                sz = Range(4, 16)
                cost = sz.add(sz).factor(f)
                if function == "containsCIDR":
                    cost = cost.add(sz.factor(f)).add(fixed(1))
                if oid in ("cidr_contains_ip_string", "cidr_contains_cidr_string"):
                    cost = cost.add(size(args[0]).factor(f))
                return cost, None
        elif function in ("quantity", "isQuantity", "semver", "isSemver"):
            if args:
                return size(args[0]).factor(f), None
        elif function == "validate":
            if args:
                return size(args[0]).factor(f).factor(
                    MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR
                ), None
        elif function == "_==_" and len(args) == 2:
            lt, rt = args[0].type, args[1].type
            if lt == rt and lt.kind == "opaque":
                if lt.name in ("ip", "cidr", "quantity", "semver"):
                    return fixed(1), None
                if lt.name == "format":
                    return Range(1, MAX_FORMAT_SIZE).factor(f), None
                if lt.name == "url":
                    sz = fixed(1)
                    r = args[1].computed
                    if r is not None:
                        sz = r.union(r)  # cel: lhSize is read from rhs too
                    return Range(1, sz.max).factor(f), None
        return None

    @staticmethod
    def _replace(sz: Range, to_replace: Range, with_: Range) -> tuple[Range, Range | None]:
        # the longest result: the shortest matches replaced by the longest replacement;
        # the shortest: the longest matches by the shortest
        cnt_max, ret_max = _replaced(sz.max, to_replace.min, with_.max <= to_replace.min)
        cnt_min, ret_min = _replaced(sz.min, to_replace.max, to_replace.max <= with_.min)
        result = Range(cnt_min, cnt_max).mul(with_).add(Range(ret_min, ret_max))
        return sz.factor(2 * STRING_TRAVERSAL_COST_FACTOR), result


def _replaced(size: int, match: int, no_longer: bool) -> tuple[int, int]:
    """One end of `replace`'s result (library/cost.go): (how many replacements, the
    length kept of the original). An empty match surrounds every character; a result
    no longer (or no shorter) than the original keeps its length."""
    if match == 0:
        return (size + 1 if size < MAX_U64 else size), size
    if no_longer:
        return 0, size
    # the count saturates in the multiplication that follows (Range.mul)
    return min(math.ceil(float(size) / float(match)), MAX_U64), 0


_NOMINAL = frozenset(
    {
        "serviceAccount", "path", "group", "resource", "subresource", "namespace", "name",
        "allowed", "reason", "error", "errored", "masked", "prefixLength", "family",
        "isUnspecified", "isLoopback", "isLinkLocalMulticast", "isLinkLocalUnicast",
        "isGlobalUnicast", "format.named", "sign", "asInteger", "isInteger",
        "asApproximateFloat", "isGreaterThan", "isLessThan", "compareTo", "add", "sub",
        "major", "minor", "patch", "getScheme", "getHostname", "getHost", "getPort",
        "getEscapedPath", "getQuery",
    }
)  # fmt: skip
_TEXT_SORTS = frozenset({"list_string_sort", "list_bytes_sort"})


def _allocating(factor: float, size: Range) -> tuple[Range, Range]:
    """estimateAllocatingListCall: the call (1) and a new list (10) besides the work."""
    return size.factor(factor).add(fixed(1)).add(fixed(LIST_CREATE_BASE_COST)), size


def _uint_literal(n: Node, default: int) -> int:
    """nodeAsUintValue: an int literal argument's value (0 when negative), else `default`."""
    e = n.expr
    if isinstance(e, Literal) and type(e.value) is int:
        return max(e.value, 0)
    return default


# cel-go ext/sets.go estimateSetsCost: equivalence may compare every pair twice
_SETS_COST_FACTOR = {"sets_contains": 1.0, "sets_intersects": 1.0, "sets_equivalent": 2.0}

_SIZED_COMPARISONS = frozenset(
    {
        "less_string", "greater_string", "less_equals_string", "greater_equals_string",
        "less_bytes", "greater_bytes", "less_equals_bytes", "greater_equals_bytes",
        "equals", "not_equals",
    }
)  # fmt: skip


def _expr_size(e: Expr) -> Range | None:
    if isinstance(e, Literal):
        v = e.value
        if isinstance(v, str):
            return fixed(len(v))
        if isinstance(v, bytes):
            return fixed(len(v))
        if v is None or isinstance(v, (bool, int, float, Uint)):
            return fixed(1)
        return None
    if isinstance(e, ListExpr):
        return fixed(len(e.elements))
    if isinstance(e, MapExpr):
        return fixed(len(e.entries))
    return None


def _type_size(t: Type) -> Range | None:
    if t.kind in SCALARS:
        return fixed(1)
    if t.kind == "optional" and t.params and t.params[0].kind in SCALARS:
        return fixed(1)
    return None
