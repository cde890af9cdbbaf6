"""A CEL parser producing the AST cel-go's parser produces, macros expanded.

The cost estimate walks cel-go's *checked* AST, whose shape matters: `has(a.b)` is a
test-only selection, `l.all(x, p)` a comprehension with cel-go's accumulator, loop
condition and step (parser/macro.go), `a && b && c` a balanced tree of binary calls
(parser/helper.go `balancedTree`), `!!x` just `x`, `-1` a literal. Everything here
follows those rules so that the estimator can follow checker/cost.go line by line.

Not supported (the estimate then says it cannot estimate, with the reason): message
construction (`Msg{f: v}`), two-variable comprehensions, the optional-value macros
`optMap`/`optFlatMap`, identifier escapes with backticks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

ACCUMULATOR = "__result__"  # cel-go parser.AccumulatorName
_REL = {"<": "_<_", "<=": "_<=_", ">": "_>_", ">=": "_>=_", "==": "_==_", "!=": "_!=_"}


class CelSyntaxError(Exception):
    """The rule is not CEL this parser reads (the caller reports "cannot estimate")."""


@dataclass(eq=False, slots=True)
class Literal:
    value: object  # int, float, bool, str, bytes, None; uint as Uint
    id: int = 0


@dataclass(frozen=True, slots=True)
class Uint:
    value: int


@dataclass(eq=False, slots=True)
class Ident:
    name: str
    id: int = 0


@dataclass(eq=False, slots=True)
class Select:
    operand: Expr
    field: str
    test_only: bool = False
    id: int = 0


@dataclass(eq=False, slots=True)
class Call:
    function: str
    args: list[Expr]
    target: Expr | None = None
    id: int = 0


@dataclass(eq=False, slots=True)
class ListExpr:
    elements: list[Expr]
    id: int = 0


@dataclass(eq=False, slots=True)
class MapExpr:
    entries: list[tuple[Expr, Expr]]
    id: int = 0


@dataclass(eq=False, slots=True)
class Comprehension:
    iter_range: Expr
    iter_var: str
    accu_var: str
    accu_init: Expr
    loop_condition: Expr
    loop_step: Expr
    result: Expr
    id: int = 0
    macro: str = ""
    iter_var2: str = ""  # the value's variable of a two-variable comprehension, or ""


Expr = Literal | Ident | Select | Call | ListExpr | MapExpr | Comprehension

_TOKEN = re.compile(
    r"""
    (?P<ws>\s+|//[^\n]*)
  | (?P<num>0[xX][0-9a-fA-F]+[uU]?|(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?[uU]?)
  | (?P<str>(?:[rR][bB]?|[bB][rR]?)?(?:\"\"\"|'''|"|'))
  | (?P<id>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>\|\||&&|==|!=|<=|>=|\.\?|\[\?|[-+*/%!<>?:.,()\[\]{}])
    """,
    re.VERBOSE,
)
_SIMPLE_ESCAPES = {
    "a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
    "\\": "\\", "'": "'", '"': '"', "`": "`", "?": "?",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str  # num, str, id, op, end
    text: str
    value: object = None


def _string(src: str, i: int, prefix: str, quote: str) -> tuple[object, int]:
    raw = "r" in prefix.lower()
    is_bytes = "b" in prefix.lower()
    out: list[str] = []
    n = len(src)
    while True:
        if i >= n:
            raise CelSyntaxError("unterminated string literal")
        if src.startswith(quote, i):
            i += len(quote)
            break
        ch = src[i]
        if len(quote) == 1 and ch in "\r\n":
            raise CelSyntaxError("newline in a string literal")
        if ch == "\\" and not raw:
            i += 1
            if i >= n:
                raise CelSyntaxError("unterminated escape")
            e = src[i]
            if e in _SIMPLE_ESCAPES:
                out.append(_SIMPLE_ESCAPES[e])
                i += 1
            elif e in "xX":
                out.append(chr(int(src[i + 1 : i + 3], 16)))
                i += 3
            elif e == "u":
                out.append(chr(int(src[i + 1 : i + 5], 16)))
                i += 5
            elif e == "U":
                out.append(chr(int(src[i + 1 : i + 9], 16)))
                i += 9
            elif e in "01234567":
                out.append(chr(int(src[i : i + 3], 8)))
                i += 3
            else:
                raise CelSyntaxError(f"unknown escape \\{e}")
            continue
        out.append(ch)
        i += 1
    text = "".join(out)
    if is_bytes:
        return text.encode("utf-8") if raw else text.encode("latin-1", "surrogatepass"), i
    return text, i


def tokenize(src: str) -> list[_Tok]:
    toks: list[_Tok] = []
    i = 0
    while i < len(src):
        m = _TOKEN.match(src, i)
        if m is None:
            raise CelSyntaxError(f"unexpected character {src[i]!r} at {i}")
        kind = m.lastgroup or ""
        text = m.group(0)
        if kind == "ws":
            i = m.end()
            continue
        if kind == "str":
            prefix = text.rstrip("'\"")
            quote = text[len(prefix) :]
            value, i = _string(src, m.end(), prefix, quote)
            toks.append(_Tok("str", text, value))
            continue
        if kind == "num":
            toks.append(_Tok("num", text, _number(text)))
        else:
            toks.append(_Tok(kind, text))
        i = m.end()
    toks.append(_Tok("end", ""))
    return toks


def _number(text: str) -> object:
    if text[-1] in "uU":
        return Uint(int(text[:-1], 0))
    if text.lower().startswith("0x"):
        return int(text, 16)
    if any(c in text for c in ".eE"):
        return float(text)
    return int(text)


@dataclass
class _Parser:
    toks: list[_Tok]
    pos: int = 0
    next_id: int = 1
    macros: bool = True
    _depth: int = field(default=0)

    def peek(self, k: int = 0) -> _Tok:
        return self.toks[min(self.pos + k, len(self.toks) - 1)]

    def take(self) -> _Tok:
        t = self.toks[self.pos]
        self.pos += 1
        return t

    def accept(self, text: str) -> bool:
        t = self.peek()
        if t.kind in ("op", "id") and t.text == text:
            self.pos += 1
            return True
        return False

    def expect(self, text: str) -> None:
        if not self.accept(text):
            raise CelSyntaxError(f"expected {text!r}, found {self.peek().text!r}")

    def nid(self) -> int:
        i = self.next_id
        self.next_id += 1
        return i

    def call(self, fn: str, *args: Expr, target: Expr | None = None) -> Call:
        return Call(fn, list(args), target, self.nid())

    # expr: conditionalOr ('?' conditionalOr ':' expr)?
    def expr(self) -> Expr:
        self._depth += 1
        if self._depth > 250:
            raise CelSyntaxError("expression nested too deeply")
        cond = self.logic("||", "_||_", self.and_)
        if self.accept("?"):
            then = self.logic("||", "_||_", self.and_)
            self.expect(":")
            other = self.expr()
            cond = self.call("_?_:_", cond, then, other)
        self._depth -= 1
        return cond

    def and_(self) -> Expr:
        return self.logic("&&", "_&&_", self.relation)

    def logic(self, op: str, fn: str, sub: object) -> Expr:
        assert callable(sub)
        terms: list[Expr] = [sub()]
        ids: list[int] = []
        while self.accept(op):
            ids.append(self.nid())
            terms.append(sub())
        if len(terms) == 1:
            return terms[0]
        return self._balanced(fn, terms, ids, 0, len(ids) - 1)

    def _balanced(self, fn: str, terms: list[Expr], ids: list[int], lo: int, hi: int) -> Expr:
        mid = (lo + hi + 1) // 2
        left = terms[mid] if mid == lo else self._balanced(fn, terms, ids, lo, mid - 1)
        right = terms[mid + 1] if mid == hi else self._balanced(fn, terms, ids, mid + 1, hi)
        return Call(fn, [left, right], None, ids[mid])

    def relation(self) -> Expr:
        left = self.calc()
        while True:
            t = self.peek()
            if t.kind == "op" and t.text in _REL:
                self.take()
                left = self.call(_REL[t.text], left, self.calc())
            elif t.kind == "id" and t.text == "in":
                self.take()
                left = self.call("@in", left, self.calc())
            else:
                return left

    def calc(self) -> Expr:
        left = self.mult()
        while self.peek().kind == "op" and self.peek().text in ("+", "-"):
            op = self.take().text
            left = self.call("_+_" if op == "+" else "_-_", left, self.mult())
        return left

    def mult(self) -> Expr:
        left = self.unary()
        while self.peek().kind == "op" and self.peek().text in ("*", "/", "%"):
            op = self.take().text
            fn = {"*": "_*_", "/": "_/_", "%": "_%_"}[op]
            left = self.call(fn, left, self.unary())
        return left

    def unary(self) -> Expr:
        t = self.peek()
        if t.kind == "op" and t.text == "!":
            n = 0
            while self.accept("!"):
                n += 1
            operand = self.member()
            return self.call("!_", operand) if n % 2 else operand
        if t.kind == "op" and t.text == "-":
            n = 0
            while self.accept("-"):
                n += 1
            nt = self.peek()
            if n % 2 == 1 and nt.kind == "num" and not isinstance(nt.value, Uint):
                # cel-go folds `-1` into a negative literal (visitNegate / visitInt)
                self.take()
                assert isinstance(nt.value, (int, float))
                lit: Expr = Literal(-nt.value, self.nid())
                return self.member_tail(lit)
            operand = self.member()
            return self.call("-_", operand) if n % 2 else operand
        return self.member()

    def member(self) -> Expr:
        return self.member_tail(self.primary())

    def member_tail(self, e: Expr) -> Expr:
        while True:
            if self.accept("."):
                name = self.take()
                if name.kind != "id":
                    raise CelSyntaxError(f"expected a field name, found {name.text!r}")
                if self.accept("("):
                    args = self.args(")")
                    e = self.member_call(e, name.text, args)
                else:
                    e = Select(e, name.text, False, self.nid())
            elif self.accept(".?"):
                name = self.take()
                e = self.call("_?._", e, Literal(name.text, self.nid()))
            elif self.accept("["):
                idx = self.expr()
                self.expect("]")
                e = self.call("_[_]", e, idx)
            elif self.accept("[?"):
                idx = self.expr()
                self.expect("]")
                e = self.call("_[?_]", e, idx)
            elif self.peek().kind == "op" and self.peek().text == "{" and _qualified(e):
                raise CelSyntaxError("message construction is not supported")
            else:
                return e

    def args(self, close: str) -> list[Expr]:
        out: list[Expr] = []
        if self.accept(close):
            return out
        while True:
            out.append(self.expr())
            if self.accept(close):
                return out
            self.expect(",")
            if self.accept(close):  # trailing comma
                return out

    def primary(self) -> Expr:
        t = self.take()
        if t.kind == "num":
            v = t.value
            if isinstance(v, int) and not -(2**63) <= v < 2**63:
                raise CelSyntaxError("integer literal out of range")
            return Literal(v, self.nid())
        if t.kind == "str":
            return Literal(t.value, self.nid())
        if t.kind == "op" and t.text == "(":
            e = self.expr()
            self.expect(")")
            return e
        if t.kind == "op" and t.text == "[":
            return ListExpr(self.args("]"), self.nid())
        if t.kind == "op" and t.text == "{":
            return self.map_literal()
        if t.kind == "op" and t.text == ".":
            t = self.take()  # a leading-dot (root-scoped) name
        if t.kind == "id":
            if t.text == "true":
                return Literal(True, self.nid())
            if t.text == "false":
                return Literal(False, self.nid())
            if t.text == "null":
                return Literal(None, self.nid())
            if self.accept("("):
                args = self.args(")")
                return self.global_call(t.text, args)
            return Ident(t.text, self.nid())
        raise CelSyntaxError(f"unexpected {t.text or 'end of expression'!r}")

    def map_literal(self) -> Expr:
        entries: list[tuple[Expr, Expr]] = []
        if not self.accept("}"):
            while True:
                k = self.expr()
                self.expect(":")
                entries.append((k, self.expr()))
                if self.accept("}"):
                    break
                self.expect(",")
                if self.accept("}"):
                    break
        return MapExpr(entries, self.nid())

    def global_call(self, fn: str, args: list[Expr]) -> Expr:
        if self.macros and fn == "has" and len(args) == 1:
            a = args[0]
            if not isinstance(a, Select) or a.test_only:
                raise CelSyntaxError("invalid argument to has() macro")
            return Select(a.operand, a.field, True, self.nid())
        return Call(fn, args, None, self.nid())

    def member_call(self, target: Expr, fn: str, args: list[Expr]) -> Expr:
        if self.macros:
            m = self.macro(target, fn, args)
            if m is not None:
                return m
        return Call(fn, args, target, self.nid())

    def opt_map(self, fn: str, target: Expr, args: list[Expr]) -> Expr:
        """cel-go cel/library.go optMap / optFlatMap."""
        v = args[0]
        if not isinstance(v, Ident):
            raise CelSyntaxError(f"{fn}() variable name must be a simple identifier")
        inner: Expr = Comprehension(
            ListExpr([], self.nid()),
            "#unused",
            v.name,
            Call("value", [], _copy(self, target), self.nid()),
            Literal(False, self.nid()),
            Ident(v.name, self.nid()),
            args[1],
            self.nid(),
            "bind",
        )
        if fn == "optMap":
            inner = self.call("optional.of", inner)
        has = Call("hasValue", [], target, self.nid())
        return self.call("_?_:_", has, inner, self.call("optional.none"))

    def sort_by(self, target: Expr, args: list[Expr]) -> Expr:
        """cel-go ext/lists.go sortByMacro: the list bound to a variable, sorted by the
        list of its keys (`map` over it)."""
        name = "@__sortBy_input__"
        keys = self.macro(Ident(name, self.nid()), "map", args)
        assert keys is not None
        return Comprehension(
            ListExpr([], self.nid()),
            "#unused",
            name,
            target,
            Literal(False, self.nid()),
            Ident(name, self.nid()),
            Call("@sortByAssociatedKeys", [keys], Ident(name, self.nid()), self.nid()),
            self.nid(),
            "bind",
        )

    def two_var(self, target: Expr, fn: str, args: list[Expr]) -> Expr:
        return _two_var(self, target, fn, args)

    def macro(self, target: Expr, fn: str, args: list[Expr]) -> Expr | None:
        if fn == "bind" and isinstance(target, Ident) and target.name == "cel" and len(args) == 3:
            v = args[0]
            if not isinstance(v, Ident):
                raise CelSyntaxError("cel.bind() variable must be a simple name")
            return Comprehension(
                ListExpr([], self.nid()),
                "#unused",
                v.name,
                args[1],
                Literal(False, self.nid()),
                Ident(v.name, self.nid()),
                args[2],
                self.nid(),
                "cel.bind",  # optMap expands to the same shape ("bind"); this one the user wrote
            )
        if fn in _TWO_VAR and len(args) in _TWO_VAR[fn]:
            return self.two_var(target, fn, args)
        if fn in ("optMap", "optFlatMap") and len(args) == 2:
            return self.opt_map(fn, target, args)
        if fn == "sortBy" and len(args) == 2:
            return self.sort_by(target, args)
        if fn not in ("all", "exists", "exists_one", "map", "filter"):
            return None
        if len(args) not in ((2, 3) if fn == "map" else (2,)):
            return None
        v = args[0]
        if not isinstance(v, Ident):
            raise CelSyntaxError(f"{fn}() iteration variable must be a simple name")
        if v.name == ACCUMULATOR:
            raise CelSyntaxError("iteration variable overwrites accumulator variable")

        def acc() -> Expr:
            return Ident(ACCUMULATOR, self.nid())

        quantified = _quantifier(self, fn, args[1])
        if quantified is not None:
            init, cond, step, result = quantified
        elif fn == "map":
            fn_expr = args[-1]
            init = ListExpr([], self.nid())
            cond = Literal(True, self.nid())
            step = self.call("_+_", acc(), ListExpr([fn_expr], self.nid()))
            if len(args) == 3:
                step = self.call("_?_:_", args[1], step, acc())
            result = acc()
        else:  # filter
            init = ListExpr([], self.nid())
            cond = Literal(True, self.nid())
            step = self.call("_+_", acc(), ListExpr([Ident(v.name, self.nid())], self.nid()))
            step = self.call("_?_:_", args[1], step, acc())
            result = acc()
        return Comprehension(target, v.name, ACCUMULATOR, init, cond, step, result, self.nid(), fn)


# cel-go ext/comprehensions.go (TwoVarComprehensions, in the API server's environment
# since Kubernetes 1.32): the macros whose cost the port estimates, by argument count
_TWO_VAR = {"all": (3,), "exists": (3,), "existsOne": (3,), "exists_one": (3,),
            "transformList": (3, 4), "transformMap": (3, 4),
            "transformMapEntry": (3, 4)}  # fmt: skip


def _quantifier(p: _Parser, fn: str, predicate: Expr) -> tuple[Expr, Expr, Expr, Expr] | None:
    """The accumulator's start, the loop condition, the step and the result of `all`,
    `exists` and `exists_one` over `predicate` (cel-go's quantifierAll, quantifierExists,
    quantifierExistsOne), for one iteration variable or two; None for another macro."""

    def acc() -> Expr:
        return Ident(ACCUMULATOR, p.nid())

    init: Expr
    cond: Expr
    if fn == "all":
        init = Literal(True, p.nid())
        return init, p.call("@not_strictly_false", acc()), p.call("_&&_", acc(), predicate), acc()
    if fn == "exists":
        init = Literal(False, p.nid())
        cond = p.call("@not_strictly_false", p.call("!_", acc()))
        return init, cond, p.call("_||_", acc(), predicate), acc()
    if fn in ("existsOne", "exists_one"):
        init, cond = Literal(0, p.nid()), Literal(True, p.nid())
        step = p.call("_?_:_", predicate, p.call("_+_", acc(), Literal(1, p.nid())), acc())
        return init, cond, step, p.call("_==_", acc(), Literal(1, p.nid()))
    return None


def _two_var(p: _Parser, target: Expr, fn: str, args: list[Expr]) -> Expr:
    """The expansion of a two-variable macro, as cel-go's quantifierAll etc. build it."""
    names = []
    for a in args[:2]:
        if not isinstance(a, Ident):
            raise CelSyntaxError("argument must be a simple name")
        if a.name in (ACCUMULATOR, "@result"):
            raise CelSyntaxError("iteration variable overwrites accumulator variable")
        names.append(a.name)
    if names[0] == names[1]:
        raise CelSyntaxError(f"duplicate variable name: {names[0]}")

    def acc() -> Expr:
        return Ident(ACCUMULATOR, p.nid())

    quantified = _quantifier(p, fn, args[2])
    if quantified is not None:
        init, cond, step, result = quantified
    elif fn == "transformList":
        init = ListExpr([], p.nid())
        cond = Literal(True, p.nid())
        step = p.call("_+_", acc(), ListExpr([args[-1]], p.nid()))
        if len(args) == 4:
            step = p.call("_?_:_", args[2], step, acc())
        result = acc()
    else:  # transformMap, transformMapEntry: cel.@mapInsert into a map
        init = MapExpr([], p.nid())
        cond = Literal(True, p.nid())
        key = [Ident(names[0], p.nid())] if fn == "transformMap" else []
        step = p.call("cel.@mapInsert", acc(), *key, args[-1])
        if len(args) == 4:
            step = p.call("_?_:_", args[2], step, acc())
        result = acc()
    return Comprehension(
        target, names[0], ACCUMULATOR, init, cond, step, result, p.nid(), fn, names[1]
    )


def _copy(p: _Parser, e: Expr) -> Expr:
    """A copy of `e` with fresh ids (cel-go's MacroExprFactory.Copy)."""
    if isinstance(e, Literal):
        return Literal(e.value, p.nid())
    if isinstance(e, Ident):
        return Ident(e.name, p.nid())
    if isinstance(e, Select):
        return Select(_copy(p, e.operand), e.field, e.test_only, p.nid())
    if isinstance(e, Call):
        t = _copy(p, e.target) if e.target is not None else None
        return Call(e.function, [_copy(p, a) for a in e.args], t, p.nid())
    if isinstance(e, ListExpr):
        return ListExpr([_copy(p, x) for x in e.elements], p.nid())
    if isinstance(e, MapExpr):
        return MapExpr([(_copy(p, k), _copy(p, v)) for k, v in e.entries], p.nid())
    return Comprehension(
        _copy(p, e.iter_range), e.iter_var, e.accu_var, _copy(p, e.accu_init),
        _copy(p, e.loop_condition), _copy(p, e.loop_step), _copy(p, e.result), p.nid(), e.macro,
        e.iter_var2,
    )  # fmt: skip


def _qualified(e: Expr) -> bool:
    return isinstance(e, Ident) or (isinstance(e, Select) and _qualified(e.operand))


def parse(src: str) -> Expr:
    """The AST of CEL expression `src`; CelSyntaxError when it cannot be read."""
    try:
        p = _Parser(tokenize(src))
        e = p.expr()
    except (ValueError, IndexError, RecursionError) as exc:
        raise CelSyntaxError(str(exc)) from exc
    if p.peek().kind != "end":
        raise CelSyntaxError(f"unexpected {p.peek().text!r} after the expression")
    return e
