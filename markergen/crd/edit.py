"""Whole-line edits of a text: lines inserted before a line, line ranges deleted.

markergen never rewrites a CRD line it did not write: every change is an insertion of
whole lines at a node's mark, or (for rules it wrote on an earlier run that are now
stale) the deletion of exactly those lines.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class LineEdits:
    inserts: dict[int, list[str]] = field(default_factory=dict)
    deleted: set[int] = field(default_factory=set)

    def insert(self, line: int, text: str) -> None:
        """Insert `text` (whole lines, each ending with a newline) before 0-based `line`.
        The same text at the same line is inserted once: a schema node that two versions
        share through a YAML alias (`schema: *schema`) is patched for each of them."""
        if text and text not in self.inserts.get(line, ()):
            self.inserts.setdefault(line, []).append(text)

    def delete(self, start: int, end: int) -> None:
        """Delete the 0-based lines start..end-1."""
        self.deleted.update(range(start, end))

    def __bool__(self) -> bool:
        return bool(self.inserts or self.deleted)

    def apply(self, lines: list[str]) -> str:
        out: list[str] = []
        for i in range(len(lines) + 1):
            added = self.inserts.get(i)
            if added:
                if out and not out[-1].endswith(("\n", "\r")):
                    out[-1] += "\n"  # a last line without a line break gets one before ours
                out.extend(added)
            if i < len(lines) and i not in self.deleted:
                out.append(lines[i])
        return "".join(out)
