"""Reading the markers of one declaration, with the diagnostics reading can find.

MG003 (did you mean), MG004 (malformed) and MG005 (wrong kind of declaration) are
found here, once, so the rest of the builder sees only well-formed markers in the
right place.
"""

from __future__ import annotations

from collections.abc import Iterable

from markergen import hints
from markergen.diagnostics import Diagnostic, diag
from markergen.golang.syntax import CommentGroup
from markergen.markers import (
    LineCache,
    Marker,
    MarkerError,
    Registry,
    Target,
    parse_line,
)

_TARGET_WORDS = {
    Target.PACKAGE: "a package",
    Target.TYPE: "a type",
    Target.FIELD: "a field",
    Target.CONST: "a constant",
    Target.VAR: "a variable",
    Target.FUNC: "a function",
}

# Endings that close what a marker line most often leaves open (MG004's hint tries
# each and offers the first that parses).
_CLOSINGS = (")", '")', '"', "`)", "`")


def _declared_name(subject: str) -> str:
    """The Go name a subject (`field Shape.Circle`, `type Shape`) declares."""
    return subject.rsplit(" ", 1)[-1].rsplit(".", 1)[-1]


class MarkerReader:
    def __init__(self, registry: Registry) -> None:
        self._registry = registry
        self.diagnostics: list[Diagnostic] = []
        # Unknown names repeat across a tree (`+k8s:openapi-gen`, `+protobuf`...), and
        # the edit-distance search is the costly part of reading markers.
        self._suggestions: dict[str, str | None] = {}
        self._lines = LineCache(registry)
        # Per target, the marker names `_accept` takes there without a word, whatever
        # the marker's wrappers: nearly every marker of a tree, looked up once.
        self._quiet: dict[Target, set[str]] = {t: set() for t in Target}

    def read(
        self, groups: Iterable[CommentGroup | None], target: Target, subject: str
    ) -> tuple[Marker, ...]:
        """The markers of the comment groups of one declaration, in source order.

        `subject` names the declaration in messages (`field Union.FieldA`).
        """
        found: list[Marker] = []
        quiet = self._quiet[target]
        for group in groups:
            if group is None:
                continue
            markers, errors = self._lines.group(group)
            for err in errors:
                self._malformed(err, subject)
            for marker in markers:
                if marker.name in quiet or self._accept(marker, target, subject):
                    found.append(marker)
        return tuple(found)

    def _malformed(self, err: MarkerError, subject: str) -> None:
        name = _prose_name(err.raw)
        if name is not None:
            self._prose(err, name, subject)
            return
        fixed = self._repair(err)
        self.diagnostics.append(
            diag(
                "MG004",
                err.pos,
                f"malformed marker `{err.raw}` on {subject}: {err.message}",
                hint=hints.edits(
                    hints.replace(fixed, err.raw),
                    otherwise="write it as `markergen explain MG004` shows",
                )
                if fixed is not None
                else None,
            )
        )

    def _prose(self, err: MarkerError, name: str, subject: str) -> None:
        """`+optional, default GET`, `+required - the API URL`: controller-gen takes the
        text before `=` as the marker's name (markers.splitMarker), knows no marker of
        that name, and ignores the line; gengo does the same. So does markergen, with a
        warning: the field is not marked `+{name}`."""
        self.diagnostics.append(
            diag(
                "MG025",
                err.pos,
                f"`{err.raw}` on {subject} is no marker: controller-gen and gengo read the "
                f"whole text as a marker name they do not know and ignore the line, so "
                f"{subject} is not marked `+{name}`",
                hint=hints.edits(
                    hints.replace(f"+{name}", err.raw),
                    otherwise="drop the `+` to keep the line as prose",
                ),
            )
        )

    def _repair(self, err: MarkerError) -> str | None:
        """The nearest well-formed marker line: the line closed, or cut before what
        cannot be read (a stray flag, a space in a value, an empty `=`)."""
        raw = err.raw
        candidates = [raw + c for c in _CLOSINGS]
        for sep in (",", " ", "="):
            at = raw.rfind(sep)
            if at > 0:
                candidates.append(raw[:at].rstrip())
        for text in candidates:
            if isinstance(parse_line(text, err.pos, self._registry), Marker):
                return text
        return None

    def _accept(self, marker: Marker, target: Target, subject: str) -> bool:
        definition = self._registry.get(marker.name)
        if definition is None:
            if marker.name not in self._suggestions:
                self._suggestions[marker.name] = self._registry.suggest(marker.name)
            suggestion = self._suggestions[marker.name]
            if suggestion is None:
                self._quiet[target].add(marker.name)
            else:
                self.diagnostics.append(
                    diag(
                        "MG003",
                        marker.pos,
                        f"unknown marker `+{marker.name}` on {subject}; "
                        f"did you mean `+{suggestion}`?",
                        hint=hints.edits(
                            hints.replace(f"+{suggestion}", f"+{marker.name}"),
                            otherwise=f"keep `+{marker.name}` if another generator reads it, "
                            "and ignore this warning",
                        ),
                    )
                )
            return True  # unknown markers are kept: other generators may read them
        if target in definition.targets:
            self._quiet[target].add(marker.name)
            return True
        if marker.via and target in (Target.FIELD, Target.TYPE):
            # `+k8s:item(...)=+k8s:unionMember` on a list type: the payload applies to a
            # part of the value; the k8s dialect checks where (MG115-MG119)
            return True
        if not definition.union_or_enum:
            # Markers of other generators are tolerated anywhere, as gengo tolerates them.
            self._quiet[target].add(marker.name)
            return True
        allowed = " or ".join(_TARGET_WORDS[t] for t in Target if t in definition.targets)
        self.diagnostics.append(
            diag(
                "MG005",
                marker.pos,
                f"`+{marker.name}` on {subject} has no effect: "
                f"it belongs on {allowed}, not on {_TARGET_WORDS[target]}",
                hint=hints.edits(
                    hints.remove(hints.marker_line(marker.raw), _declared_name(subject)),
                    otherwise=f"move it to the comment of {allowed} it is meant for",
                ),
            )
        )
        return False


def _prose_name(raw: str) -> str | None:
    """The marker name a line starts with when white space follows it before any `=`
    or `(` (`+optional, default GET`, `+required - prose`), else None. controller-gen's
    name is everything before `=`: white space in it names no marker of any tool. A
    `(`-argument list may hold spaces (`+k8s:unionMember(union: "u")`): not prose."""
    end = len(raw)
    for stop in ("=", "("):
        at = raw.find(stop)
        if at >= 0:
            end = min(end, at)
    head = raw[1:end]
    if not any(c.isspace() for c in head):
        return None
    name = head.split()[0].rstrip(",")
    return name or None

