"""Syntax records of one Go file as bytes and back, for the per-file syntax cache.

A file whose prepared bytes were read before is not parsed again: its `GoFile` comes
back from the bytes `encode` made then (`load_packages`' `records` store, kept by
`markergen.cache.SyntaxStore`). The text is JSON (orjson), never pickle, so a cache
file cannot run code whoever wrote it; a text that is not what `encode` writes is a
miss (`decode` returns None). Positions are kept without the file's path, which the
reader gives again: a renamed file with the same bytes reads the same records.

Every record equals the parser's (tests/test_syntax_cache.py holds them equal over
real files); comment groups come back deferred, their line records made on first use
as the parser's are.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from markergen.golang.source import Source
from markergen.golang.syntax import (
    BlockCommentLine,
    CommentGroup,
    CommentLine,
    ConstSpec,
    FieldDecl,
    GoFile,
    ImportSpec,
    JSONTag,
    MarkedDecl,
    Position,
    SyntaxError_,
    TypeDecl,
    TypeExpr,
    comment_line,
    deferred_group,
    field_decl,
    position,
)

if TYPE_CHECKING:
    from markergen.golang.comments import Span

# Bumped whenever the layout below changes: a text of another layout is a miss.
FORMAT = 2


class RecordStore(Protocol):
    """Where the records of files read before are kept, by `record_key`
    (markergen.cache.SyntaxStore). Failing to keep one only costs the speed-up."""

    def get(self, key: str) -> bytes | None: ...

    def put(self, key: str, data: bytes) -> None: ...

    def save(self) -> bool:
        """The load is over: keep what was put (False when nothing was kept)."""
        ...


def record_key(data: bytes, struct_fields: bool) -> str:
    """The key of a file's records: its prepared bytes, and whether struct fields were
    read (imported packages' files are read without them)."""
    digest = hashlib.sha256(b"fields\0" if struct_fields else b"nofields\0")
    digest.update(data)
    return digest.hexdigest()


def read_records(
    parse: Callable[[str, bytes, bool], GoFile],
    store: RecordStore | None,
    path: str,
    data: bytes,
    struct_fields: bool = True,
) -> GoFile:
    """`parse(path, data, struct_fields)`, or the records `store` keeps for these bytes;
    a file parsed here is kept there."""
    if store is None:
        return parse(path, data, struct_fields)
    key = record_key(data, struct_fields)
    kept = store.get(key)
    if kept is not None:
        found = decode(kept, path, data)
        if found is not None:
            return found
    gofile = parse(path, data, struct_fields)
    text = encode(gofile, data)
    if text:
        store.put(key, text)
    return gofile


class _Foreign(Exception):
    """A record holds a position in another file: such a file is not cached."""


def encode(gofile: GoFile, source: bytes | None = None) -> bytes:
    """The bytes of `gofile`'s records; b"" when they cannot be kept (then the file is
    parsed every time). A comment group the parser left deferred is kept as where its
    bytes are in the file, and comes back deferred over the same bytes; with `source`
    (the file's prepared bytes), long texts are kept so too."""
    enc = _Encoder(gofile.path, source)
    try:
        body = [
            FORMAT,
            gofile.package,
            enc.group(gofile.package_doc),
            [[i.name, i.path, i.explicit_alias] for i in gofile.imports],
            [enc.type_decl(t) for t in gofile.types],
            [enc.const(c) for c in gofile.consts],
            [[enc.pos(e.pos), enc.pos(e.end), e.message] for e in gofile.errors],
            gofile.build_constraint,
            gofile.generated,
            list(gofile.marshalers),
            [[m.kind, m.name, enc.group(m.doc)] for m in gofile.marked],
            [enc.group(g) for g in gofile.package_comments],
        ]
    except _Foreign:
        return b""
    text = orjson.dumps([enc.source_length, enc.table, body])
    return _checksum(text) + b"\n" + text


def _checksum(text: bytes) -> bytes:
    return hashlib.blake2b(text, digest_size=16).hexdigest().encode("ascii")


def decode(data: bytes, path: str, source: bytes) -> GoFile | None:
    """The records `encode` wrote, with every position in `path`; `source` is the
    file's prepared bytes (what its comment groups are read from). None when `data` is
    not such a text (damaged, another layout, other bytes)."""
    head, _, text = data.partition(b"\n")
    if head != _checksum(text):
        return None  # damaged: what passes was written by `encode`, so is not checked again
    try:
        length, table, body = orjson.loads(text)
        if body[0] != FORMAT or (length >= 0 and length > len(source)):
            return None
        src = Source(path, source[:length] if length >= 0 else source)
        dec = _Decoder(path, src, table, source)
        group = dec.group
        pos = dec.pos
        return GoFile(
            path=path,
            package=body[1],
            package_doc=group(body[2]),
            imports=tuple([ImportSpec(n, p, a) for n, p, a in body[3]]),
            types=tuple([dec.type_decl(t) for t in body[4]]),
            consts=tuple([dec.const(c) for c in body[5]]),
            errors=tuple([SyntaxError_(pos(p), pos(e), m) for p, e, m in body[6]]),
            build_constraint=body[7],
            generated=body[8],
            marshalers=tuple(body[9]),
            marked=tuple([MarkedDecl(k, n, _some(group(d))) for k, n, d in body[10]]),
            package_comments=tuple([_some(group(g)) for g in body[11]]),
        )
    except (orjson.JSONDecodeError, TypeError, ValueError, IndexError, KeyError):
        return None


def _some(group: CommentGroup | None) -> CommentGroup:
    if group is None:
        raise TypeError("expected a comment group")
    return group


class _Encoder:
    def __init__(self, path: str, source: bytes | None) -> None:
        self.source = source
        # (imported here: a run served whole from the run cache imports no tree-sitter,
        # which the comment readers need)
        from markergen.golang.comments import _LineRun, _Lines

        self.line_run, self.lines = _LineRun, _Lines
        self.path = path
        self.source_length = -1  # the length of the bytes the groups are read from
        # Type expressions, each once (the parser shares equal ones), children first.
        self.table: list[list[Any]] = []
        self.index: dict[int, int] = {}
        self.kept: list[TypeExpr] = []  # keeps the ids above unique while encoding

    def pos(self, p: Position) -> list[int]:
        if p.file != self.path:
            raise _Foreign
        return [p.line, p.column]

    def group(self, g: CommentGroup | None) -> list[Any] | None:
        if g is None:
            return None
        make = g._make
        src = getattr(make, "_src", None)
        if (
            isinstance(src, Source)
            and src.path == self.path
            and self.source_length in (-1, len(src.data))
        ):
            if isinstance(make, self.line_run):
                self.source_length = len(src.data)
                return [0, make._row, make._start, make._end]
            if isinstance(make, self.lines):
                self.source_length = len(src.data)
                return [1, make.slashes, [list(span) for span in make._spans]]
        out: list[Any] = [2]
        for line in g.lines:
            p = line.pos
            if p.file != self.path:
                raise _Foreign
            # a `/* */` line is marked by a fourth item
            if isinstance(line, BlockCommentLine):
                out.append([line.text, p.line, p.column, 1])
            else:
                out.append([line.text, p.line, p.column])
        return out

    def type_expr(self, t: TypeExpr | None) -> int:
        if t is None:
            return -1
        found = self.index.get(id(t))
        if found is not None:
            return found
        entry = [
            t.kind,
            self.text(t.text),
            t.name,
            t.package,
            self.type_expr(t.elem),
            self.type_expr(t.key),
            t.length,
            [self.field(f) for f in t.fields],
        ]
        self.table.append(entry)
        self.kept.append(t)
        self.index[id(t)] = found = len(self.table) - 1
        return found

    def text(self, text: str) -> str | list[int]:
        """A long text (a struct type's, its whole source) as where its bytes are in the
        file, when they are there; else itself."""
        if len(text) < 64 or self.source is None:
            return text
        raw = text.encode("utf-8")
        start = self.source.find(raw)
        return text if start < 0 else [start, start + len(raw)]

    def field(self, f: FieldDecl) -> list[Any]:
        j = f.json
        return [
            f.name,
            self.type_expr(f.type),
            f.embedded,
            f.tag_raw,
            [list(pair) for pair in f.tags],
            [j.present, j.name, j.omitempty, j.inline, j.skip, j.string, list(j.options)],
            self.group(f.doc),
            self.group(f.trailing),
            self.pos(f.pos),
            self.group(f.doc_extra),
        ]

    def type_decl(self, t: TypeDecl) -> list[Any]:
        return [
            t.name,
            self.type_expr(t.type),
            t.alias,
            self.group(t.doc),
            self.group(t.doc_extra),
            self.pos(t.pos),
            t.type_params,
        ]

    def const(self, c: ConstSpec) -> list[Any]:
        return [
            c.name,
            self.type_expr(c.type),
            c.value_text,
            c.value,
            c.iota,
            c.implicit,
            self.group(c.doc),
            self.group(c.trailing),
            self.pos(c.pos),
            self.pos(c.block_pos),
        ]


class _StoredLines:
    """The lines of a comment group kept as records (one the parser had made already):
    made again when first asked for (`syntax.LineSource`)."""

    __slots__ = ("_path", "_raw")

    def __init__(self, path: str, raw: list[list[Any]]) -> None:
        self._path = path
        self._raw = raw

    def __call__(self) -> tuple[CommentLine, ...]:
        return tuple([self.line(i) for i in range(len(self._raw))])

    def texts(self) -> tuple[str, ...]:
        return tuple([line[0] for line in self._raw])

    def line(self, index: int) -> CommentLine:
        raw = self._raw[index]
        if len(raw) == 4:
            return BlockCommentLine(raw[0], position(self._path, raw[1], raw[2]))
        return comment_line(raw[0], self._path, raw[1], raw[2])


class _Decoder:
    def __init__(self, path: str, src: Source, table: list[list[Any]], source: bytes) -> None:
        self.source = source
        from markergen.golang.comments import _LineRun, _Lines

        self.line_run, self.lines = _LineRun, _Lines
        self.path = path
        self.src = src
        self.tags: dict[tuple[Any, ...], JSONTag] = {}
        self.types: list[TypeExpr] = []
        for entry in table:  # children come first
            self.types.append(self._type_expr(entry))

    def pos(self, p: list[int]) -> Position:
        return position(self.path, p[0], p[1])

    def group(self, raw: list[Any] | None) -> CommentGroup | None:
        if raw is None:
            return None
        kind = raw[0]
        if kind == 0:
            return deferred_group(self.line_run(self.src, raw[1], raw[2], raw[3]))
        if kind == 1:
            spans: list[Span] = [(a, b, c) for a, b, c in raw[2]]
            return deferred_group(self.lines(self.src, spans, raw[1]))
        return deferred_group(_StoredLines(self.path, raw[1:]))

    def type_expr(self, index: int) -> TypeExpr | None:
        return None if index < 0 else self.types[index]

    def _type_expr(self, raw: list[Any]) -> TypeExpr:
        kind, text, name, package, elem, key, length, fields = raw
        if not isinstance(text, str):
            text = self.source[text[0] : text[1]].decode("utf-8")
        return TypeExpr(
            kind,
            text,
            name,
            package,
            self.type_expr(elem),
            self.type_expr(key),
            length,
            tuple([self.field(f) for f in fields]),
        )

    def json_tag(self, raw: list[Any]) -> JSONTag:
        frozen = (*raw[:6], *raw[6])
        tag = self.tags.get(frozen)
        if tag is None:
            present, name, omitempty, inline, skip, string, options = raw
            tag = JSONTag(present, name, omitempty, inline, skip, string, tuple(options))
            self.tags[frozen] = tag
        return tag

    def field(self, raw: list[Any]) -> FieldDecl:
        name, typ, embedded, tag_raw, tags, json, doc, trailing, pos, doc_extra = raw
        group = self.group
        return field_decl(
            name,
            self.types[typ],
            embedded,
            tag_raw,
            tuple([(k, v) for k, v in tags]),
            self.json_tag(json),
            group(doc),
            group(trailing),
            position(self.path, pos[0], pos[1]),
            group(doc_extra),
        )

    def type_decl(self, raw: list[Any]) -> TypeDecl:
        name, typ, alias, doc, doc_extra, pos, type_params = raw
        return TypeDecl(
            name,
            self.types[typ],
            alias,
            self.group(doc),
            self.group(doc_extra),
            self.pos(pos),
            type_params,
        )

    def const(self, raw: list[Any]) -> ConstSpec:
        name, typ, value_text, value, iota, implicit, doc, trailing, pos, block_pos = raw
        return ConstSpec(
            name,
            self.type_expr(typ),
            value_text,
            value,
            iota,
            implicit,
            self.group(doc),
            self.group(trailing),
            self.pos(pos),
            self.pos(block_pos),
        )
