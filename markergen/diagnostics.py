"""The fixed catalog of checker codes.

Codes are a fixed interface: never renumber. New rules take free numbers in the right
hundred. The long explanation of each code (with a bad and a good example) lives in
docs/rules.md and is printed by `markergen explain CODE`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum as _Enum

from markergen.golang.syntax import Position


class Severity(str, _Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, order=True)
class Diagnostic:
    pos: Position
    code: str
    severity: Severity
    message: str
    hint: str | None = None

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.pos.file, self.pos.line, self.pos.column, self.code, self.message)

E = Severity.ERROR
W = Severity.WARNING
INFO = Severity.INFO


@dataclass(frozen=True, slots=True)
class RuleInfo:
    """One diagnostic code, declared once. Its long documentation (what, why, a bad and a
    good example) is the code's section of docs/rules.md, under this title."""

    code: str
    severity: Severity  # the usual severity; MG201 and MG202 take the case's
    title: str
    # The fix, for diagnostics whose call site gives no hint of its own. `{name}` fields
    # are filled from diag()'s `fill` (the struct, field or marker concerned).
    hint: str | None = None


CATALOG: dict[str, RuleInfo] = {
    r.code: r
    for r in (
        RuleInfo("MG001", E, "Go syntax error in a declaration markergen reads"),
        RuleInfo("MG002", E, "file cannot be read or decoded"),
        RuleInfo("MG003", W, "unknown marker close to a known one"),
        RuleInfo("MG004", E, "malformed marker value or arguments"),
        RuleInfo("MG005", E, "marker on the wrong kind of declaration"),
        RuleInfo("MG006", W, "package outside a Go module (no go.mod)"),
        RuleInfo("MG010", W, "markergen:ignore comment silences nothing"),
        RuleInfo("MG011", W, "malformed markergen:ignore comment"),
        RuleInfo("MG020", E, "an enum constant's value comes from a package that cannot be found"),
        RuleInfo("MG101", E, "+enum on a type whose underlying type is not string"),
        RuleInfo("MG102", W, "enum type with no constants"),
        RuleInfo("MG103", W, "untyped constant in a const block of an enum type"),
        RuleInfo("MG104", E, "discriminator's enum type cannot be resolved"),
        RuleInfo("MG201", E, "discriminator is not a string / has no enum values"),
        RuleInfo("MG202", W, "kep1027 discriminator requiredness"),
        RuleInfo("MG203", E, "several discriminators and a member does not say which union"),
        RuleInfo("MG204", E, "field is both discriminator and member"),
        RuleInfo("MG205", INFO, "discriminator without any member"),
        RuleInfo("MG206", E, "+default of a discriminator is not one of its enum values"),
        RuleInfo("MG301", E, "union member not optional"),
        RuleInfo("MG302", W, "union member cannot be told unset in JSON"),
        RuleInfo("MG303", E, "member's discriminator value is not in the discriminator's enum"),
        RuleInfo("MG304", E, "two members of one union have the same discriminator value"),
        RuleInfo("MG305", W, "explicit memberName does not match the member's JSON name"),
        RuleInfo("MG306", E, "union membership names no discriminator of this struct"),
        RuleInfo("MG307", E, "kep1027 member in a struct without a discriminator"),
        RuleInfo("MG308", E, "union member or discriminator has json:\"-\" or is unexported"),
        RuleInfo("MG309", E, "field is a member of two unions"),
        RuleInfo("MG310", W, "kep2022 form +unionMember=<discriminator>"),
        RuleInfo("MG340", W, "union member's implicit value is not a discriminator value"),
        RuleInfo("MG341", E, "controller-gen union marker names no field of the struct"),
        RuleInfo("MG360", W, "+union struct whose fields mostly match no discriminator value"),
        RuleInfo("MG401", E, "+union struct has an embedded (inlined) field"),
        RuleInfo("MG402", E, "+union struct has +unionDeprecated members"),
        RuleInfo("MG403", W, "+unionDeprecated member is not a pointer with omitempty"),
        RuleInfo("MG404", E, "one union mixes marker dialects"),
        RuleInfo("MG501", W, "a union field gets no CEL rule in a CRD"),
        RuleInfo("MG502", W, "a CRD version has no Go root type among the inputs"),
        RuleInfo("MG503", W, "a CRD's discriminator enum differs from the Go enum"),
        RuleInfo("MG504", E, "a CRD file cannot be read or is not valid YAML"),
        RuleInfo("MG505", W, "a CustomResourceDefinition that is not apiextensions.k8s.io/v1"),
        RuleInfo("MG506", W, "a union's CRD rules could not be satisfied; none are written"),
        RuleInfo("MG507", Severity.INFO, "a CRD file templated inside a YAML document is left alone"),
        RuleInfo("MG508", W, "a hand-written CRD rule rejects an object the union allows"),
        RuleInfo("MG509", Severity.INFO, "hand-written CRD rules already enforce a union"),
        RuleInfo("MG510", W, "a union's CRD rule would reject an object the project keeps"),
        RuleInfo("MG511", W, "check: a union's CRD rule would reject an object the project keeps"),
        RuleInfo("MG512", W, "a union's CRD rule is over the API server's CEL cost limit"),
    )
}


def diag(
    code: str,
    pos: Position,
    message: str,
    *,
    hint: str | None = None,
    severity: Severity | None = None,
    fill: dict[str, str] | None = None,
) -> Diagnostic:
    """A diagnostic for a catalog code; `severity` only for codes with two severities.
    Without a `hint`, the catalog's hint template for the code is used, filled from
    `fill`."""
    info = CATALOG[code]
    if hint is None and info.hint is not None:
        hint = info.hint.format_map(fill or {})
    return Diagnostic(
        pos=pos,
        code=code,
        severity=severity or info.severity,
        message=message,
        hint=hint,
    )


def severity_markdown() -> str:
    """The table of every code's default severity, for docs/rules.md."""
    rows = ["| code | severity | what |", "|---|---|---|"]
    for code, info in sorted(CATALOG.items()):
        rows.append(f"| [{code}](#{code.lower()}) | {info.severity.value} | {info.title} |")
    return "\n".join(rows)
