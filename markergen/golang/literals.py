"""Go string literals, decoded as the Go compiler (and strconv.Unquote) decodes them."""

from __future__ import annotations

_SIMPLE_ESCAPES = {
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
}
_HEX = frozenset("0123456789abcdefABCDEF")
_OCT = frozenset("01234567")


class LiteralError(ValueError):
    """A string literal Go would reject; `offset` is the index in the literal (quotes
    included) of the character at fault, so callers can point at it."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


def unquote(literal: str) -> str:
    """Decode a Go string literal written with quotes (`"..."`) or backticks.

    Raises ValueError for anything Go would reject. `\\x` and octal escapes stand for
    single bytes, so the result is assembled as bytes and decoded as UTF-8 at the end;
    byte sequences that are not UTF-8 become U+FFFD (they cannot be a Python str and are
    nonsense as enum values or tags anyway).
    """
    if len(literal) >= 2 and literal[0] == literal[-1] == "`":
        # The Go spec discards carriage returns inside raw string literals.
        return literal[1:-1].replace("\r", "")
    if len(literal) < 2 or literal[0] != '"' or literal[-1] != '"':
        raise LiteralError(f"not a Go string literal: {literal!r}", 0)
    try:
        return _decode_interpreted(literal[1:-1])
    except LiteralError as e:
        raise LiteralError(str(e), e.offset + 1) from None


def _decode_interpreted(body: str) -> str:
    if "\\" not in body:
        if '"' in body or "\n" in body:
            bad = min(i for i in (body.find('"'), body.find("\n")) if i >= 0)
            raise LiteralError("unescaped quote or newline in string literal", bad)
        return body
    out = bytearray()
    i = 0
    n = len(body)
    while i < n:
        c = body[i]
        if c != "\\":
            if c == '"' or c == "\n":
                raise LiteralError("unescaped quote or newline in string literal", i)
            out += c.encode("utf-8", "surrogatepass")
            i += 1
            continue
        if i + 1 >= n:
            raise LiteralError("string literal ends in a backslash", i)
        e = body[i + 1]
        if e in _SIMPLE_ESCAPES:
            out += _SIMPLE_ESCAPES[e].encode()
            i += 2
        elif e == '"':
            out += b'"'
            i += 2
        elif e == "x":
            digits = body[i + 2 : i + 4]
            if len(digits) != 2 or not set(digits) <= _HEX:
                raise LiteralError("invalid \\x escape in string: needs 2 hex digits", i)
            out.append(int(digits, 16))
            i += 4
        elif e in _OCT:
            digits = body[i + 1 : i + 4]
            if len(digits) != 3 or not set(digits) <= _OCT or int(digits, 8) > 255:
                raise LiteralError("invalid octal escape in string: needs 3 digits <= 377", i)
            out.append(int(digits, 8))
            i += 4
        elif e in "uU":
            width = 4 if e == "u" else 8
            digits = body[i + 2 : i + 2 + width]
            if len(digits) != width or not set(digits) <= _HEX:
                raise LiteralError(
                    f"invalid \\{e} escape in string: needs {width} hex digits", i
                )
            code = int(digits, 16)
            if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
                raise LiteralError(f"invalid \\{e} escape: not a Unicode code point", i)
            out += chr(code).encode("utf-8")
            i += 2 + width
        else:
            raise LiteralError(f"unknown escape sequence \\{e} in string", i)
    return out.decode("utf-8", errors="replace")
