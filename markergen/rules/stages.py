"""Stage prefixes: MG324.

Source: validation-gen's `+k8s:alpha` / `+k8s:beta` (validators/levels.go): the optional
version argument must be `<major>.<minor>` ("invalid kubernetes version format").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from markergen.diagnostics import Diagnostic, diag
from markergen.markers import Marker
from markergen.model import Model
from markergen.rules.base import Rule

_VERSION = re.compile(r"^\d+\.\d+$")
_SINCE = re.compile(r"since\s*:\s*(\"[^\"]*\"|`[^`]*`|[^,)\s]+)")
_DIGITS = re.compile(r"(\d+)\.(\d+)")


def _markers(model: Model) -> Iterator[tuple[str, Marker]]:
    """The stage markers with a version (`m.since`), with what they are on (named only
    for these: a large tree has a marker or more on most fields)."""
    for key in sorted(model.structs):
        struct = model.structs[key]
        for m in struct.markers:
            if m.since:
                yield f"type {struct.name}", m
        for f in struct.fields:
            for m in f.markers:
                if m.since:
                    yield f"field {struct.name}.{f.go_name}", m
    for key in sorted(model.types):
        named = model.types[key]
        for m in named.markers:
            if m.since:
                yield f"type {named.name}", m


def check_since(model: Model) -> Iterator[Diagnostic]:
    """MG324."""
    for subject, m in _markers(model):
        if not m.stage or _VERSION.match(m.since):
            continue
        written = _SINCE.search(m.raw)
        digits = _DIGITS.search(m.since)
        fixed = f'since: "{digits.group(1)}.{digits.group(2)}"' if digits else ""
        if written is not None and fixed:
            hint = f"replace `{written.group(0)}` with `{fixed}` on this line"
        elif written is not None:
            hint = f"replace `({written.group(0)})` with `` on this line (the version is optional)"
        else:
            hint = 'write the version as `since: "<major>.<minor>"`, e.g. `since: "1.37"`'
        yield diag(
            "MG324",
            m.pos,
            f"`+k8s:{m.stage}` on {subject} gives version {m.since!r}: validation-gen rejects "
            "it (invalid kubernetes version format, expected <major>.<minor>)",
            hint=hint,
        )


RULES: tuple[Rule, ...] = (Rule("MG324", check_since),)
