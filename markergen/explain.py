"""`markergen explain CODE`: the documentation of one checker rule.

The text lives in docs/rules.md, one section per catalog code, each starting with an
`<a id="mgNNN"></a>` anchor and a `## MGNNN: title` heading. The wheel ships that file
as `markergen/rules.md` (docs/ is not in the wheel); a source checkout reads docs/.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from markergen.diagnostics import CATALOG

_ANCHOR = re.compile(r'^<a id="(mg\d{3})"></a>\s*$', re.MULTILINE)
_FENCE = r"^```{lang}\n(.*?)^```"


class ExplainError(Exception):
    """An unknown code or missing documentation; the message is for the user."""


def _read_rules_doc() -> str:
    packaged = resources.files("markergen").joinpath("rules.md")
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    source = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
    if source.is_file():
        return source.read_text(encoding="utf-8")
    raise ExplainError(
        "the rule documentation (markergen/rules.md or docs/rules.md) is not installed"
    )


def sections(text: str | None = None) -> dict[str, str]:
    """Code → its section of rules.md (heading included, anchor excluded)."""
    doc = _read_rules_doc() if text is None else text
    found: dict[str, str] = {}
    anchors = list(_ANCHOR.finditer(doc))
    for i, match in enumerate(anchors):
        end = anchors[i + 1].start() if i + 1 < len(anchors) else len(doc)
        body = doc[match.end() : end].strip()
        # A closing part of the document (after the last rule) starts with a level-1/2
        # heading that is not a rule; cut the last section there.
        tail = re.search(r"^#{1,2} (?!MG\d{3}:)", body, re.MULTILINE)
        if tail is not None:
            body = body[: tail.start()].rstrip()
        found[match.group(1).upper()] = body
    return found


def normalize_code(code: str) -> str:
    wanted = code.strip().upper()
    if wanted not in CATALOG:
        raise ExplainError(f"unknown code {code!r}; known codes: {', '.join(sorted(CATALOG))}")
    return wanted


def explain(code: str) -> str:
    """The documentation of `code` (case-insensitive), ending with a newline."""
    wanted = normalize_code(code)
    section = sections().get(wanted)
    if section is None:
        raise ExplainError(f"{wanted} has no section in the rule documentation")
    return section + "\n"


def summary(code: str, docs: dict[str, str] | None = None) -> str | None:
    """The first explanatory paragraph of a code's section, or None without docs."""
    try:
        table = sections() if docs is None else docs
    except ExplainError:
        return None
    section = table.get(code)
    if section is None:
        return None
    paragraphs = [p.strip() for p in section.split("\n\n")]
    # Skip the heading and the severity / source line.
    for p in paragraphs[1:]:
        if p and not p.startswith(("**Severity", "#", "```")):
            return " ".join(p.split())
    return None


def examples(section: str, lang: str = "go") -> tuple[str, str]:
    """The bad and the good example of a section (first and second `lang` block).

    Checker codes have Go examples; the CRD codes (MG5xx) have `yaml` ones.
    """
    fence = re.compile(_FENCE.format(lang=re.escape(lang)), re.MULTILINE | re.DOTALL)
    blocks = [m.group(1) for m in fence.finditer(section)]
    if len(blocks) < 2:
        raise ExplainError(f"section has fewer than two {lang} examples")
    return blocks[0], blocks[1]


_LINK = re.compile(r"\[([^\]]+)\]\(([^)]+)\)")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")


def to_plain_text(markdown: str) -> str:
    """A section of rules.md as a terminal shows it best: headings underlined, code blocks
    indented by four spaces, no emphasis markers, links as `text (address)`."""
    out: list[str] = []
    in_code = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            out.append(("    " + line).rstrip())
            continue
        heading = re.match(r"^#{1,6} (.*)$", line)
        if heading:
            title = _BOLD.sub(r"\1", heading.group(1))
            out += [title, "=" * len(title)]
            continue
        out.append(_LINK.sub(r"\1 (\2)", _BOLD.sub(r"\1", line)))
    return "\n".join(out).rstrip("\n") + "\n"
