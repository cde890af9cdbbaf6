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

Two readings give the same attachments. `items` makes every group of a list, and is
what a list with a syntax error is read with (ERROR nodes are items too). A list
without one is read a gap at a time (`gap`, through `parser._FileReader.attached`): only
the groups a declaration keeps are made (the trailing comment of the code above the
gap, the doc of the code below it and the group one blank line above that doc), and a
gap of white space and `//` lines, the usual one, is cut into its lines instead of
walked comment by comment.

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

import re

from tree_sitter import Node

from markergen.golang.source import Source
from markergen.golang.syntax import (
    BlockCommentLine,
    CommentGroup,
    CommentLine,
    Position,
    comment_line,
    deferred_group,
)

# A comment's bytes in the prepared source: (start, end, row), 0-based row.
Span = tuple[int, int, int]


class Group:
    """A comment group with the rows it spans (0-based tree-sitter rows); its
    `CommentGroup` is made on first use, and makes its line records from the group's
    bytes when they are first read."""

    __slots__ = ("_end", "_group", "_spans", "_src", "_start", "first_row", "last_row",
                 "slashes", "trailing")  # fmt: skip

    def __init__(
        self,
        src: Source,
        spans: list[Span] | None,
        first_row: int,
        last_row: int,
        trailing: bool,
        slashes: bool,
        start: int = -1,
        end: int = -1,
    ) -> None:
        self._src = src
        # None: `//` lines only, one a row, from `start` to `end` (found when needed)
        self._spans = spans
        self._start = start
        self._end = end
        self._group: CommentGroup | None = None
        self.first_row = first_row
        self.last_row = last_row
        self.trailing = trailing  # starts on the line where the preceding code ends
        self.slashes = slashes  # every comment is a `//` line: line i is comment i

    @property
    def group(self) -> CommentGroup:
        if self._group is None:
            # The lines' source is an object of its own: were it this group, the two
            # would hold each other, and a cycle outlives its last use while the
            # collector is paused (markergen.gcpause), with the file's bytes.
            spans = self._spans
            self._group = deferred_group(
                _LineRun(self._src, self.first_row, self._start, self._end)
                if spans is None
                else _Lines(self._src, spans, self.slashes)
            )
        return self._group


def has_marker_line(group: CommentGroup) -> bool:
    """Whether a line's text starts with `+` after white space."""
    return any(text.lstrip().startswith("+") for text in group.texts)


class _LineRun:
    """The lines of a group of `//` comments one a row, from the first `//` at `start`
    to the end of the last line at `end`: every line but the first holds only white
    space before its `//` (the first may follow code: a trailing comment). The usual
    group: its lines are found by splitting the group's text at line ends
    (`syntax.LineSource`)."""

    __slots__ = ("_end", "_row", "_src", "_start", "_texts")

    def __init__(self, src: Source, row: int, start: int, end: int) -> None:
        self._src = src
        self._row = row  # the first line's 0-based row
        self._start = start
        self._end = end
        self._texts: tuple[str, ...] | None = None

    def _split(self) -> list[str]:
        """The group's text cut at line ends (the first line from its `//`)."""
        return self._src.data[self._start : self._end].decode("utf-8").split("\n")

    def texts(self, lines: list[str] | None = None) -> tuple[str, ...]:
        """Every line's text (`syntax.LineSource.texts`); `lines`: `_split()`'s, when
        the caller has them."""
        texts = self._texts
        if texts is None:
            found = [line.lstrip(_INDENT)[2:] for line in lines or self._split()]
            if self._src.data.find(b"\r", self._start, self._end) >= 0:
                found = [text.removesuffix("\r") for text in found]
            texts = self._texts = tuple(found)
        return texts

    def __call__(self) -> tuple[CommentLine, ...]:
        src = self._src
        path = src.path
        lines = self._split()
        texts = self.texts(lines)
        out = [self.line(0)]
        row = self._row + 2  # 1-based, of the second line
        for i in range(1, len(lines)):
            line = lines[i]
            # after white space, which is ASCII: its characters are its bytes
            column = len(line) - len(line.lstrip(_INDENT)) + 3
            out.append(comment_line(texts[i], path, row, column))
            row += 1
        return tuple(out)

    def line(self, index: int) -> CommentLine:
        """The record of line `index` alone (`syntax.LineSource.line`)."""
        src = self._src
        data = src.data
        text = self.texts()[index]
        row = self._row + index
        start = self._start
        if index:
            # `index` line ends below the first (or, for a line in the lower half, where
            # markers mostly stand, counted up from the last line); after white space
            # (ASCII: its characters are its bytes) the line's first `/` starts its `//`
            end = self._end
            above = len(self.texts()) - index
            if above <= index:
                start = end + 1
                for _ in range(above):
                    start = data.rfind(b"\n", self._start, start - 1) + 1
            else:
                for _ in range(index):
                    start = data.find(b"\n", start, end) + 1
            return comment_line(text, src.path, row + 1, data.find(b"/", start, end) - start + 3)
        column = start - (data.rfind(b"\n", 0, start) + 1)  # in bytes
        if src.ascii:
            return comment_line(text, src.path, row + 1, column + 3)
        return CommentLine(text, src.position(start + 2, row, column + 2))


class _Lines:
    """The lines of any other comment group: each comment's bytes and row
    (`syntax.LineSource`)."""

    __slots__ = ("_spans", "_src", "_texts", "slashes")

    def __init__(self, src: Source, spans: list[Span], slashes: bool) -> None:
        self._src = src
        self._spans = spans
        self._texts: tuple[str, ...] | None = None
        self.slashes = slashes  # every comment is a `//` line: line i is comment i

    def __call__(self) -> tuple[CommentLine, ...]:
        src = self._src
        data, path, ascii_only = src.data, src.path, src.ascii
        texts = self.texts() if self.slashes else None
        out: list[CommentLine] = []
        for i, (start, end, row) in enumerate(self._spans):
            line_start = data.rfind(b"\n", 0, start) + 1
            column = start - line_start  # in bytes
            if data[start + 1] == _SLASH:
                if texts is not None:
                    text = texts[i]
                else:  # a `//` line of a group with `/* */` comments too
                    text = data[start + 2 : end].decode("utf-8").removesuffix("\r")
                if ascii_only:
                    out.append(comment_line(text, path, row + 1, column + 3))
                else:
                    out.append(CommentLine(text, src.position(start + 2, row, column + 2)))
            else:
                out.extend(_block_lines(src, start, end, row, column))
        return tuple(out)

    def texts(self) -> tuple[str, ...]:
        """Every line's text (`syntax.LineSource.texts`)."""
        texts = self._texts
        if texts is not None:
            return texts
        data = self._src.data
        if not self.slashes:
            # from the bytes, as for `//` lines: the records would be made only to be
            # dropped (a file's `/* */` license header is read for its texts alone)
            found = []
            for start, end, _ in self._spans:
                if data[start + 1] == _SLASH:
                    found.append(data[start + 2 : end].decode("utf-8").removesuffix("\r"))
                else:
                    found.extend(_block_texts(data, start, end))
            texts = tuple(found)
        else:
            first, last = self._spans[0][0], self._spans[-1][1]
            if self._src.ascii:
                # One decode for the group; a byte offset is a character offset.
                region = data[first:last].decode("ascii")
                found = [region[s + 2 - first : e - first] for s, e, _ in self._spans]
            else:
                found = [data[s + 2 : e].decode("utf-8") for s, e, _ in self._spans]
            if data.find(b"\r", first, last) >= 0:
                found = [text.removesuffix("\r") for text in found]
            texts = tuple(found)
        self._texts = texts
        return texts

    def line(self, index: int) -> CommentLine:
        """The record of line `index` alone (`syntax.LineSource.line`)."""
        if not self.slashes:
            return self()[index]
        src = self._src
        start, _, row = self._spans[index]
        column = start - (src.data.rfind(b"\n", 0, start) + 1)  # in bytes
        text = self.texts()[index]
        if src.ascii:
            return comment_line(text, src.path, row + 1, column + 3)
        return CommentLine(text, src.position(start + 2, row, column + 2))


# What may stand before `//` on a line of a gap of `//` lines (white space, as bytes'
# `strip` has it, without the newline).
_INDENT = " \t\r\f\v"


_SLASH = ord("/")
_STAR = ord("*")


def _block_lines(src: Source, start: int, end: int, row: int, column: int) -> list[CommentLine]:
    """The lines of a `/* */` block: one per source line; the first starts after `/*`,
    the others at column 1, and the last stops before `*/`."""
    if src.ascii:
        first = Position(src.path, row + 1, column + 3)
    else:
        first = src.position(start + 2, row, column + 2)
    lines: list[CommentLine] = []
    for i, text in enumerate(_block_texts(src.data, start, end)):
        pos = first if i == 0 else Position(src.path, row + i + 1, 1)
        lines.append(BlockCommentLine(text, pos))
    return lines


def _block_texts(data: bytes, start: int, end: int) -> list[str]:
    """The texts of the lines of the `/* */` block `data[start:end]`."""
    body = data[start + 2 : end].decode("utf-8").removesuffix("*/")
    return [part.removesuffix("\r") for part in body.split("\n")]


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
    data = src.data
    if not _LINE_COMMENT.sub(b"", data[start:end]).strip():
        # White space and `//` comments only (the usual gap between two fields or
        # declarations): every group of it is made of `//` lines. (Found by removing
        # the comments, one left-to-right scan as `_comments` reads them: a regular
        # expression matching the whole gap backtracks exponentially on a gap it does
        # not match, as one with a `/*` after comment lines holding `//` or ending in
        # blanks.)
        _add_line_groups(src, out, start, end, row, code_end_row, next_row)
        return
    spans = _comments(data, start, end, row)
    if spans is None:
        spans = [
            (c.start_byte, c.end_byte, c.start_point[0])
            for c in children
            if c.type == "comment" and start <= c.start_byte < end
        ]
    if not spans:
        return
    pending: list[Span] = []
    first = last = -1
    trailing = False
    slashes = True
    for span in spans:
        s_start, s_end, s_row = span
        is_trailing = s_row == code_end_row
        if pending and (is_trailing != trailing or s_row > last + 1):
            out.append(Group(src, pending, first, last, trailing, slashes))
            pending = []
            slashes = True
        if not pending:
            trailing = is_trailing
            first = s_row
        pending.append(span)
        if data[s_start + 1] == _SLASH:
            last = s_row
        else:
            last = s_row + data.count(b"\n", s_start, s_end)
            slashes = False
    if trailing and next_row == last:
        # `X int /* c */ }`: code follows on the same line, so go/parser makes the
        # comment neither a line comment nor a doc.
        trailing = False
    out.append(Group(src, pending, first, last, trailing, slashes))


_LINE_COMMENT = re.compile(rb"//[^\n]*")


def _add_line_groups(
    src: Source,
    out: list[Item],
    start: int,
    end: int,
    row: int,
    code_end_row: int,
    next_row: int,
) -> None:
    """`_add_groups` for a gap of white space and `//` lines, without a step per line: a comment
    on the row where the code before ends is a group of its own, the others are cut
    into groups at blank lines (every comment runs to the end of its line)."""
    data = src.data
    first = data.find(b"//", start, end)
    if first < 0:
        return
    row += data.count(b"\n", start, first)
    if row == code_end_row:
        stop = data.find(b"\n", first, end)
        if stop < 0:
            stop = end
        # as in `_add_groups`: code on the same line makes it no line comment
        out.append(Group(src, None, row, row, next_row != row, True, first, stop))
        first = data.find(b"//", stop, end)
        if first < 0:
            return
        row += data.count(b"\n", stop, first)
    for cut in _BLANK_LINES.finditer(data, first, end):
        cut_at = cut.start()
        last = row + data.count(b"\n", first, cut_at)
        out.append(Group(src, None, row, last, False, True, first, cut_at))
        first = data.find(b"//", cut.end(), end)
        if first < 0:
            return
        row = last + data.count(b"\n", cut_at, first)
    # the last group ends where the line of its last comment ends
    stop = data.find(b"\n", data.rfind(b"//", first, end), end)
    if stop < 0:
        stop = end
    last = row + data.count(b"\n", first, stop)
    out.append(Group(src, None, row, last, False, True, first, stop))


# Two or more line ends with only white space between: a blank line, which ends a group.
_BLANK_LINES = re.compile(rb"\n\s*\n")


Gap = tuple[CommentGroup | None, CommentGroup | None, CommentGroup | None]


def gap(
    src: Source,
    children: list[Node],
    start: int,
    end: int,
    code_end_row: int,
    next_node: Node | None,
    want_trailing: bool,
    want_doc: bool,
) -> Gap:
    """The groups of a gap with comments in a list without syntax errors, between code
    ending at `start` on `code_end_row` and `next_node` starting at `end` (None: the
    end of the list), as `items` would attach them: (the trailing comment of the code above, the doc of the code
    below, the group one blank line above that doc or code). Only what is wanted is
    made.

    A gap of white space and `//` comments (the usual one between two fields or
    declarations) is cut into its lines: a line holding a `/` is a comment line, any
    other is blank (a comment runs to its line's end), so the doc is the run of
    comment lines right above the code below, and the group above it the run ending
    on the line above the blank line above the doc."""
    data = src.data
    # (`*` first: a search for one byte is memchr, one for two bytes is not.)
    if (data.find(b"*", start, end) >= 0 and data.find(b"/*", start, end) >= 0) or (
        # In ASCII text the white space tree-sitter skips is what bytes' `strip` strips;
        # else it is checked as `_add_groups` checks it.
        not src.ascii
        and not data[start:end].isascii()
        and _LINE_COMMENT.sub(b"", data[start:end]).strip()
    ):
        next_row = -1 if next_node is None else next_node.start_point[0]
        return _any_gap(
            src, children, start, end, code_end_row, next_row, want_trailing, want_doc
        )
    nl = data.find(b"\n", start, end)  # ends the line of the code above
    if nl < 0:  # the end of the list
        nl = end
    trailing = None
    if want_trailing:
        # (one-byte searches: a `/` in a gap of white space and `//` comments starts one)
        first = data.find(b"/", start, nl)
        if first >= 0:
            trailing = deferred_group(_LineRun(src, code_end_row, first, nl))
    if not want_doc:
        return trailing, None, None
    # The gap's lines below the code above; the last is the indentation of the code
    # below, line i of the others is on row code_end_row + 1 + i.
    lines = data[nl + 1 : end].split(b"\n")
    above = len(lines) - 2  # the line above the code below
    doc = extra = None
    row = code_end_row + 1
    stop = end - len(lines[-1]) - 1  # where lines[above] ends
    if above >= 0 and b"/" in lines[above]:
        doc, top, stop = _run_above(src, lines, row, above, stop)
        above = top - 1  # a blank line, if any
    # lines[above] is blank: a group ending on the line above it is the extra doc
    if above >= 1 and b"/" in lines[above - 1]:
        extra = _run_above(src, lines, row, above - 1, stop - len(lines[above]) - 1)[0]
    return trailing, doc, extra


def _run_above(
    src: Source, lines: list[bytes], row: int, last: int, stop: int
) -> tuple[CommentGroup, int, int]:
    """The group of `//` lines ending on `lines[last]`, which ends at byte `stop`; the
    index of its first line; where the line above that ends. `lines` are a gap's lines,
    line i on row `row + i`, and a line holding a `/` is a comment line."""
    top = last
    line_start = stop - len(lines[last])
    while top and b"/" in lines[top - 1]:
        top -= 1
        line_start -= len(lines[top]) + 1
    run = _LineRun(src, row + top, line_start + lines[top].find(b"/"), stop)
    return deferred_group(run), top, line_start - 1


def _any_gap(
    src: Source,
    children: list[Node],
    start: int,
    end: int,
    code_end_row: int,
    next_row: int,
    want_trailing: bool,
    want_doc: bool,
) -> Gap:
    """`gap` for any gap (`/* */` comments, white space beyond ASCII), through
    `_add_groups`."""
    groups: list[Item] = []
    _add_groups(src, groups, children, start, end, code_end_row, code_end_row, next_row)
    trailing = doc = extra = None
    if groups:
        first = groups[0]
        assert isinstance(first, Group)
        if want_trailing and first.trailing:
            trailing = first.group
        if want_doc:
            above, row = len(groups) - 1, next_row
            last = groups[above]
            assert isinstance(last, Group)
            if not last.trailing and last.last_row == next_row - 1:
                doc = last.group
                above, row = above - 1, last.first_row
            if above >= 0:
                prev = groups[above]
                assert isinstance(prev, Group)
                if not prev.trailing and prev.last_row == row - 2:
                    extra = prev.group
    return trailing, doc, extra


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
