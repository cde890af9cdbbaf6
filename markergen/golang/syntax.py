"""Syntax records: what the tree-sitter front end reads out of Go files.

These records say what the source text says and nothing more: no marker parsing,
no type resolution, no union logic. `markergen.model.builder` turns them into the model.
All positions are 1-based (line and column; the column counts characters, not bytes).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Literal, Protocol

# Go's predeclared numeric types by their constant kind (the constant evaluator's and
# the model's JSON types of enums and discriminators read the same table).
INT_TYPES = frozenset(
    {"int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32",
     "uint64", "uintptr", "byte", "rune"}
)  # fmt: skip
FLOAT_TYPES = frozenset({"float32", "float64"})


@dataclass(frozen=True, order=True, slots=True)
class Position:
    """A place in a source file. `file` is the path as given to the reader (posix form)."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True, slots=True)
class CommentLine:
    """One `//` comment line (or one line of a `/* */` block).

    `text` is everything after the `//` (leading white space kept), with any trailing
    carriage return removed. `pos` is where the text after `//` starts, so a marker's
    column is `pos.column + (index of '+' in text)`.
    """

    text: str
    pos: Position


@dataclass(frozen=True, slots=True)
class BlockCommentLine(CommentLine):
    """One line of a `/* */` comment: controller-gen reads markers only from `//` lines
    (controller-tools' isMarkerComment), so its markers there are not its."""


# Building a frozen dataclass runs object.__setattr__ once per field; storing through
# the slots directly does the same for about half the cost. A doc-heavy API tree has
# tens of thousands of comment lines, each a CommentLine and a Position, so the reader
# builds them with these (equal records, same class; nothing else differs), and its
# fields with `field_decl`. Type expressions and constants are fewer (a tree shares one
# record among equal type expressions): they are built as any dataclass.
_new = object.__new__
_set_file = Position.__dict__["file"].__set__
_set_line = Position.__dict__["line"].__set__
_set_column = Position.__dict__["column"].__set__
_set_text = CommentLine.__dict__["text"].__set__
_set_pos = CommentLine.__dict__["pos"].__set__


def position(file: str, line: int, column: int) -> Position:
    """`Position(file, line, column)`, built through its slots."""
    pos = _new(Position)
    _set_file(pos, file)
    _set_line(pos, line)
    _set_column(pos, column)
    return pos


def comment_line(text: str, file: str, line: int, column: int) -> CommentLine:
    """`CommentLine(text, Position(file, line, column))`, built through the slots."""
    pos = _new(Position)
    _set_file(pos, file)
    _set_line(pos, line)
    _set_column(pos, column)
    record = _new(CommentLine)
    _set_text(record, text)
    _set_pos(record, pos)
    return record


class LineSource(Protocol):
    """What a deferred `CommentGroup` makes its lines from (markergen.golang.comments)."""

    def __call__(self) -> tuple[CommentLine, ...]: ...

    def texts(self) -> tuple[str, ...]:
        """Every line's `text`, without making the line records."""
        ...

    def line(self, index: int) -> CommentLine:
        """The record of line `index` alone (equal to `self()[index]`)."""
        ...


class CommentGroup:
    """Consecutive comment lines with no blank line between them.

    Immutable, equal, hashed and shown as a frozen dataclass with the one field `lines`
    would be. A group the front end reads from source makes its line records on first
    use (`deferred_group`): most trailing comments, method docs and license headers are
    never read, and their records were a large part of reading a file. `texts` gives the lines'
    texts without the records, and `line(i)` one record: the readers of docs (markers,
    descriptions, ignore comments) look at every line's text but need a position only
    for the few lines they report or keep."""

    __slots__ = ("_lines", "_make", "_texts")
    __match_args__ = ("lines",)
    _lines: tuple[CommentLine, ...] | None
    _make: LineSource | None
    _texts: tuple[str, ...] | None

    def __init__(self, lines: tuple[CommentLine, ...]) -> None:
        object.__setattr__(self, "_lines", lines)
        object.__setattr__(self, "_make", None)
        object.__setattr__(self, "_texts", None)

    @property
    def lines(self) -> tuple[CommentLine, ...]:
        lines: tuple[CommentLine, ...] | None = self._lines
        if lines is None:
            assert self._make is not None
            lines = self._make()
            _set_group_lines(self, lines)
            _set_group_make(self, None)
        return lines

    @property
    def texts(self) -> tuple[str, ...]:
        """`tuple(line.text for line in self.lines)`, made without the line records
        when they were not made yet."""
        texts = self._texts
        if texts is None:
            make = self._make
            if make is not None:
                texts = make.texts()
            else:
                lines = self._lines
                assert lines is not None
                texts = tuple([line.text for line in lines])
            _set_group_texts(self, texts)
        return texts

    def line(self, index: int) -> CommentLine:
        """`self.lines[index]`, made alone when the lines were not made yet (an equal
        record either way)."""
        make = self._make
        if make is not None:
            return make.line(index)
        return self.lines[index]

    @property
    def pos(self) -> Position:
        return self.line(0).pos

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, CommentGroup)
        return self.lines == other.lines

    def __hash__(self) -> int:
        return hash((self.lines,))

    def __repr__(self) -> str:
        return f"CommentGroup(lines={self.lines!r})"


# CommentGroup's slots, stored through their descriptors as for Position above
# (object.__setattr__ costs three times as much; the class forbids setting attributes).
_set_group_lines = CommentGroup.__dict__["_lines"].__set__
_set_group_make = CommentGroup.__dict__["_make"].__set__
_set_group_texts = CommentGroup.__dict__["_texts"].__set__


def deferred_group(make: LineSource) -> CommentGroup:
    """A `CommentGroup` whose lines `make()` gives when they are first read. The front
    end makes one for most comment groups of a tree."""
    group = _new(CommentGroup)
    _set_group_lines(group, None)
    _set_group_make(group, make)
    _set_group_texts(group, None)
    return group


TypeKind = Literal[
    "ident",  # a name in the same package, or a predeclared type (string, int32, ...)
    "qualified",  # pkg.Name
    "pointer",  # *elem
    "slice",  # []elem
    "array",  # [N]elem
    "map",  # map[key]elem
    "struct",  # struct { fields }
    "interface",
    "func",
    "chan",
    "generic",  # Name[T] / pkg.Name[T]: `name`/`package` as for ident/qualified
    "other",  # anything else; see `text`
]


@dataclass(frozen=True, slots=True)
class TypeExpr:
    """A Go type expression as written."""

    kind: TypeKind
    text: str
    name: str = ""  # ident / qualified / generic: the type name
    package: str = ""  # qualified: the import name used in the source (`metav1`)
    elem: TypeExpr | None = None  # pointer, slice, array, map (value), chan
    key: TypeExpr | None = None  # map key
    length: str = ""  # array length as written
    fields: tuple[FieldDecl, ...] = ()  # inline struct


@dataclass(frozen=True, slots=True)
class JSONTag:
    """The `json:"..."` struct tag, read as encoding/json reads it."""

    present: bool = False
    name: str = ""  # "" when the tag has no name (`json:",inline"`)
    omitempty: bool = False
    inline: bool = False
    skip: bool = False  # json:"-"
    string: bool = False
    options: tuple[str, ...] = ()  # every option after the name, as written

    @property
    def omitzero(self) -> bool:
        """Go 1.24's `omitzero`: the zero value (a zero struct too) is not written."""
        return "omitzero" in self.options

    @property
    def omits_zero(self) -> bool:
        """Whether some zero value is left out of the JSON (omitempty or omitzero)."""
        return self.omitempty or "omitzero" in self.options


@dataclass(frozen=True, slots=True)
class FieldDecl:
    """One struct field. `A, B int` becomes two records sharing doc, type and tag."""

    name: str  # Go name; for an embedded field the type's name (`Union`, `Time` for *metav1.Time)
    type: TypeExpr
    embedded: bool
    tag_raw: str  # the tag literal's content without quotes/backticks, "" if none
    tags: tuple[tuple[str, str], ...]  # every key:"value" pair of the tag, in order
    json: JSONTag
    doc: CommentGroup | None  # comment group directly above the field
    trailing: CommentGroup | None  # comment on the same line after the field
    pos: Position  # position of the field name (of the type for embedded fields)
    # The group one blank line above the doc (or the field): controller-gen reads its
    # markers too (controller-tools markers/collect.go, "closest non-godoc" block).
    doc_extra: CommentGroup | None = None

    def tag(self, key: str) -> str | None:
        for k, v in self.tags:
            if k == key:
                return v
        return None


_FIELD_DECL = {f.name: FieldDecl.__dict__[f.name].__set__ for f in fields(FieldDecl)}
_set_fd_name = _FIELD_DECL["name"]
_set_fd_type = _FIELD_DECL["type"]
_set_fd_embedded = _FIELD_DECL["embedded"]
_set_fd_tag_raw = _FIELD_DECL["tag_raw"]
_set_fd_tags = _FIELD_DECL["tags"]
_set_fd_json = _FIELD_DECL["json"]
_set_fd_doc = _FIELD_DECL["doc"]
_set_fd_trailing = _FIELD_DECL["trailing"]
_set_fd_pos = _FIELD_DECL["pos"]
_set_fd_doc_extra = _FIELD_DECL["doc_extra"]


def field_decl(
    name: str,
    type: TypeExpr,
    embedded: bool,
    tag_raw: str,
    tags: tuple[tuple[str, str], ...],
    json: JSONTag,
    doc: CommentGroup | None,
    trailing: CommentGroup | None,
    pos: Position,
    doc_extra: CommentGroup | None = None,
) -> FieldDecl:
    """`FieldDecl(...)`, built through its slots (see `comment_line`); one a field of
    the tree, so the setters are module globals rather than looked up by name."""
    rec = _new(FieldDecl)
    _set_fd_name(rec, name)
    _set_fd_type(rec, type)
    _set_fd_embedded(rec, embedded)
    _set_fd_tag_raw(rec, tag_raw)
    _set_fd_tags(rec, tags)
    _set_fd_json(rec, json)
    _set_fd_doc(rec, doc)
    _set_fd_trailing(rec, trailing)
    _set_fd_pos(rec, pos)
    _set_fd_doc_extra(rec, doc_extra)
    return rec


@dataclass(frozen=True, slots=True)
class TypeDecl:
    """`type Name T` or `type Name = T` (alias)."""

    name: str
    type: TypeExpr
    alias: bool
    doc: CommentGroup | None  # the comment group directly above (or above the `type (` group)
    doc_extra: CommentGroup | None  # the group one blank line above `doc` (gengo reads both)
    pos: Position  # position of the type name
    type_params: str = ""  # `[T any]` as written, "" if none


@dataclass(frozen=True, slots=True)
class ConstSpec:
    """One constant name of a const declaration, after Go's implicit repetition.

    In `const ( A T = "a"; B )`, B repeats A's type and value expression; `implicit`
    is then True and `type`/`value_text` are A's. `iota` is the spec's index in its
    block. `value` is the decoded string when the expression is a string literal
    (interpreted or raw), else None.
    """

    name: str
    type: TypeExpr | None
    value_text: str
    value: str | None
    iota: int
    implicit: bool
    doc: CommentGroup | None
    trailing: CommentGroup | None
    pos: Position
    block_pos: Position  # position of the `const` keyword, to group a block's specs


@dataclass(frozen=True, slots=True)
class MarkedDecl:
    """A variable or function whose doc comment has a marker line (`// +...`).

    No marker takes effect there; these are kept only so that union and enum markers
    written there by mistake can be reported (MG005). Declarations without a marker
    line in their doc are not recorded, so the cost is one scan of their doc."""

    kind: str  # "var" or "func" (functions and methods)
    name: str  # `Name`, or `Recv.Name` for a method
    doc: CommentGroup


@dataclass(frozen=True, slots=True)
class SyntaxError_:
    """A region tree-sitter could not parse (an ERROR or MISSING node)."""

    pos: Position
    end: Position
    message: str


@dataclass(frozen=True, slots=True)
class ImportSpec:
    name: str  # the name the file uses: alias, or last path element
    path: str
    explicit_alias: bool


@dataclass(frozen=True, slots=True)
class GoFile:
    path: str  # as given, posix form
    package: str  # package clause name, "" if none could be read
    package_doc: CommentGroup | None
    imports: tuple[ImportSpec, ...]
    types: tuple[TypeDecl, ...]
    consts: tuple[ConstSpec, ...]
    errors: tuple[SyntaxError_, ...]
    build_constraint: str = ""  # the `//go:build` expression, "" if none
    generated: bool = False  # has the standard `// Code generated ... DO NOT EDIT.` header
    # Receiver type names of MarshalJSON/UnmarshalJSON/MarshalText/UnmarshalText methods:
    # their JSON is whatever those methods make it, not the Go type's shape.
    marshalers: tuple[str, ...] = ()
    # Variables and functions with a marker line in their doc comment (for MG005).
    marked: tuple[MarkedDecl, ...] = ()
    # Every comment block above the package clause, in order (license, tags in a block of
    # their own, then `package_doc` if there is one): package tags are read from all.
    package_comments: tuple[CommentGroup, ...] = ()

    def import_path(self, name: str) -> str | None:
        for imp in self.imports:
            if imp.name == name:
                return imp.path
        return None


@dataclass(frozen=True, slots=True)
class FileProblem:
    """A file that could not be read or decoded (MG002)."""

    path: str
    message: str
    line: int = 1
    column: int = 1


@dataclass(frozen=True, slots=True)
class GoPackage:
    """The Go files of one directory."""

    dir: str  # posix path as given/derived from the pattern
    import_path: str  # module path + relative dir, or the dir when there is no go.mod
    module_root: str | None  # directory holding go.mod, None without one
    files: tuple[GoFile, ...]
    go_version: str = ""  # the module's go.mod `go` directive ("1.22"), "" without one
    problems: tuple[FileProblem, ...] = ()
    skipped: tuple[str, ...] = field(default=())  # generated / ignored files, for --debug

    @property
    def name(self) -> str:
        for f in self.files:
            if f.package:
                return f.package
        return self.import_path.rsplit("/", 1)[-1]
