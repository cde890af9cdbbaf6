"""Descriptions from doc comments, as kube-openapi's openapi-gen writes them.

Expected strings are worked out by hand from go/ast's CommentGroup.Text() and
openapi-gen's generateDescription (kube-openapi pkg/generators/openapi.go), not copied
from this module's output.
"""

from __future__ import annotations

import pytest

from markergen.doctext import (
    _plain_description,
    comment_lines,
    description,
    format_description,
)
from markergen.golang.parser import GoParser
from markergen.golang.syntax import (
    CommentGroup,
    CommentLine,
    Position,
)


def group(*texts: str) -> CommentGroup:
    """A comment group of `//` lines; each text is what follows the `//`."""
    return CommentGroup(
        tuple(CommentLine(t, Position("t.go", 10 + i, 2)) for i, t in enumerate(texts))
    )


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        # lines of one paragraph are joined with single spaces
        ((" Foo is a thing.", " It does stuff."), "Foo is a thing. It does stuff."),
        # a blank line separates paragraphs
        ((" A.", "", " B."), "A.\n\nB."),
        # runs of blank lines are one blank line (go/ast), leading/trailing ones vanish
        (("", " A.", "", "", "", " B.", ""), "A.\n\nB."),
        # marker lines are instructions to generators, not prose
        ((" A.", " +optional", " B."), "A. B."),
        ((" A.", "", " +k8s:optional"), "A."),
        ((" +unionMember", " +optional"), ""),
        # a marker line is not blank: the paragraph breaks on both sides both stay,
        # and the second one deletes only the last newline of the first (openapi-gen)
        ((" A.", "", " +optional", "", " B."), "A.\n\n\nB."),
        # one-line TODOs are dropped, also when indented with spaces
        ((" A.", " TODO: fix this", "   TODO(x) later", " B."), "A. B."),
        # nothing after a line that is exactly ---
        ((" A.", " ---", " B."), "A."),
        ((" A.", "---", " B."), "A."),
        ((" A.", " ---  ", " B."), "A."),  # trailing space goes before the comparison
        # only an exact --- stops; an indented one is an indented line
        ((" A.", "  ---", " B."), "A.\n ---\nB."),
        ((" A.", " ----", " B."), "A. ---- B."),
        # indented lines keep their own line and their indentation
        (
            (" Example:", "   foo: bar", "   baz: 1", " After."),
            "Example:\n  foo: bar\n  baz: 1\nAfter.",
        ),
        ((" Example:", "\tfoo", " \tbar"), "Example:\n\tfoo\n\tbar"),
        # go/ast removes only the first space after //
        ((" A.", "  two"), "A.\n two"),
        # a leading indented line: the result is trimmed like Go's strings.TrimSpace
        (("   indented first", " then text"), "indented first\nthen text"),
        # trailing white space and carriage returns are not part of the text
        ((" A.  \r", " B.\t"), "A. B."),
        # no Go-source escaping: quotes, backslashes and | stay as written
        ((' Use "x" or \\"y\\" | z.',), 'Use "x" or \\"y\\" | z.'),
        # directives (no space after //) are not comment text (go/ast)
        (("go:generate stringer", " A.", "nolint:lll", "line foo.go:1", " B."), "A. B."),
        # ... but with a space, or with upper case, they are text
        ((" go:generate x", "Note:this"), "go:generate x Note:this"),
        # non-ASCII text is kept as is
        ((" Größe in µm.", " ok"), "Größe in µm. ok"),
    ],
)
def test_description(texts: tuple[str, ...], expected: str) -> None:
    assert description(group(*texts)) == expected


def test_description_of_nothing() -> None:
    assert description(None) == ""
    assert description(group()) == ""


def test_tab_indented_marker_is_dropped() -> None:
    # Deliberate difference: openapi-gen looks past spaces only and would keep
    # "\t+optional" as an indented line; markergen reads it as a marker.
    assert description(group(" A.", "\t+optional", " B.")) == "A. B."


def test_tab_indented_todo_is_kept_like_openapi_gen() -> None:
    assert description(group(" A.", "\tTODO x")) == "A.\n\tTODO x"


def test_enum_paragraph_appended_as_openapi_gen_does() -> None:
    #: the enum block follows the field description.
    enum_lines = ["", "Possible enum values:", ' - `"A"` is a.', ' - `"B"` is b.']
    got = description(group(" Type of the union.", " +unionDiscriminator"), enum_lines)
    assert got == 'Type of the union.\n\nPossible enum values:\n - `"A"` is a.\n - `"B"` is b.'


def test_extra_lines_are_cut_by_dashes_too() -> None:
    got = description(group(" A.", " ---", " internal"), ["", "Possible enum values:"])
    assert got == "A."


def test_extra_groups_and_none() -> None:
    got = description(group(" A."), None, group(" B."), "C.")
    assert got == "A. B. C."


def test_comment_lines_like_go_ast_text() -> None:
    assert comment_lines(group("", " A. ", "", "", "  b", "go:build x", "", "")) == [
        "A.",
        "",
        " b",
    ]
    assert comment_lines(None) == []


def test_format_description_on_gengo_lines() -> None:
    assert format_description(["Line one", "line two", "", "  code", "end"]) == (
        "Line one line two\n\n  code\nend"
    )


def test_real_go_file() -> None:
    src = (
        "package v1\n"
        "\n"
        "// DeploymentStrategy describes how to replace existing pods with new ones.\n"
        "// +union\n"
        "type DeploymentStrategy struct {\n"
        '\t// Type of deployment. Can be "Recreate" or "RollingUpdate".\n'
        "\t// Default is RollingUpdate.\n"
        "\t//\n"
        "\t// Example:\n"
        "\t//   type: Recreate\n"
        "\t// +optional\n"
        "\t// +unionDiscriminator\n"
        "\t// ---\n"
        "\t// Hidden.\n"
        '\tType string `json:"type,omitempty"`\n'
        "}\n"
    )
    f = GoParser().parse("apps/types.go", src.encode())
    decl = f.types[0]
    assert description(decl.doc) == (
        "DeploymentStrategy describes how to replace existing pods with new ones."
    )
    assert description(decl.type.fields[0].doc) == (
        'Type of deployment. Can be "Recreate" or "RollingUpdate". Default is RollingUpdate.'
        "\n\nExample:\n  type: Recreate"
    )


def test_paragraphs_of_plain_lines_are_read_in_one_pass() -> None:
    texts = (" First line", " goes on.", "", "", " +optional", "", " Second.", " +k8s:x", "")
    lines = tuple(CommentLine(t, Position("a.go", i + 1, 3)) for i, t in enumerate(texts))
    group = CommentGroup(lines)
    assert _plain_description(texts) is not None
    assert description(group) == format_description(comment_lines(group))
    assert description(group) == "First line goes on.\n\n\nSecond."
