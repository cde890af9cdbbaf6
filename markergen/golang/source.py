"""Source bytes of one Go file: decoding rules and byte-to-character positions."""

from __future__ import annotations

from dataclasses import dataclass, field

from markergen.golang.syntax import Position, position

_BOM = b"\xef\xbb\xbf"


class DecodeError(ValueError):
    """The file is not UTF-8. The caller turns this into an MG002 FileProblem."""

    def __init__(self, path: str, line: int, column: int, message: str) -> None:
        super().__init__(f"{path}:{line}:{column}: {message}")
        self.path = path
        self.line = line
        self.column = column
        self.message = message


def prepare(path: str, data: bytes) -> bytes:
    """The bytes handed to tree-sitter: BOM stripped, CRLF as LF, checked to be UTF-8.

    CRLF becomes LF before parsing so that a file checked out with Windows line endings
    gives exactly the records of its LF twin: Go itself drops carriage returns from raw
    strings, and a `\\r` only ever sits at the end of a line, so no column moves.
    """
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        column = len(data[line_start : exc.start].decode("utf-8", "replace")) + 1
        raise DecodeError(
            path, line, column, f"file is not valid UTF-8 (byte 0x{data[exc.start]:02x})"
        ) from None
    # One byte is looked for with memchr; the two-byte pattern would take a slower search
    # through every byte of every file, generated ones included (20 times slower).
    if b"\r" in data and b"\r\n" in data:
        data = data.replace(b"\r\n", b"\n")
    return data


@dataclass(frozen=True)
class Source:
    """The prepared bytes of one file and its path as given."""

    path: str
    data: bytes
    # Most Go files are pure ASCII: then a byte column is a character column and no
    # line prefix needs decoding (checked once per file, not once per position).
    ascii: bool = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "ascii", self.data.isascii())

    def text(self, start: int, end: int) -> str:
        return self.data[start:end].decode("utf-8")

    def position(self, offset: int, row: int, byte_column: int) -> Position:
        """Position of the byte at `offset`, which tree-sitter says is at (row, byte_column).

        Columns count characters: the line's prefix is decoded only when it is not ASCII,
        which keeps the common case free.
        """
        if self.ascii:
            return position(self.path, row + 1, byte_column + 1)
        prefix = self.data[offset - byte_column : offset]
        column = byte_column if prefix.isascii() else len(prefix.decode("utf-8", "replace"))
        return position(self.path, row + 1, column + 1)
