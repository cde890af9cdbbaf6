"""Go source text to syntax records, with tree-sitter and the tree-sitter-go grammar.

Only top-level declarations are walked (package clause, imports, types, consts); function
bodies are never entered, which keeps a whole API tree fast to read. Comments are
attached the way go/parser attaches them: a comment group ending on the line right above
a declaration is its doc, a group starting on the line where a declaration ends is its
trailing comment (markergen/golang/comments.py). A list without syntax errors is read
in one pass over its children, the comments from the bytes between code nodes
(`_FileReader.attached`); node kinds are compared as the grammar's numbers, which read
without making a string.
"""

from __future__ import annotations

from collections.abc import Callable

import tree_sitter_go
from tree_sitter import Language, Node, Parser, Tree

from markergen.golang import comments
from markergen.golang.header import doc_tail, go_build_of, header_line, plus_build_expr
from markergen.golang.literals import unquote
from markergen.golang.source import DecodeError, Source, prepare
from markergen.golang.syntax import (
    CommentGroup,
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
    const_spec,
    field_decl,
    position,
    type_expr,
)
from markergen.golang.tags import json_tag, parse_struct_tag

__all__ = ["DecodeError", "GoParser", "parse_file"]

_SNIPPET = 40
# Type expressions nested deeper than this are read as opaque types with an MG001
# warning: reading them recursively would hit Python's recursion limit, and no API type
# nests anywhere near this (Kubernetes' deepest is about five levels).
MAX_TYPE_DEPTH = 100


class GoParser:
    """A reusable tree-sitter parser for Go; one per thread of work, reused across files."""

    def __init__(self) -> None:
        self._parser = Parser(_GO)
        # JSONTag by the value of a field's `json` key (None: no such key). An API tree
        # repeats a few hundred json tags over thousands of fields; the records are
        # immutable, so fields with the same tag share one.
        self._json_tags: dict[str | None, JSONTag] = {}
        # TypeExpr by the text of a type expression without `{` (see _FileReader.type_expr)
        self._type_exprs: dict[bytes, TypeExpr] = {}
        # Tag by its literal's bytes (see _FileReader.field_decls)
        self._tags: dict[bytes, Tag] = {}

    def parse(self, path: str, data: bytes) -> GoFile:
        """Read one file. Raises DecodeError when `data` is not UTF-8."""
        return self.parse_prepared(path, prepare(path, data))

    def parse_prepared(self, path: str, data: bytes, struct_fields: bool = True) -> GoFile:
        """Read one file whose bytes already went through `source.prepare`.
        `struct_fields=False` reads every struct type as one without fields: for the
        files of imported packages, where only constants and non-struct type
        declarations are looked at (core/v1's types.go: 40 of its 45 ms were fields)."""
        cut = doc_tail(data)
        tree: Tree | None = None
        if cut is not None:
            # Only the part before the swagger doc declarations is parsed; it gives the
            # same record when it parses without error (else the whole file is read).
            head = data[:cut]
            tree = self._parser.parse(head)
            if tree.root_node.has_error:
                tree = None
            else:
                data = head
        if tree is None:
            tree = self._parser.parse(data)
        reader = _FileReader(
            Source(path, data), self._json_tags, struct_fields, self._type_exprs, self._tags
        )
        return reader.read(tree.root_node)


def parse_file(path: str, data: bytes) -> GoFile:
    """Read one Go file; `path` is kept as given in every Position."""
    return GoParser().parse(path, data)


class _FileReader:
    def __init__(
        self,
        src: Source,
        json_tags: dict[str | None, JSONTag] | None = None,
        struct_fields: bool = True,
        type_exprs: dict[bytes, TypeExpr] | None = None,
        tags: dict[bytes, Tag] | None = None,
    ) -> None:
        self.src = src
        self.struct_fields = struct_fields
        self.data = src.data
        self.too_deep: list[SyntaxError_] = []
        self.ignored_errors = 0  # syntax errors outside what markergen reads
        self.json_tags: dict[str | None, JSONTag] = {} if json_tags is None else json_tags
        self.type_exprs: dict[bytes, TypeExpr] = {} if type_exprs is None else type_exprs
        self.tags: dict[bytes, Tag] = {} if tags is None else tags

    # ----------------------------------------------------------------- positions

    def pos(self, node: Node) -> Position:
        row, column = node.start_point
        if self.src.ascii:
            return position(self.src.path, row + 1, column + 1)
        return self.src.position(node.start_byte, row, column)

    def end_pos(self, node: Node) -> Position:
        row, column = node.end_point
        return self.src.position(node.end_byte, row, column)

    def text(self, node: Node) -> str:
        # Source.text, inlined: called for every name and type expression of the tree.
        return self.data[node.start_byte : node.end_byte].decode("utf-8")

    # ---------------------------------------------------------------------- file

    def read(self, root: Node) -> GoFile:
        header: list[CommentGroup] = []  # the comment groups above the first declaration
        decls = None if root.has_error else self.declarations(root.children, header)
        if decls is None:
            header = []
            decls = self.declarations_with_errors(root.children, header)
        package = ""
        package_doc: CommentGroup | None = None
        package_comments: tuple[CommentGroup, ...] = ()
        generated = False
        go_build = ""
        plus_build: list[str] = []
        imports: list[ImportSpec] = []
        types: list[TypeDecl] = []
        consts: list[ConstSpec] = []
        marshalers: list[str] = []
        marked: list[MarkedDecl] = []
        for group in header:
            for text in group.texts:
                generated = header_line(text, plus_build) or generated
                if not go_build:
                    go_build = go_build_of(text)
        for node, doc, trailing, extra in decls:
            kind = node.kind_id
            if kind == _PACKAGE_CLAUSE:
                for child in node.children:
                    if child.kind_id == _PACKAGE_IDENTIFIER:
                        package = self.text(child)
                package_doc = doc
                # gengo and controller-gen read package tags from every comment above the
                # clause, not only its doc: `+groupName=` often stands in a block of its own.
                # Only comments come before the clause, so the doc is the last of them.
                package_comments = tuple(header)
            elif kind == _IMPORT_DECLARATION:
                imports.extend(self.imports(node))
            elif kind == _TYPE_DECLARATION:
                types.extend(self.type_decls(node, doc, extra))
            elif kind == _CONST_DECLARATION:
                consts.extend(self.const_decls(node, doc, trailing))
            elif kind == _METHOD_DECLARATION:
                receiver = self.marshaler_receiver(node)
                if receiver:
                    marshalers.append(receiver)
                self.marked(node, doc, marked)
            elif kind in (_FUNCTION_DECLARATION, _VAR_DECLARATION):
                self.marked(node, doc, marked)
        constraint = go_build or plus_build_expr(plus_build)
        return GoFile(
            path=self.src.path,
            package=package,
            package_doc=package_doc,
            package_comments=package_comments,
            imports=tuple(imports),
            types=tuple(types),
            consts=tuple(consts),
            errors=self.errors(root),
            build_constraint=constraint,
            generated=generated,
            marshalers=tuple(sorted(set(marshalers))),
            marked=tuple(marked),
        )

    def declarations(self, children: list[Node], header: list[CommentGroup]) -> list[Attached]:
        """The top-level declarations markergen reads, with their comments, of a file
        without syntax errors; `header` gets the comment groups above the first one."""
        first = 0
        while first < len(children) and children[first].kind_id == _COMMENT:
            first += 1
        # The comments above the first declaration through `comments.items`: every
        # group of them counts (license, build constraints, package tags).
        above = comments.items(self.src, children[: first + 1])
        if first == len(children):
            header.extend(g.group for g in above if isinstance(g, comments.Group))
            return []
        header.extend(g.group for g in above[:-1] if isinstance(g, comments.Group))
        doc = comments.doc_of(above, len(above) - 1)
        extra = comments.extra_doc_of(above, len(above) - 1, doc)
        decls = self._attach(
            children[first:], _TOP_LEVEL_KINDS, doc.group if doc else None, extra, True
        )
        assert decls is not None  # an open end never gives up
        return decls

    def declarations_with_errors(
        self, children: list[Node], header: list[CommentGroup]
    ) -> list[Attached]:
        """`declarations` of a file with a syntax error, through `comments.items`: the
        header ends at the first node other than a comment or an ERROR."""
        items = comments.items(self.src, children)
        out: list[Attached] = []
        header_done = False
        for index, item in enumerate(items):
            if isinstance(item, comments.Group):
                if not header_done:
                    header.append(item.group)
                continue
            if item.type == "ERROR":
                continue
            header_done = True
            doc = comments.doc_of(items, index)
            out.append(
                (
                    item,
                    doc.group if doc else None,
                    comments.trailing_of(items, index),
                    comments.extra_doc_of(items, index, doc),
                )
            )
        return out

    # ------------------------------------------------------------------- imports

    def imports(self, decl: Node) -> list[ImportSpec]:
        specs: list[Node] = []
        for child in decl.children:
            if child.type == "import_spec":
                specs.append(child)
            elif child.type == "import_spec_list":
                specs.extend(c for c in child.children if c.type == "import_spec")
        out: list[ImportSpec] = []
        for spec in specs:
            path_node = spec.child_by_field_name("path")
            if path_node is None:
                continue
            try:
                path = unquote(self.text(path_node))
            except ValueError:
                continue
            name_node = spec.child_by_field_name("name")
            if name_node is not None:
                out.append(ImportSpec(self.text(name_node), path, True))
            else:
                out.append(ImportSpec(path.rsplit("/", 1)[-1], path, False))
        return out

    # --------------------------------------------------------------------- types

    def type_decls(
        self, decl: Node, decl_doc: CommentGroup | None, decl_extra: CommentGroup | None
    ) -> list[TypeDecl]:
        if not any(c.kind_id == _LPAREN for c in decl.children):
            return [
                self.type_decl(spec, decl_doc, decl_extra)
                for spec in decl.children
                if spec.kind_id in _TYPE_SPEC_KINDS
            ]
        specs = self.attached(decl, _TYPE_SPEC_KINDS)
        if specs is None:
            return self._grouped_type_decls(decl, decl_doc, decl_extra)
        if len(specs) == 1 and specs[0][1] is None and decl_doc is not None:
            return [self.type_decl(specs[0][0], decl_doc, decl_extra)]
        return [self.type_decl(spec, doc, extra) for spec, doc, _, extra in specs]

    def _grouped_type_decls(
        self, decl: Node, decl_doc: CommentGroup | None, decl_extra: CommentGroup | None
    ) -> list[TypeDecl]:
        """`type_decls` of a `type (...)` group with a syntax error in it."""
        inner = comments.items(self.src, decl.children)
        spec_indexes = [
            i
            for i, it in enumerate(inner)
            if isinstance(it, Node) and it.type in ("type_spec", "type_alias")
        ]
        out: list[TypeDecl] = []
        for i in spec_indexes:
            spec = inner[i]
            assert isinstance(spec, Node)
            doc = comments.doc_of(inner, i)
            if doc is None and len(spec_indexes) == 1 and decl_doc is not None:
                out.append(self.type_decl(spec, decl_doc, decl_extra))
            else:
                out.append(
                    self.type_decl(
                        spec, doc.group if doc else None, comments.extra_doc_of(inner, i, doc)
                    )
                )
        return out

    def type_decl(
        self, spec: Node, doc: CommentGroup | None, extra: CommentGroup | None
    ) -> TypeDecl:
        name = spec.child_by_field_name("name")
        type_node = spec.child_by_field_name("type")
        params = spec.child_by_field_name("type_parameters")
        return TypeDecl(
            name=self.text(name) if name else "",
            type=self.type_expr(type_node) if type_node else type_expr("other", ""),
            alias=spec.type == "type_alias",
            doc=doc,
            doc_extra=extra,
            pos=self.pos(name) if name else self.pos(spec),
            type_params=self.text(params) if params else "",
        )

    def type_expr(self, node: Node, depth: int = 0) -> TypeExpr:
        start, end = node.start_byte, node.end_byte
        if end - start + depth <= MAX_TYPE_DEPTH and not node.has_error:
            # A type expression is a function of its text, but for struct types (their
            # fields have positions); no nesting can go too deep in so few characters.
            # A tree repeats a few hundred field types over thousands of fields; the
            # records are immutable, so equal ones are shared.
            raw = self.data[start:end]
            found = self.type_exprs.get(raw)
            if found is None:
                found = self._type_expr(node, depth)
                if b"{" not in raw:
                    self.type_exprs[raw] = found
            return found
        return self._type_expr(node, depth)

    def _type_expr(self, node: Node, depth: int) -> TypeExpr:
        kind = node.type
        text = self.text(node)
        if depth > MAX_TYPE_DEPTH:
            self.too_deep.append(
                SyntaxError_(
                    self.pos(node),
                    self.end_pos(node),
                    f"type nested more than {MAX_TYPE_DEPTH} levels deep; "
                    "read as an opaque type",
                )
            )
            return type_expr("other", text)
        deeper = depth + 1
        if kind == "type_identifier":
            return type_expr("ident", text, name=text)
        if kind == "qualified_type":
            pkg = node.child_by_field_name("package")
            name = node.child_by_field_name("name")
            return type_expr(
                "qualified",
                text,
                name=self.text(name) if name else "",
                package=self.text(pkg) if pkg else "",
            )
        if kind == "pointer_type":
            inner = node.named_children
            return type_expr(
                "pointer", text, elem=self.type_expr(inner[0], deeper) if inner else None
            )
        if kind == "slice_type":
            return type_expr("slice", text, elem=self.field_type(node, "element", deeper))
        if kind == "array_type":
            length = node.child_by_field_name("length")
            return type_expr(
                "array",
                text,
                elem=self.field_type(node, "element", deeper),
                length=self.text(length) if length else "",
            )
        if kind == "map_type":
            return type_expr(
                "map",
                text,
                key=self.field_type(node, "key", deeper),
                elem=self.field_type(node, "value", deeper),
            )
        if kind == "struct_type":
            fields: tuple[FieldDecl, ...] = ()
            if self.struct_fields:
                for child in node.children:
                    if child.type == "field_declaration_list":
                        fields = self.fields(child, deeper)
            return type_expr("struct", text, fields=fields)
        if kind == "interface_type":
            return type_expr("interface", text)
        if kind == "function_type":
            return type_expr("func", text)
        if kind == "channel_type":
            return type_expr("chan", text, elem=self.field_type(node, "value", deeper))
        if kind == "generic_type":
            base = node.child_by_field_name("type")
            base_expr = self.type_expr(base, deeper) if base else type_expr("other", "")
            return type_expr("generic", text, name=base_expr.name, package=base_expr.package)
        if kind == "parenthesized_type":
            inner = node.named_children
            if len(inner) == 1:
                return self.type_expr(inner[0], deeper)
        return type_expr("other", text)

    def field_type(self, node: Node, field: str, depth: int) -> TypeExpr | None:
        child = node.child_by_field_name(field)
        return self.type_expr(child, depth) if child else None

    # -------------------------------------------------------------------- fields

    def fields(self, field_list: Node, depth: int = 0) -> tuple[FieldDecl, ...]:
        """The fields of a `{ ... }` field list."""
        specs = self.attached(field_list, _FIELD_KINDS)
        if specs is None:
            return self._fields_with_errors(field_list, depth)
        out: list[FieldDecl] = []
        for node, doc, trailing, extra in specs:
            self.field_decls(out, node, doc, trailing, depth, extra)
        return tuple(out)

    def attached(self, parent: Node, kinds: frozenset[int]) -> list[Attached] | None:
        """Each child of `parent` of one of `kinds` with the comments `comments.items`
        attaches to it: its doc, its trailing comment and the group one blank line above
        (see `comments.gap`); None when `parent` has a syntax error (then ERROR nodes
        count too: the caller reads `comments.items`)."""
        if parent.has_error:
            return None
        return self._attach(parent.children, kinds, None, None, False)

    def _attach(
        self,
        children: list[Node],
        kinds: frozenset[int],
        first_doc: CommentGroup | None,
        first_extra: CommentGroup | None,
        open_end: bool,
    ) -> list[Attached] | None:
        """`attached` of `children`, the first of which is code (its doc and extra doc
        are given: the comments above it are not in `children`). Without `open_end` the
        last child is code too (a list's closing token), else None is returned.

        One pass over the children; the comments are read from the bytes of the gaps
        between code nodes, and only the groups a wanted child keeps are made."""
        src = self.src
        out: list[Attached] = []
        prev: Node | None = None  # the code node before the pending gap
        commented = False  # a comment node stands in the pending gap
        pending: Node | None = None  # a wanted child above the gap, waiting for its trailing comment
        doc = extra = None
        for child in children:
            kind = child.kind_id
            if kind == _COMMENT:
                commented = True
                continue
            wanted = kind in kinds
            trailing = next_doc = next_extra = None
            if commented:
                commented = False
                if prev is None:  # comments before the list's opening token
                    return None
                if pending is not None or wanted:
                    trailing, next_doc, next_extra = comments.gap(
                        src, children, prev.end_byte, child.start_byte, prev.end_point[0],
                        child, pending is not None, wanted,
                    )
            elif prev is None:
                next_doc, next_extra = first_doc, first_extra
            if pending is not None:
                out.append((pending, doc, trailing, extra))
            pending, doc, extra = (child, next_doc, next_extra) if wanted else (None, None, None)
            prev = child
        if pending is not None or commented:
            if not open_end:  # not after the list's closing token
                return None
            if pending is not None:
                trailing = None
                if commented and prev is not None:
                    trailing = comments.gap(
                        src, children, prev.end_byte, children[-1].end_byte, prev.end_point[0],
                        None, True, False,
                    )[0]
                out.append((pending, doc, trailing, extra))
        return out

    def _fields_with_errors(self, field_list: Node, depth: int) -> tuple[FieldDecl, ...]:
        """`fields` of a list with a syntax error in it, through `comments.items`."""
        items = comments.items(self.src, field_list.children)
        out: list[FieldDecl] = []
        last = len(items) - 1
        for index, item in enumerate(items):
            if isinstance(item, comments.Group) or item.type != "field_declaration":
                continue
            nxt = items[index + 1] if index < last else None
            if (
                isinstance(nxt, Node)
                and nxt.type == "ERROR"
                and nxt.start_point[0] == item.end_point[0]
            ):
                # An ERROR on the field's own line: the field is a fragment.
                # tree-sitter reads `B map[string` as an embedded field `B` and an
                # error; reporting a field that is not there would only add false
                # diagnostics to the syntax error.
                continue
            doc = comments.doc_of(items, index)
            trailing = comments.trailing_of(items, index)
            extra = comments.extra_doc_of(items, index, doc)
            self.field_decls(out, item, doc.group if doc else None, trailing, depth, extra)
        return tuple(out)

    def field_decls(
        self,
        out: list[FieldDecl],
        node: Node,
        doc: CommentGroup | None,
        trailing: CommentGroup | None,
        depth: int = 0,
        doc_extra: CommentGroup | None = None,
    ) -> None:
        """Append the records of the field declaration `node` (`A, B int` gives two)."""
        # One pass over the children instead of a look-up per grammar field: names are
        # `field_identifier`s, the tag is the string literal, `*` marks an embedded
        # pointer, and the one other node is the type. A declaration with a syntax
        # error, or any other shape, is read by grammar field.
        names: list[Node] = []
        type_node: Node | None = None
        tag_node: Node | None = None
        star = False
        plain = not node.has_error
        if plain:
            for child in node.children:
                kind = child.kind_id
                if kind == _FIELD_IDENTIFIER:
                    names.append(child)
                elif kind in _STRING_KINDS:
                    tag_node = child
                elif kind == _STAR:
                    star = True
                elif kind != _COMMA and kind != _COMMENT:
                    if type_node is not None:
                        plain = False
                        break
                    type_node = child
        if not plain:
            type_node = node.child_by_field_name("type")
            names = [c for c in node.children_by_field_name("name") if c.type == "field_identifier"]
            tag_node = node.child_by_field_name("tag")
            star = not names and any(c.type == "*" for c in node.children)
        if type_node is None:
            return
        data = self.data
        ftype = None
        start, end = type_node.start_byte, type_node.end_byte
        if plain and end - start + depth <= MAX_TYPE_DEPTH:
            # type_expr's look-up, inlined (once a field); a miss goes through type_expr
            ftype = self.type_exprs.get(data[start:end])
        if ftype is None:
            ftype = self.type_expr(type_node, depth)
        embedded = not names
        if embedded and star:
            # tree-sitter-go writes an embedded `*T` as a `*` token next to the type.
            ftype = type_expr("pointer", "*" + ftype.text, elem=ftype)
        # The tag's records by its literal (b"": no tag): a tree repeats many tags.
        literal = b"" if tag_node is None else data[tag_node.start_byte : tag_node.end_byte]
        tag = self.tags.get(literal)
        if tag is None:
            tag = self.tags[literal] = self.tag(literal.decode("utf-8"))
        tag_raw, tags, jtag = tag
        if embedded:
            base = ftype.elem if ftype.kind == "pointer" and ftype.elem else ftype
            out.append(
                field_decl(
                    base.name or base.text, ftype, True, tag_raw, tags, jtag, doc, trailing,
                    self.pos(node), doc_extra,
                )
            )  # fmt: skip
            return
        src = self.src
        for name in names:
            start = name.start_byte
            row, column = name.start_point
            # self.pos, inlined
            pos = (
                position(src.path, row + 1, column + 1)
                if src.ascii
                else src.position(start, row, column)
            )
            out.append(
                field_decl(
                    data[start : name.end_byte].decode("utf-8"), ftype, False, tag_raw, tags,
                    jtag, doc, trailing, pos, doc_extra,
                )
            )  # fmt: skip

    def tag(self, literal: str) -> Tag:
        """A field's tag literal ("" when it has none) as its content, its pairs and
        its json tag."""
        tag_raw = ""
        if literal:
            try:
                tag_raw = unquote(literal)
            except ValueError:
                tag_raw = literal[1:-1]
        tags = parse_struct_tag(tag_raw)
        json_value = None
        for key, value in tags:
            if key == "json":
                json_value = value
                break
        jtag = self.json_tags.get(json_value)
        if jtag is None:
            jtag = self.json_tags[json_value] = json_tag(tags)
        return tag_raw, tags, jtag

    # ----------------------------------------------------- vars and functions

    def marked(self, decl: Node, doc: CommentGroup | None, out: list[MarkedDecl]) -> None:
        """Record the variable or function `decl` (each spec of a `var (...)` group) when
        its doc comment has a marker line; nothing else of it is read."""
        if decl.kind_id == _VAR_DECLARATION:
            for child in decl.children:
                if child.type == "var_spec":
                    self._mark("var", self._spec_name(child), doc, out)
                elif child.type == "var_spec_list":
                    specs = self.attached(child, _VAR_SPEC_KINDS)
                    if specs is not None:
                        for spec, spec_doc, _, _ in specs:
                            self._mark("var", self._spec_name(spec), spec_doc, out)
                        continue
                    inner = comments.items(self.src, child.children)
                    for i, item in enumerate(inner):
                        if isinstance(item, Node) and item.type == "var_spec":
                            group = comments.doc_of(inner, i)
                            spec_doc = group.group if group else None
                            self._mark("var", self._spec_name(item), spec_doc, out)
            return
        if doc is None or not comments.has_marker_line(doc):
            return  # the usual case: nothing of the function is read
        name = decl.child_by_field_name("name")
        label = self.text(name) if name is not None else ""
        receiver = self.receiver_type(decl) if decl.kind_id == _METHOD_DECLARATION else ""
        self._mark("func", f"{receiver}.{label}" if receiver else label, doc, out)

    def _spec_name(self, spec: Node) -> str:
        name = spec.child_by_field_name("name")
        return self.text(name) if name is not None else ""

    @staticmethod
    def _mark(kind: str, name: str, doc: CommentGroup | None, out: list[MarkedDecl]) -> None:
        if doc is not None and comments.has_marker_line(doc):
            out.append(MarkedDecl(kind, name, doc))

    # -------------------------------------------------------------------- consts

    def const_decls(
        self, decl: Node, decl_doc: CommentGroup | None, decl_trailing: CommentGroup | None
    ) -> list[ConstSpec]:
        block_pos = self.pos(decl)
        specs: list[tuple[Node, CommentGroup | None, CommentGroup | None]] = []
        if any(c.kind_id == _LPAREN for c in decl.children):
            attached = self.attached(decl, _CONST_SPEC_KINDS)
            if attached is not None:
                specs = [(spec, doc, trailing) for spec, doc, trailing, _ in attached]
            else:
                items = comments.items(self.src, decl.children)
                for i, item in enumerate(items):
                    if isinstance(item, Node) and item.type == "const_spec":
                        group = comments.doc_of(items, i)
                        specs.append(
                            (item, group.group if group else None, comments.trailing_of(items, i))
                        )
        else:
            specs.extend(
                (c, decl_doc, decl_trailing) for c in decl.children if c.kind_id == _CONST_SPEC
            )
        out: list[ConstSpec] = []
        prev_type: Node | None = None
        prev_values: list[Node] = []
        for iota, (spec, doc, trailing) in enumerate(specs):
            names: list[Node] = []
            type_node: Node | None = None
            value_node: Node | None = None
            if spec.has_error:
                type_node = spec.child_by_field_name("type")
                value_node = spec.child_by_field_name("value")
                names = [c for c in spec.children_by_field_name("name") if c.type == "identifier"]
            else:
                # One pass, as in field_decls: the names are the identifiers, the values
                # the expression list, and the one other named node is the type.
                for child in spec.children:
                    kind = child.kind_id
                    if kind == _IDENTIFIER:
                        names.append(child)
                    elif kind == _EXPRESSION_LIST:
                        value_node = child
                    elif kind != _COMMENT and child.is_named:
                        type_node = child
            values = (
                [v for v in value_node.children if v.is_named and v.kind_id != _COMMENT]
                if value_node
                else []
            )
            # Go's implicit repetition: a spec with neither type nor values repeats the
            # previous spec's type and expression list.
            implicit = type_node is None and value_node is None
            if implicit:
                type_node, values = prev_type, prev_values
            else:
                prev_type, prev_values = type_node, values
            ctype = self.type_expr(type_node) if type_node else None
            for k, name in enumerate(names):
                value = values[k] if k < len(values) else None
                out.append(
                    const_spec(
                        name=self.text(name),
                        type=ctype,
                        value_text=self.text(value) if value else "",
                        value=self.string_value(value),
                        iota=iota,
                        implicit=implicit,
                        doc=doc,
                        trailing=trailing,
                        pos=self.pos(name),
                        block_pos=block_pos,
                    )
                )
        return out

    def string_value(self, node: Node | None) -> str | None:
        if node is None or node.kind_id not in _STRING_KINDS:
            return None
        try:
            return unquote(self.text(node))
        except ValueError:
            return None

    def marshaler_receiver(self, node: Node) -> str:
        """The receiver's type name when `node` is a custom JSON or text marshalling
        method (`func (d *Duration) UnmarshalJSON(...)`), else ""."""
        name = node.child_by_field_name("name")
        if name is None or self.text(name) not in _MARSHALERS:
            return ""
        return self.receiver_type(node)

    def receiver_type(self, node: Node) -> str:
        """The type name of a method's receiver (`Duration` of `(d *Duration)`)."""
        receiver = node.child_by_field_name("receiver")
        stack = [receiver] if receiver is not None else []
        while stack:
            n = stack.pop(0)
            if n.type == "type_identifier":
                return self.text(n)
            stack.extend(n.named_children)
        return ""

    # -------------------------------------------------------------------- errors

    def errors(self, root: Node) -> tuple[SyntaxError_, ...]:
        """The syntax errors of the declarations markergen reads, each naming its
        declaration.

        tree-sitter's Go grammar lags the language (Go 1.26's `new(expr)` is an error to
        tree-sitter-go 0.25), and markergen reads only the package clause, imports, type
        and const declarations. An ERROR or MISSING node inside a function, a method or a
        var declaration, or a stray top-level region that does not start a declaration
        markergen reads, cannot change any output: it is not reported (`ignored_errors`
        counts them for --debug). Valid Go is never an error.
        """
        out: list[SyntaxError_] = []
        self.ignored_errors = 0
        for child in root.children if root.has_error else ():
            if not (child.has_error or child.is_missing):
                continue
            label = _read_declaration(child, self.text)
            found = self._error_nodes(child)
            if label is None:
                self.ignored_errors += len(found)
                continue
            out.extend(
                SyntaxError_(e.pos, e.end, f"{e.message} in {label}; markergen cannot read it")
                for e in found
            )
        out.extend(self.too_deep)
        out.sort(key=lambda e: (e.pos.line, e.pos.column))
        return tuple(out)

    def _error_nodes(self, top: Node) -> list[SyntaxError_]:
        """ERROR and MISSING nodes, found by following only subtrees that hold one."""
        out: list[SyntaxError_] = []
        stack = [top]
        while stack:
            node = stack.pop()
            if node.is_missing:
                what = node.type.replace("_", " ") if node.is_named else f"`{node.type}`"
                out.append(
                    SyntaxError_(
                        self.pos(node), self.end_pos(node), f"syntax error: missing {what}"
                    )
                )
                continue
            if node.type == "ERROR":
                at = self._error_start(node)
                if at is node:
                    message = self.error_message(node)
                else:
                    rest = self.data[at.start_byte : at.start_byte + 4 * _SNIPPET]
                    line = rest.split(b"\n", 1)[0].decode("utf-8", "replace").strip()
                    message = f"syntax error: cannot parse from `{line[:_SNIPPET]}`"
                out.append(SyntaxError_(self.pos(at), self.end_pos(node), message))
                continue
            stack.extend(c for c in node.children if c.has_error or c.is_missing)
        return out

    @staticmethod
    def _error_start(node: Node) -> Node:
        """Where a region tree-sitter could not parse goes wrong: after the last
        declaration it still parsed inside it (an unclosed tag string makes the whole
        struct one ERROR; its well-formed fields come first), else the region itself."""
        children = node.children
        last = -1
        for i, c in enumerate(children):
            if c.type.endswith(("_declaration", "_spec", "_declaration_list", "_spec_list")):
                last = i
        if 0 <= last < len(children) - 1:
            return children[last + 1]
        return node

    def error_message(self, node: Node) -> str:
        text = self.text(node).strip()
        if node.child_count <= 1 and "\n" not in text:
            return f"syntax error: unexpected `{text[:_SNIPPET]}`"
        first = text.split("\n", 1)[0].strip()
        if len(first) > _SNIPPET:
            first = first[:_SNIPPET] + "..."
        return f"syntax error: cannot parse `{first}`"



_GO = Language(tree_sitter_go.language())


def _kind(name: str, named: bool = True) -> int:
    """The grammar's number of the node kind `name`."""
    kind = _GO.id_for_node_kind(name, named)
    assert kind is not None, name
    return kind


# Node kinds as the grammar's numbers: `kind_id` makes no string, `type` does.
_COMMENT = _kind("comment")
_FIELD_DECLARATION = _kind("field_declaration")
_FIELD_IDENTIFIER = _kind("field_identifier")
_RAW_STRING = _kind("raw_string_literal")
_INTERPRETED_STRING = _kind("interpreted_string_literal")
_STAR = _kind("*", False)
_COMMA = _kind(",", False)

_IDENTIFIER = _kind("identifier")
_EXPRESSION_LIST = _kind("expression_list")
_LPAREN = _kind("(", False)
_STRING_KINDS = frozenset({_RAW_STRING, _INTERPRETED_STRING})
_FIELD_KINDS = frozenset({_FIELD_DECLARATION})
_TYPE_SPEC_KINDS = frozenset(
    {_kind("type_spec"), _kind("type_alias")}
)
_CONST_SPEC = _kind("const_spec")
_CONST_SPEC_KINDS = frozenset({_CONST_SPEC})
_PACKAGE_CLAUSE = _kind("package_clause")
_PACKAGE_IDENTIFIER = _kind("package_identifier")
_IMPORT_DECLARATION = _kind("import_declaration")
_TYPE_DECLARATION = _kind("type_declaration")
_CONST_DECLARATION = _kind("const_declaration")
_METHOD_DECLARATION = _kind("method_declaration")
_FUNCTION_DECLARATION = _kind("function_declaration")
_VAR_DECLARATION = _kind("var_declaration")
# What `read` looks at; other top-level nodes only end the header.
_TOP_LEVEL_KINDS = frozenset(
    {_PACKAGE_CLAUSE, _IMPORT_DECLARATION, _TYPE_DECLARATION, _CONST_DECLARATION,
     _METHOD_DECLARATION, _FUNCTION_DECLARATION, _VAR_DECLARATION}
)  # fmt: skip
_VAR_SPEC_KINDS = frozenset({_kind("var_spec")})

# A child of a list with the comments attached to it: its doc, its trailing comment and
# the group one blank line above its doc (see _FileReader.attached).
Attached = tuple[Node, CommentGroup | None, CommentGroup | None, CommentGroup | None]

# A field tag as read: its content, its key:"value" pairs, its json tag.
Tag = tuple[str, tuple[tuple[str, str], ...], JSONTag]
_MARSHALERS = frozenset({"MarshalJSON", "UnmarshalJSON", "MarshalText", "UnmarshalText"})

# Top-level declarations markergen reads, by tree-sitter node type → how a message names it.
_READ = {
    "package_clause": "the package clause",
    "import_declaration": "an import declaration",
    "type_declaration": "type",
    "const_declaration": "const",
}
_READ_KEYWORDS = {"package": "the package clause", "import": "an import declaration",
                  "type": "type", "const": "const"}  # fmt: skip


def _read_declaration(node: Node, text: Callable[[Node], str]) -> str | None:
    """How a message names the top-level `node` when markergen reads it, else None.

    A top-level ERROR region counts when it starts with the keyword of a declaration
    markergen reads: that is a type or const declaration tree-sitter could not parse.
    """
    kind = _READ.get(node.type)
    if kind is None and node.type == "ERROR" and node.children:
        kind = _READ_KEYWORDS.get(node.children[0].type)
    if kind is None:
        return None
    if kind in ("type", "const"):
        name = _first_name(node, text)
        return f"{kind} {name}" if name else f"a {kind} declaration"
    return kind


def _first_name(node: Node, text: Callable[[Node], str]) -> str:
    stack = [node]
    while stack:
        n = stack.pop(0)
        if n.type in ("type_identifier", "identifier") and n.parent is not None and n.parent.type in (
            "type_spec", "type_alias", "const_spec", "ERROR", "type_declaration", "const_declaration"
        ):
            return text(n)
        stack.extend(n.children)
    return ""
