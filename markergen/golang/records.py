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
from typing import Any, Protocol

import orjson

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
    const_spec,
    deferred_group,
    field_decl,
    position,
    type_expr,
)

# Bumped whenever the layout below changes: a text of another layout is a miss.
FORMAT = 1


class RecordStore(Protocol):
    """Where the records of files read before are kept, by `record_key`
    (markergen.cache.SyntaxStore). Failing to keep one only costs the speed-up."""

    def get(self, key: str) -> bytes | None: ...

    def put(self, key: str, data: bytes) -> None: ...


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
        found = decode(kept, path)
        if found is not None:
            return found
    gofile = parse(path, data, struct_fields)
    text = encode(gofile)
    if text:
        store.put(key, text)
    return gofile


class _Foreign(Exception):
    """A record holds a position in another file: such a file is not cached."""


def encode(gofile: GoFile) -> bytes:
    """The bytes of `gofile`'s records; b"" when they cannot be kept (then the file is
    parsed every time)."""
    enc = _Encoder(gofile.path)
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
    return orjson.dumps(body)


def decode(data: bytes, path: str) -> GoFile | None:
    """The records `encode` wrote, with every position in `path`; None when `data` is
    not such a text (damaged, another layout)."""
    try:
        body = orjson.loads(data)
        if not isinstance(body, list) or len(body) != 12 or body[0] != FORMAT:
            return None
        dec = _Decoder(path)
        group = dec.group
        return GoFile(
            path=path,
            package=_str(body[1]),
            package_doc=group(body[2]),
            imports=tuple(ImportSpec(_str(n), _str(p), bool(a)) for n, p, a in body[3]),
            types=tuple([dec.type_decl(t) for t in body[4]]),
            consts=tuple([dec.const(c) for c in body[5]]),
            errors=tuple(SyntaxError_(dec.pos(p), dec.pos(e), _str(m)) for p, e, m in body[6]),
            build_constraint=_str(body[7]),
            generated=bool(body[8]),
            marshalers=tuple(_str(m) for m in body[9]),
            marked=tuple(MarkedDecl(_str(k), _str(n), _group(group(d))) for k, n, d in body[10]),
            package_comments=tuple(_group(group(g)) for g in body[11]),
        )
    except (orjson.JSONDecodeError, TypeError, ValueError, IndexError, KeyError):
        return None


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("expected a string")
    return value


def _group(value: CommentGroup | None) -> CommentGroup:
    if value is None:
        raise TypeError("expected a comment group")
    return value


class _Encoder:
    def __init__(self, path: str) -> None:
        self.path = path

    def pos(self, p: Position) -> list[int]:
        if p.file != self.path:
            raise _Foreign
        return [p.line, p.column]

    def group(self, g: CommentGroup | None) -> list[Any] | None:
        if g is None:
            return None
        out: list[Any] = []
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

    def type_expr(self, t: TypeExpr | None) -> list[Any] | None:
        if t is None:
            return None
        return [
            t.kind,
            t.text,
            t.name,
            t.package,
            self.type_expr(t.elem),
            self.type_expr(t.key),
            t.length,
            [self.field(f) for f in t.fields],
        ]

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
    """The lines of a comment group read back from the cache (`syntax.LineSource`):
    their records are made when first asked for, as the parser's are."""

    __slots__ = ("_path", "_raw")

    def __init__(self, path: str, raw: list[list[Any]]) -> None:
        self._path = path
        self._raw = raw

    def __call__(self) -> tuple[CommentLine, ...]:
        return tuple([self.line(i) for i in range(len(self._raw))])

    def texts(self) -> tuple[str, ...]:
        return tuple([_str(line[0]) for line in self._raw])

    def line(self, index: int) -> CommentLine:
        raw = self._raw[index]
        if len(raw) == 4:
            return BlockCommentLine(_str(raw[0]), position(self._path, raw[1], raw[2]))
        return comment_line(_str(raw[0]), self._path, raw[1], raw[2])


class _Decoder:
    def __init__(self, path: str) -> None:
        self.path = path
        self.tags: dict[tuple[Any, ...], JSONTag] = {}

    def pos(self, p: list[int]) -> Position:
        line, column = p
        if not isinstance(line, int) or not isinstance(column, int):
            raise TypeError("expected a position")
        return position(self.path, line, column)

    def group(self, raw: list[list[Any]] | None) -> CommentGroup | None:
        if raw is None:
            return None
        if not isinstance(raw, list):
            raise TypeError("expected comment lines")
        return deferred_group(_StoredLines(self.path, raw))

    def type_expr(self, raw: list[Any] | None) -> TypeExpr | None:
        if raw is None:
            return None
        kind, text, name, package, elem, key, length, fields = raw
        return type_expr(
            kind,
            _str(text),
            _str(name),
            _str(package),
            self.type_expr(elem),
            self.type_expr(key),
            _str(length),
            tuple([self.field(f) for f in fields]),
        )

    def json_tag(self, raw: list[Any]) -> JSONTag:
        frozen = (*raw[:6], *raw[6])
        tag = self.tags.get(frozen)
        if tag is None:
            present, name, omitempty, inline, skip, string, options = raw
            tag = JSONTag(
                bool(present),
                _str(name),
                bool(omitempty),
                bool(inline),
                bool(skip),
                bool(string),
                tuple(_str(o) for o in options),
            )
            self.tags[frozen] = tag
        return tag

    def field(self, raw: list[Any]) -> FieldDecl:
        name, typ, embedded, tag_raw, tags, json, doc, trailing, pos, doc_extra = raw
        t = self.type_expr(typ)
        if t is None:
            raise TypeError("a field without a type")
        return field_decl(
            _str(name),
            t,
            bool(embedded),
            _str(tag_raw),
            tuple([(_str(k), _str(v)) for k, v in tags]),
            self.json_tag(json),
            self.group(doc),
            self.group(trailing),
            self.pos(pos),
            self.group(doc_extra),
        )

    def type_decl(self, raw: list[Any]) -> TypeDecl:
        name, typ, alias, doc, doc_extra, pos, type_params = raw
        t = self.type_expr(typ)
        if t is None:
            raise TypeError("a type declaration without a type")
        return TypeDecl(
            _str(name),
            t,
            bool(alias),
            self.group(doc),
            self.group(doc_extra),
            self.pos(pos),
            _str(type_params),
        )

    def const(self, raw: list[Any]) -> ConstSpec:
        name, typ, value_text, value, iota, implicit, doc, trailing, pos, block_pos = raw
        if value is not None:
            value = _str(value)
        if not isinstance(iota, int):
            raise TypeError("expected an integer")
        return const_spec(
            _str(name),
            self.type_expr(typ),
            _str(value_text),
            value,
            iota,
            bool(implicit),
            self.group(doc),
            self.group(trailing),
            self.pos(pos),
            self.pos(block_pos),
        )
