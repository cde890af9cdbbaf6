"""Go constant expressions, evaluated as go/types does, from their source text.

A constant's value is an expression over literals, `iota`, other constants (of the same
package or, qualified, of an imported one), conversions `T(x)` and Go's operators
(go spec "Constant expressions"). Untyped integer constants are exact (Python ints);
division of integers truncates toward zero; `^x` of an unsigned typed constant is
masked to its size, of an untyped one is `-x - 1`. A typed operand gives its type to
an untyped one. Anything else (function calls, imaginary numbers, unknown names)
makes the expression unknown: `evaluate` returns None, never raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from markergen.golang.literals import unquote
from markergen.golang.syntax import FLOAT_TYPES, INT_TYPES

Value = str | bool | int | float

# Unsigned sizes for `^x`.
UNSIGNED_BITS = {"uint": 64, "uint8": 8, "byte": 8, "uint16": 16, "uint32": 32,
                 "uint64": 64, "uintptr": 64}  # fmt: skip
BASIC = INT_TYPES | FLOAT_TYPES | {"string", "bool"}


@dataclass(frozen=True, slots=True)
class Const:
    """A constant value; `type` is a type key (`<import path>.<Name>`) or a predeclared
    type name for typed constants, "" for untyped ones. `basic` is the predeclared
    type underneath a typed constant ("" when untyped or not known)."""

    value: Value
    type: str = ""
    basic: str = ""


class Scope(Protocol):
    """What an expression's names mean, in the file the expression is written in."""

    def constant(self, qualifier: str, name: str) -> Const | None:
        """The constant `name` (of the package the file imports as `qualifier`, or of
        the file's own package when `qualifier` is "")."""
        ...

    def type_name(self, qualifier: str, name: str) -> tuple[str, str] | None:
        """(type key, predeclared type underneath) of a named type, None when `name` is
        not a type this scope knows."""
        ...


_TOKEN = re.compile(
    r"""\s*(?:
      (?P<float>(?:0[xX][0-9a-fA-F_]*\.?[0-9a-fA-F_]*[pP][+-]?[0-9_]+)
               |(?:\d[\d_]*\.[\d_]*(?:[eE][+-]?[\d_]+)?|\.\d[\d_]*(?:[eE][+-]?[\d_]+)?
               |\d[\d_]*[eE][+-]?[\d_]+))
     |(?P<int>0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|\d[\d_]*)
     |(?P<imag>i\b)
     |(?P<string>"(?:[^"\\\n]|\\.)*"|`[^`]*`)
     |(?P<rune>'(?:[^'\\\n]|\\[^']+)')
     |(?P<ident>[A-Za-z_][A-Za-z_0-9]*)
     |(?P<op><<|>>|&\^|&&|\|\||==|!=|<=|>=|[-+*/%&|^<>!().,])
    )""",
    re.VERBOSE,
)

# Binary precedence (go spec "Operator precedence").
_PRECEDENCE = {
    "||": 1, "&&": 2,
    "==": 3, "!=": 3, "<": 3, "<=": 3, ">": 3, ">=": 3,
    "+": 4, "-": 4, "|": 4, "^": 4,
    "*": 5, "/": 5, "%": 5, "<<": 5, ">>": 5, "&": 5, "&^": 5,
}  # fmt: skip


class _Unknown(Exception):
    """The expression has no value markergen can compute."""


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise _Unknown(text[pos:])
        kind = m.lastgroup
        assert kind is not None
        if kind == "imag":
            raise _Unknown("imaginary")
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


def _int_literal(text: str) -> int:
    text = text.replace("_", "")
    if len(text) > 1 and text[0] == "0" and text[1].isdigit():
        return int(text, 8)  # Go's legacy octal `0644`
    return int(text, 0)


def _float_literal(text: str) -> float:
    text = text.replace("_", "")
    if text[:2].lower() == "0x":
        return float.fromhex(text)
    return float(text)


def _rune(text: str) -> int:
    body = text[1:-1]
    if body == '"':
        return ord('"')
    decoded = unquote('"' + body.replace('"', '\\"') + '"') if body != "\\'" else "'"
    if len(decoded) != 1:
        raise _Unknown(text)
    return ord(decoded)


class _Parser:
    def __init__(self, text: str, scope: Scope, iota: int | None) -> None:
        self.toks = _tokens(text)
        self.i = 0
        self.scope = scope
        self.iota = iota

    def peek(self) -> tuple[str, str] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, op: str) -> bool:
        tok = self.peek()
        if tok is not None and tok[0] == "op" and tok[1] == op:
            self.i += 1
            return True
        return False

    def expect(self, op: str) -> None:
        if not self.take(op):
            raise _Unknown(op)

    def parse(self) -> Const:
        value = self.binary(1)
        if self.i != len(self.toks):
            raise _Unknown("trailing tokens")
        return value

    def binary(self, level: int) -> Const:
        left = self.unary()
        while True:
            tok = self.peek()
            if tok is None or tok[0] != "op" or _PRECEDENCE.get(tok[1], 0) < level:
                return left
            self.i += 1
            right = self.binary(_PRECEDENCE[tok[1]] + 1)
            left = _apply(tok[1], left, right)

    def unary(self) -> Const:
        for op in ("+", "-", "!", "^"):
            if self.take(op):
                return _unary(op, self.unary())
        return self.primary()

    def primary(self) -> Const:
        tok = self.peek()
        if tok is None:
            raise _Unknown("end")
        self.i += 1
        kind, text = tok
        if kind == "int":
            return Const(_int_literal(text))
        if kind == "float":
            return Const(_float_literal(text))
        if kind == "rune":
            return Const(_rune(text))
        if kind == "string":
            return Const(unquote(text))
        if kind == "op" and text == "(":
            inner = self.binary(1)
            self.expect(")")
            return inner
        if kind != "ident":
            raise _Unknown(text)
        qualifier, name = "", text
        if self.take("."):
            nxt = self.peek()
            if nxt is None or nxt[0] != "ident":
                raise _Unknown(".")
            self.i += 1
            qualifier, name = text, nxt[1]
        if self.take("("):
            args = [self.binary(1)]
            while self.take(","):
                if self.take(")"):
                    break  # a trailing comma
                args.append(self.binary(1))
            else:
                self.expect(")")
            if not qualifier and name in _BUILTINS:
                return _builtin(name, args)
            if len(args) != 1:
                raise _Unknown(name)
            return self._convert(qualifier, name, args[0])
        if not qualifier:
            if name == "iota" and self.iota is not None:
                return Const(self.iota)
            if name in ("true", "false"):
                return Const(name == "true")
        found = self.scope.constant(qualifier, name)
        if found is None:
            raise _Unknown(name)
        return found

    def _convert(self, qualifier: str, name: str, operand: Const) -> Const:
        if not qualifier and name in BASIC:
            key, basic = name, name
        else:
            named = self.scope.type_name(qualifier, name)
            if named is None:
                raise _Unknown(name)  # a function call, or a type nobody can see
            key, basic = named
        return Const(_coerce(operand.value, basic), key, basic)


_BUILTINS = frozenset({"len", "min", "max"})


def _builtin(name: str, args: list[Const]) -> Const:
    if name == "len":
        if len(args) != 1 or not isinstance(args[0].value, str):
            raise _Unknown("len")
        return Const(len(args[0].value.encode()))  # bytes, as Go counts a string
    result = args[0]
    for arg in args[1:]:
        type_, basic = _typed(result, arg)
        a, b = result.value, arg.value
        if isinstance(a, str) != isinstance(b, str) or isinstance(a, bool) or isinstance(b, bool):
            raise _Unknown(name)
        smaller = b < a  # type: ignore[operator]
        pick = arg if (smaller if name == "min" else not smaller and b != a) else result
        result = Const(pick.value, type_, basic)
    return result


def _coerce(value: Value, basic: str) -> Value:
    """`value` as a constant of the predeclared type `basic` ("" when unknown: kept)."""
    if basic in INT_TYPES:
        if isinstance(value, float):
            if not value.is_integer():
                raise _Unknown("truncated")
            return int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise _Unknown("not an integer")
        return value
    if basic in FLOAT_TYPES:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _Unknown("not a number")
        return float(value)
    if basic == "string":
        if isinstance(value, str):
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            return chr(value) if 0 <= value <= 0x10FFFF else "\ufffd"  # string(rune)
        raise _Unknown("not a string")
    if basic == "bool" and not isinstance(value, bool):
        raise _Unknown("not a bool")
    return value


def _typed(left: Const, right: Const) -> tuple[str, str]:
    if left.type and right.type and left.type != right.type:
        raise _Unknown("mismatched types")
    if left.type:
        return left.type, left.basic
    return right.type, right.basic


def _number(value: Value) -> int | float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Unknown("not a number")
    return value


def _int(value: Value) -> int:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Unknown("not an integer")
    return value


def _apply(op: str, left: Const, right: Const) -> Const:
    if op in ("&&", "||"):
        if not isinstance(left.value, bool) or not isinstance(right.value, bool):
            raise _Unknown(op)
        truth = left.value and right.value if op == "&&" else left.value or right.value
        return Const(truth, *_typed(left, right))
    if op in ("==", "!=", "<", "<=", ">", ">="):
        a, b = left.value, right.value
        if isinstance(a, str) != isinstance(b, str) or isinstance(a, bool) != isinstance(b, bool):
            raise _Unknown(op)
        compared = {
            "==": a == b, "!=": a != b,
            "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b,  # type: ignore[operator]
        }[op]  # fmt: skip
        return Const(compared)  # comparisons are untyped booleans
    if op in ("<<", ">>"):
        # The shifted operand keeps its own type; the count is any integer.
        count = _int(right.value)
        if count < 0 or count > 4096:
            raise _Unknown("shift count")
        base = _int(left.value)
        return Const(base << count if op == "<<" else base >> count, left.type, left.basic)
    type_, basic = _typed(left, right)
    if op == "+" and isinstance(left.value, str) and isinstance(right.value, str):
        return Const(left.value + right.value, type_, basic)
    a, b = _number(left.value), _number(right.value)
    integer = isinstance(a, int) and isinstance(b, int) and basic not in FLOAT_TYPES
    if op in ("%", "&", "|", "^", "&^") and not integer:
        raise _Unknown(op)
    result: int | float
    if op == "+":
        result = a + b
    elif op == "-":
        result = a - b
    elif op == "*":
        result = a * b
    elif op == "/":
        if b == 0:
            raise _Unknown("division by zero")
        if integer:
            ia, ib = int(a), int(b)
            q = abs(ia) // abs(ib)
            result = q if (ia < 0) == (ib < 0) else -q
        else:
            result = a / b
    elif op == "%":
        ia, ib = int(a), int(b)
        if ib == 0:
            raise _Unknown("division by zero")
        q = abs(ia) // abs(ib)
        result = ia - ib * (q if (ia < 0) == (ib < 0) else -q)
    elif op == "&":
        result = int(a) & int(b)
    elif op == "|":
        result = int(a) | int(b)
    elif op == "^":
        result = int(a) ^ int(b)
    else:  # &^
        result = int(a) & ~int(b)
    if basic in FLOAT_TYPES:
        result = float(result)
    return Const(result, type_, basic)


def _unary(op: str, operand: Const) -> Const:
    value = operand.value
    if op == "!":
        if not isinstance(value, bool):
            raise _Unknown("!")
        return Const(not value, operand.type, operand.basic)
    if op == "^":
        v = _int(value)
        bits = UNSIGNED_BITS.get(operand.basic)
        return Const(~v & ((1 << bits) - 1) if bits else ~v, operand.type, operand.basic)
    number = _number(value)
    return Const(-number if op == "-" else number, operand.type, operand.basic)


def evaluate(text: str, scope: Scope, iota: int | None = None) -> Const | None:
    """The constant `text` denotes, None when it cannot be computed."""
    try:
        return _Parser(text, scope, iota).parse()
    except (_Unknown, ValueError, OverflowError, RecursionError):
        return None


def declared(value: Const, type_key: str, basic: str) -> Const | None:
    """A constant declared with an explicit type: `const A T = expr` (go spec: the
    value is converted to the type; an untyped constant must be representable)."""
    try:
        return Const(_coerce(value.value, basic), type_key, basic)
    except _Unknown:
        return None
