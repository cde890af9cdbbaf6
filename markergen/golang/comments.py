"""Comment groups and how they attach to declarations, as go/parser attaches them.

A declaration list (the file, a `type (...)` or `const (...)` group, a struct's field
list) is turned into a sequence of items: its child nodes, and its comments gathered
into groups. A group ending on the line right above a node is the node's doc; a group
starting on the line where a node ends is its trailing (line) comment.
"""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from markergen.golang.source import Source
from markergen.golang.syntax import (
    BlockCommentLine,
    CommentGroup,
    CommentLine,
    Position,
    comment_line,
)


@dataclass(frozen=True, slots=True)
class Group:
    """A comment group with the rows it spans (0-based tree-sitter rows)."""

    group: CommentGroup
    first_row: int
    last_row: int
    trailing: bool  # starts on the line where the preceding code ends


Item = Node | Group

_SLASH = ord("/")


def comment_lines(src: Source, node: Node) -> list[CommentLine]:
    """The lines of one comment node: text after `//` (or inside `/* */`), with positions."""
    row, column = node.start_point
    return _lines(src, node.start_byte, node.end_byte, row, column)


def _lines(src: Source, start: int, end: int, row: int, column: int) -> list[CommentLine]:
    raw = src.data[start:end]
    if src.ascii:
        first = Position(src.path, row + 1, column + 3)
        text = raw.decode("ascii")
    else:
        first = src.position(start + 2, row, column + 2)
        text = raw.decode("utf-8")
    if text.startswith("//"):
        return [CommentLine(text[2:].removesuffix("\r"), first)]
    # A /* */ block: one line per source line; the first starts after `/*`, the others
    # at column 1, and the last stops before `*/`.
    body = text[2:].removesuffix("*/")
    lines: list[CommentLine] = []
    for i, part in enumerate(body.split("\n")):
        pos = first if i == 0 else Position(src.path, row + i + 1, 1)
        lines.append(BlockCommentLine(part.removesuffix("\r"), pos))
    return lines


def items(src: Source, children: list[Node]) -> list[Item]:
    """The children of a declaration list with their comments gathered into groups.

    A group is cut at a blank line, and also where a trailing comment (one starting on
    the line where the previous code ends) meets the comment lines below it, as in
    go/parser: `X int // about X` never belongs to the doc of the next field.
    """
    # Node properties are read once per node, and a comment's lines are made as soon as
    # it is seen: every tree-sitter property access builds a new Python object, and this
    # loop runs over every comment of an API tree.
    out: list[Item] = []
    pending: list[CommentLine] = []
    pending_first = pending_last = -1  # rows of the pending group
    pending_trailing = False
    code_end_row = -1
    data, path, ascii_only = src.data, src.path, src.ascii

    for child in children:
        if child.type == "comment":
            row, column = child.start_point
            trailing = row == code_end_row
            if pending and (trailing != pending_trailing or row > pending_last + 1):
                out.append(
                    Group(CommentGroup(tuple(pending)), pending_first, pending_last,
                          pending_trailing)
                )
                pending = []
            if not pending:
                pending_trailing = trailing
                pending_first = row
            start = child.start_byte
            if data[start + 1] == _SLASH:
                # The common case, inline: a `//` comment is one line. Most files are
                # pure ASCII, where a byte column is a character column.
                text = data[start + 2 : child.end_byte].decode("utf-8")
                if ascii_only:
                    pending.append(comment_line(text.removesuffix("\r"), path, row + 1,
                                                column + 3))
                else:
                    pending.append(CommentLine(text.removesuffix("\r"),
                                               src.position(start + 2, row, column + 2)))
                pending_last = row
            else:
                pending.extend(_lines(src, start, child.end_byte, row, column))
                pending_last = child.end_point[0]
            continue
        start_row = child.start_point[0]
        if pending:
            if pending_trailing and start_row == pending_last:
                # `X int /* c */ }`: code follows on the same line, so go/parser makes the
                # comment neither a line comment nor a doc.
                pending_trailing = False
            out.append(
                Group(CommentGroup(tuple(pending)), pending_first, pending_last, pending_trailing)
            )
            pending = []
        out.append(child)
        code_end_row = child.end_point[0]
    if pending:
        out.append(
            Group(CommentGroup(tuple(pending)), pending_first, pending_last, pending_trailing)
        )
    return out


def doc_of(seq: list[Item], index: int) -> Group | None:
    """The group ending on the line directly above the node at `index`."""
    node = seq[index]
    assert isinstance(node, Node)
    if index > 0:
        prev = seq[index - 1]
        if (
            isinstance(prev, Group)
            and not prev.trailing
            and prev.last_row == node.start_point.row - 1
        ):
            return prev
    return None


def extra_doc_of(seq: list[Item], index: int, doc: Group | None) -> CommentGroup | None:
    """The group one blank line above `doc` (or above the node when it has no doc).

    Trailing comments of the code above never count, and nothing but the blank line may
    stand between (the sequence holds every node of the list, so adjacency says that).
    """
    node = seq[index]
    assert isinstance(node, Node)
    above, row = (index - 2, doc.first_row) if doc else (index - 1, node.start_point.row)
    if above >= 0:
        prev = seq[above]
        if isinstance(prev, Group) and not prev.trailing and prev.last_row == row - 2:
            return prev.group
    return None


def trailing_of(seq: list[Item], index: int) -> CommentGroup | None:
    """The comment group starting on the line where the node at `index` ends."""
    node = seq[index]
    assert isinstance(node, Node)
    if index + 1 < len(seq):
        nxt = seq[index + 1]
        if isinstance(nxt, Group) and nxt.trailing and nxt.first_row == node.end_point.row:
            return nxt.group
    return None
