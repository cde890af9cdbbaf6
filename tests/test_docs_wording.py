"""Prose a newcomer reads (README, docs/, `--help`) without the slips of hand editing:
no doubled word, no "See." that names nothing, and `diff --help` names every kind of
side docs/diff.md documents."""

from __future__ import annotations

import re

from helpers import REPO, run_cli

PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def _prose(text: str) -> str:
    """The text outside code: fenced blocks and inline code spans removed."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return re.sub(r"`[^`]*`", "`code`", text)


def test_no_doubled_word_in_the_prose() -> None:
    # Within a paragraph: spaces, or one line break (a heading and the paragraph under
    # it may start with the same word).
    doubled = re.compile(r"\b([a-z]+)(?:[ \t]+\n?|\n)[ \t]*\1\b")
    found = [
        f"{page.name}: {m.group(0)!r}"
        for page in PAGES
        for m in doubled.finditer(_prose(page.read_text(encoding="utf-8")))
    ]
    assert found == []


def test_every_see_names_what_to_see() -> None:
    found = [
        f"{page.name}: {m.group(0)!r}"
        for page in PAGES
        for m in re.finditer(r"\bSee[.:]\s*(?=[A-Z\n]|$)", _prose(page.read_text(encoding="utf-8")))
    ]
    assert found == []


def test_diff_help_names_every_kind_of_side() -> None:
    res = run_cli(["diff", "--help"], REPO)
    assert res.code == 0
    text = " ".join(res.stdout.split())
    for side in ("git revision", "directory of Go packages", "JSON file", "CRD YAML file",
                 "directory of CRDs", "REV:PATH", "kubebuilder project"):  # fmt: skip
        assert side in text, side
