"""Why the CRD plan (`markergen.crd.patch`) writes a rule or not: each finding carries a
reason, declared once below with the code and words of each command that reports it.

`markergen crd` says what it did ("no rules written"); `markergen check` says what `crd`
will do ("`markergen crd` writes no rules for this union"), under its own code where the
two differ (a rule withheld for a kept object: MG510 for crd, MG511 for check), and not at
all where check reports the cause itself (a union blocked by one of check's errors) or the
finding is about the CRD file alone (costs, stale enums, hand-written rules that cover a
union).

A finding about a Go union or member carries that Go place (`Finding.about`): the
project's `// markergen:ignore` comments silence it there, in both commands (`silence`).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from markergen.diagnostics import Diagnostic, Severity, diag
from markergen.golang.syntax import Position
from markergen.model.ignores import Ignore
from markergen.yamlio import PathKey

Command = Literal["crd", "check"]

# what each command says where a finding's rules are not written
_NOT_WRITTEN = {"crd": "; not written", "check": "; `markergen crd` will not write it"}
_NO_RULES = {
    "crd": "; no rules written",
    "check": "; `markergen crd` writes no rules for this union",
}
_NO_RULES_UNION = {
    "crd": "; no rules written for this union",
    "check": "; `markergen crd` writes no rules for this union",
}
_SAME = {"crd": "", "check": ""}


@dataclass(frozen=True)
class _Words:
    crd: str  # the code `markergen crd` reports
    check: str | None  # the code `markergen check` reports; None: check does not
    # check's diagnostic is the crd one, severity included; else check builds its own
    # (its code's own severity, its own words)
    same: bool
    tail: dict[str, str]  # by command: the words between a finding's text and its `after`


class Reason(enum.Enum):
    """Why a finding is made; its value says what each command reports (`_Words`)."""

    SKIPPED_MEMBER = _Words("MG501", None, True, _SAME)
    NO_ROOT_TYPE = _Words("MG502", None, True, _SAME)
    ENUM_DIFFERS = _Words("MG503", None, True, _SAME)
    NOT_READABLE = _Words("MG504", "MG504", True, _SAME)
    NOT_V1 = _Words("MG505", None, True, _SAME)
    # a union whose rules the proof cannot write (the CRD, the option, the list)
    UNPROVEN = _Words("MG506", "MG506", False, _NO_RULES)
    # a union with an error `markergen check` reports itself
    CHECK_ERROR = _Words("MG506", None, True, _NO_RULES)
    TEMPLATED = _Words("MG507", None, True, _SAME)
    HAND_ALLOWS = _Words("MG508", "MG508", False, _NO_RULES_UNION)
    HAND_CONTRADICTS = _Words("MG508", "MG508", False, _SAME)
    HAND_COVERS = _Words("MG509", None, True, _SAME)
    # a rule, or a discriminator's enum, that would reject a kept object
    REJECTS_KEPT = _Words("MG510", "MG511", False, _NOT_WRITTEN)
    TOO_COSTLY = _Words("MG512", None, True, _SAME)
    OBJECT_NOT_YAML = _Words("MG513", "MG513", True, _SAME)
    STALE_CRD = _Words("MG514", "MG514", True, _SAME)
    SERVER_REFUSED = _Words("MG515", "MG515", True, _SAME)
    KEPT_REJECTED = _Words("MG516", None, True, _SAME)

    @property
    def code(self) -> str:
        """The code `markergen crd` reports."""
        words: _Words = self.value
        return words.crd


@dataclass(frozen=True)
class Finding:
    """One finding of the plan. `where` is a position in Go or in a file, or a node of the
    CRD document being planned (placed by `place`); the message is `text`, the reason's
    words for the command, then `after`. With `once`, the finding is said the first time
    a run meets it only (feature-set variants and copies of a CRD repeat one union).
    `about` is the Go place the finding is about (the union's discriminator or member
    field, or its struct), where an ignore comment silences it (`silence`); None for a
    finding about a file alone."""

    reason: Reason
    where: Position | PathKey
    text: str
    after: str = ""
    severity: Severity | None = None
    hint: str | None = None
    once: tuple[Any, ...] | None = None
    about: Position | None = None

    def placed(self, pos: Position) -> Placed:
        return Placed(self.reason, pos, self.text, self.after, self.severity, self.hint, self.about)


@dataclass(frozen=True)
class Placed:
    """A finding at its position: what each command reports of it."""

    reason: Reason
    pos: Position
    text: str
    after: str = ""
    severity: Severity | None = None
    hint: str | None = None
    about: Position | None = None  # the Go place it is about (Finding.about)

    @property
    def codes(self) -> tuple[str, ...]:
        """The codes the finding is reported under: crd's, and check's where it differs
        (MG510 and MG511 are one finding)."""
        words: _Words = self.reason.value
        return tuple(dict.fromkeys(c for c in (words.crd, words.check) if c is not None))

    def message(self, command: Command) -> str:
        words: _Words = self.reason.value
        return self.text + words.tail[command] + self.after

    def for_crd(self) -> Diagnostic:
        return diag(
            self.reason.code, self.pos, self.message("crd"), severity=self.severity, hint=self.hint
        )

    def for_check(self) -> Diagnostic | None:
        """What `markergen check` reports of it; None when check does not (its own
        diagnostics say it, or the finding matters only to a run that writes)."""
        words: _Words = self.reason.value
        if words.check is None:
            return None
        if words.same:
            return self.for_crd()
        # the hint as crd's diagnostic has it (the catalog's, when the finding has none)
        return diag(words.check, self.pos, self.message("check"), hint=self.for_crd().hint)


def silence(
    found: Sequence[Placed], ignores: Sequence[Ignore]
) -> tuple[list[Placed], set[tuple[Ignore, str]]]:
    """The findings no `// markergen:ignore` comment silences, and the (comment, code)
    pairs that silenced one (markergen.policy.unused_crd reports the other pairs). A
    comment silences a finding when it covers the finding's Go place and names one of
    its codes: then in both commands, whichever code each reports it under."""
    kept: list[Placed] = []
    used: set[tuple[Ignore, str]] = set()
    for f in found:
        about = f.about
        hits = (
            [(ig, c) for ig in ignores for c in f.codes if ig.covers_at(c, about)]
            if about is not None
            else []
        )
        used.update(hits)
        if not hits:
            kept.append(f)
    return kept, used
