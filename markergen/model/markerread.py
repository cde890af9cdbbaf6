"""Reading the markers of one declaration, with the diagnostics reading can find.

MG003 (did you mean), MG004 (malformed) and MG005 (wrong kind of declaration) are
found here, once, so the rest of the builder sees only well-formed markers in the
right place.
"""

from __future__ import annotations

from collections.abc import Iterable

from markergen.diagnostics import Diagnostic, diag
from markergen.golang.syntax import CommentGroup
from markergen.markers import LineCache, Marker, MarkerError, Registry, Target, parse_group

_TARGET_WORDS = {
    Target.PACKAGE: "a package",
    Target.TYPE: "a type",
    Target.FIELD: "a field",
    Target.CONST: "a constant",
}


class MarkerReader:
    def __init__(self, registry: Registry) -> None:
        self._registry = registry
        self.diagnostics: list[Diagnostic] = []
        # Unknown names repeat across a tree (`+k8s:openapi-gen`, `+protobuf`...), and
        # the edit-distance search is the costly part of reading markers.
        self._suggestions: dict[str, str | None] = {}
        self._lines = LineCache(registry)

    def read(
        self, groups: Iterable[CommentGroup | None], target: Target, subject: str
    ) -> tuple[Marker, ...]:
        """The markers of the comment groups of one declaration, in source order.

        `subject` names the declaration in messages (`field Union.FieldA`).
        """
        found: list[Marker] = []
        for group in groups:
            if group is None:
                continue
            markers, errors = parse_group(group, self._registry, self._lines)
            for err in errors:
                self._malformed(err, subject)
            for marker in markers:
                if self._accept(marker, target, subject):
                    found.append(marker)
        return tuple(found)

    def _malformed(self, err: MarkerError, subject: str) -> None:
        self.diagnostics.append(
            diag("MG004", err.pos, f"malformed marker `{err.raw}` on {subject}: {err.message}")
        )

    def _accept(self, marker: Marker, target: Target, subject: str) -> bool:
        definition = self._registry.get(marker.name)
        if definition is None:
            if marker.name not in self._suggestions:
                self._suggestions[marker.name] = self._registry.suggest(marker.name)
            suggestion = self._suggestions[marker.name]
            if suggestion is not None:
                self.diagnostics.append(
                    diag(
                        "MG003",
                        marker.pos,
                        f"unknown marker `+{marker.name}` on {subject}; "
                        f"did you mean `+{suggestion}`?",
                        hint=f"markergen ignores `+{marker.name}`; "
                        f"rename it to `+{suggestion}` if that was meant",
                    )
                )
            return True  # unknown markers are kept: other generators may read them
        if target in definition.targets:
            return True
        if marker.via and target in (Target.FIELD, Target.TYPE):
            # `+k8s:item(...)=+k8s:unionMember` on a list type: the payload applies to a
            # part of the value; the k8s dialect checks where (MG115-MG119)
            return True
        if not definition.union_or_enum:
            # Markers of other generators are tolerated anywhere, as gengo tolerates them.
            return True
        allowed = " or ".join(_TARGET_WORDS[t] for t in Target if t in definition.targets)
        self.diagnostics.append(
            diag(
                "MG005",
                marker.pos,
                f"`+{marker.name}` on {subject} has no effect: "
                f"it belongs on {allowed}, not on {_TARGET_WORDS[target]}",
            )
        )
        return False
