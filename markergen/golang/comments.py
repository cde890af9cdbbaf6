"""Comment groups and how they attach to declarations, as go/parser attaches them.

A declaration list (the file, a `type (...)` or `const (...)` group, a struct's field
list) is turned into a sequence of items: its child nodes other than comments, and the
comment groups read from the bytes between them. A group ending on the line right above
a node is the node's doc; a group starting on the line where a node ends is its
trailing (line) comment.

Why bytes: between two consecutive children of a list there is only white space and
comments (tree-sitter keeps every token, punctuation included, as a child), so the
comments can be read from that gap with a few `find` calls instead of one tree-sitter
node per comment and five property reads each. The groups' line records (text and
position of every line) are built only when a consumer reads them (`CommentGroup.lines`):
trailing comments, method docs and license headers mostly never are.

go/parser's grouping, reproduced here:
- a group is cut at a blank line;
- a comment starting on the line where the previous code ends is a trailing comment and
  starts a group of its own; the comment lines below it are not part of that group
  (`X int // about X` never belongs to the doc of the next field);
- a `/* */` block spans its lines; a block after which code follows on the same line
  (`X int /* c */ }`) is neither a line comment nor a doc.
Columns count characters (`Source.position`).
"""

from __future__ import annotations

from tree_sitter import Node

from markergen.golang.source import Source
from markergen.golang.syntax import (
    BlockCommentLine,
    CommentGroup,
    CommentLine,
    Position,
    comment_line,
)

# A comment's bytes in the prepared source: (start, end, row), 0-based row.
Span = tuple[int, int, int]


class Group:
    """A comment group with the rows it spans (0-based tree-sitter rows); its
    `CommentGroup` is made on first use."""

    __slots__ = ("_group", "_spans", "_src", "first_row", "last_row", "trailing")

    def __init__(
        self, src: Source, spans: list[Span], first_row: int, last_row: int, trailing: bool
    ) -> None:
        self._src = src
        self._spans = spans
        self._group: CommentGroup | None = None
        self.first_row = first_row
        self.last_row = last_row
        self.trailing = trailing  # starts on the line where the preceding code ends

    @property
    def group(self) -> CommentGroup:
        if self._group is None:
            self._group = CommentGroup.deferred(_Lines(self._src, self._spans))
        return self._group

    def has_marker_line(self) -> bool:
        """Whether a line's text starts with `+` after white space, read from the bytes
        (`//` comments) without making the line records."""
        data = self._src.data
        for start, end, _ in self._spans:
            if data[start + 1] != _SLASH:
                return any(line.text.lstrip().startswith("+") for line in self.group.lines)
            if data[start + 2 : end].decode("utf-8").lstrip().startswith("+"):
                return True
        return False


class _Lines:
    """Makes a group's line records from its spans (called once, by CommentGroup)."""

    __slots__ = ("spans", "src")

    def __init__(self, src: Source, spans: list[Span]) -> None:
        self.src = src
        self.spans = spans

    def __call__(self) -> tuple[CommentLine, ...]:
        src = self.src
        data, path, ascii_only = src.data, src.path, src.ascii
        out: list[CommentLine] = []
        for start, end, row in self.spans:
            line_start = data.rfind(b"\n", 0, start) + 1
            column = start - line_start  # in bytes
            if data[start + 1] == _SLASH:
                text = data[start + 2 : end].decode("utf-8").removesuffix("\r")
                if ascii_only:
                    out.append(comment_line(text, path, row + 1, column + 3))
                else:
                    out.append(CommentLine(text, src.position(start + 2, row, column + 2)))
            else:
                out.extend(_block_lines(src, start, end, row, column))
        return tuple(out)


_SLASH = ord("/")
_STAR = ord("*")


def _block_lines(src: Source, start: int, end: int, row: int, column: int) -> list[CommentLine]:
    """The lines of a `/* */` block: one per source line; the first starts after `/*`,
    the others at column 1, and the last stops before `*/`."""
    if src.ascii:
        first = Position(src.path, row + 1, column + 3)
    else:
        first = src.position(start + 2, row, column + 2)
    body = src.data[start + 2 : end].decode("utf-8").removesuffix("*/")
    lines: list[CommentLine] = []
    for i, part in enumerate(body.split("\n")):
        pos = first if i == 0 else Position(src.path, row + i + 1, 1)
        lines.append(BlockCommentLine(part.removesuffix("\r"), pos))
    return lines


def comment_lines(src: Source, node: Node) -> list[CommentLine]:
    """The lines of one comment node: text after `//` (or inside `/* */`), with positions."""
    row = node.start_point[0]
    return list(_Lines(src, [(node.start_byte, node.end_byte, row)])())


Item = Node | Group


def _comments(data: bytes, start: int, end: int, row: int) -> list[Span] | None:
    """The comments in `data[start:end]`, which begins on `row`; None when the gap holds
    anything but white space and comments (then the caller reads the comment nodes).
    Most gaps (between the tokens of a declaration) hold no `/` at all: one C-level
    search answers them."""
    out: list[Span] = []
    i = start
    while True:
        j = data.find(b"/", i, end)
        if j < 0:
            return None if data[i:end].strip() else out
        if data[i:j].strip() or j + 1 >= end:
            return None
        row += data.count(b"\n", i, j)
        second = data[j + 1]
        if second == _SLASH:
            stop = data.find(b"\n", j, end)
            if stop < 0:
                stop = end
            out.append((j, stop, row))
        elif second == _STAR:
            stop = data.find(b"*/", j + 2, end)
            if stop < 0:
                return None
            stop += 2
            out.append((j, stop, row))
            row += data.count(b"\n", j, stop)
        else:
            return None
        i = stop


def items(src: Source, children: list[Node]) -> list[Item]:
    """The children of a declaration list other than comments, with the comments
    between them gathered into groups (see the module's doc for go/parser's rules)."""
    out: list[Item] = []
    code_end = -1  # byte where the previous code node ends (-1: none yet)
    code_end_row = -1
    gap_start = -1  # where the pending gap starts: the previous code's end or the first comment
    gap_row = -1
    commented = False  # a comment node stands in the pending gap
    for child in children:
        if child.type == "comment":
            # Only the node's type is read: its text and place come from the bytes.
            if not commented:
                commented = True
                if gap_start < 0:
                    gap_start = child.start_byte
                    gap_row = child.start_point[0]
            continue
        if commented:
            _add_groups(src, out, children, gap_start, child.start_byte, gap_row,
                        code_end_row, child.start_point[0])
            commented = False
        out.append(child)
        code_end = child.end_byte
        code_end_row = child.end_point[0]
        gap_start, gap_row = code_end, code_end_row
    if commented:
        _add_groups(src, out, children, gap_start, children[-1].end_byte, gap_row,
                    code_end_row, -1)
    return out


def _add_groups(
    src: Source,
    out: list[Item],
    children: list[Node],
    start: int,
    end: int,
    row: int,
    code_end_row: int,
    next_row: int,
) -> None:
    """Append the comment groups of the gap `src.data[start:end]` (beginning on `row`)
    between code ending on `code_end_row` (-1: none) and code starting on `next_row`
    (-1: none)."""
    spans = _comments(src.data, start, end, row)
    if spans is None:
        spans = [
            (c.start_byte, c.end_byte, c.start_point[0])
            for c in children
            if c.type == "comment" and start <= c.start_byte < end
        ]
    if not spans:
        return
    data = src.data
    pending: list[Span] = []
    first = last = -1
    trailing = False
    for span in spans:
        s_start, s_end, s_row = span
        is_trailing = s_row == code_end_row
        if pending and (is_trailing != trailing or s_row > last + 1):
            out.append(Group(src, pending, first, last, trailing))
            pending = []
        if not pending:
            trailing = is_trailing
            first = s_row
        pending.append(span)
        last = s_row if data[s_start + 1] == _SLASH else s_row + data.count(b"\n", s_start, s_end)
    if trailing and next_row == last:
        # `X int /* c */ }`: code follows on the same line, so go/parser makes the
        # comment neither a line comment nor a doc.
        trailing = False
    out.append(Group(src, pending, first, last, trailing))


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
