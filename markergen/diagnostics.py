"""The fixed catalog of checker codes.

Codes are a fixed interface: never renumber. New rules take free numbers in the right
hundred. The long explanation of each code (with a bad and a good example) lives in
docs/rules.md and is printed by `markergen explain CODE`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum as _Enum
from typing import Any

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

    def to_record(self) -> dict[str, Any]:
        """The diagnostic as plain JSON data (the caches store it so)."""
        return {
            "file": self.pos.file,
            "line": self.pos.line,
            "column": self.pos.column,
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "hint": self.hint,
        }

    @classmethod
    def from_record(cls, d: Any) -> Diagnostic:
        """The inverse of to_record; TypeError, KeyError or ValueError for anything else
        (a damaged cache file reads as a miss)."""
        text = ("file", "code", "message")
        if not all(isinstance(d[k], str) for k in text) or not isinstance(d["hint"], str | None):
            raise TypeError("not a diagnostic record")
        if not all(type(d[k]) is int for k in ("line", "column")):
            raise TypeError("not a diagnostic record")
        return cls(
            Position(d["file"], d["line"], d["column"]),
            d["code"],
            Severity(d["severity"]),
            d["message"],
            d["hint"],
        )


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


# MG510 (crd) and MG511 (check) report one finding; so do MG520 and MG521.
_KEPT_OBJECT_HINT = (
    "change the marker the rule comes from so that it allows the object (`,optional` on a "
    "`+unionMember`, the member's value), or correct the object"
)
_CRD_DIFFERS_HINT = (
    "regenerate the CRDs (`make manifests`) and check again; if they still differ, "
    "markergen reads the Go differently from controller-gen: report it"
)

CATALOG: dict[str, RuleInfo] = {
    r.code: r
    for r in (
        RuleInfo(
            "MG001",
            E,
            "Go syntax error in a declaration markergen reads",
            hint="fix the declaration's syntax (`gofmt -e FILE` shows Go's own error); if `go build` accepts it, the grammar does not know this syntax yet: please report it",
        ),
        RuleInfo(
            "MG002",
            E,
            "file cannot be read or decoded",
            hint="save the file as UTF-8 and make it readable",
        ),
        RuleInfo("MG003", W, "unknown marker close to a known one"),
        RuleInfo(
            "MG004",
            E,
            "malformed marker value or arguments",
            hint='write the marker as `markergen explain MG004` shows, e.g. `+unionMember=<value>,optional` or `+k8s:unionMember(union: "name")`',
        ),
        RuleInfo(
            "MG005",
            E,
            "marker on the wrong kind of declaration",
            hint="move the marker to the comment of the type or field it is meant for",
        ),
        RuleInfo("MG006", W, "package outside a Go module (no go.mod)"),
        RuleInfo("MG010", W, "markergen:ignore comment silences nothing"),
        RuleInfo("MG011", W, "malformed markergen:ignore comment"),
        RuleInfo("MG020", E, "an enum constant's value comes from a package that cannot be found"),
        RuleInfo(
            "MG021", INFO, "+enum on a bool, integer or float type, which only markergen reads"
        ),
        RuleInfo(
            "MG025",
            W,
            "prose on a marker line: controller-gen and gengo read no marker there",
        ),
        RuleInfo(
            "MG101",
            E,
            "+enum on a type whose underlying type is not a string, boolean or number",
            hint="give the type an underlying string type (`type X string`), or drop `+enum`",
        ),
        RuleInfo("MG102", W, "enum type with no constants"),
        RuleInfo("MG103", W, "untyped constant in a const block of an enum type"),
        RuleInfo("MG104", E, "discriminator's enum type cannot be resolved"),
        RuleInfo("MG105", W, "constant of an enum type that its Enum list leaves out"),
        RuleInfo("MG106", W, "field's Enum list names values its type's enum rejects"),
        RuleInfo("MG107", W, "union member selected by a value the enforced enum rejects"),
        # k8s mode unions and stage prefixes (validation-gen's own rejections, MG110-MG114)
        RuleInfo(
            "MG110", W, "earlier spelling of a k8s mode tag (+k8s:discriminator, +k8s:member)"
        ),
        RuleInfo("MG111", E, "+k8s:ifMode without a +k8s:modeDiscriminator for its modality"),
        RuleInfo("MG112", E, "+k8s:ifMode without a mode value or without a payload"),
        RuleInfo(
            "MG113", E, "+k8s:modeDiscriminator on a pointer or a type other than string or bool"
        ),
        RuleInfo("MG114", E, "mode discriminator group name (modality) is invalid or reserved"),
        RuleInfo("MG115", E, "+k8s:item on something that is not a list of structs"),
        RuleInfo("MG116", E, "+k8s:item does not select by the list's map keys"),
        RuleInfo("MG117", E, "+k8s:subfield names no field of a struct"),
        RuleInfo("MG118", E, "union tag through a wrapper that cannot carry it"),
        RuleInfo("MG119", E, "nested +k8s:subfield"),
        RuleInfo("MG201", E, "discriminator is not a string / has no enum values"),
        RuleInfo("MG202", W, "kep1027 discriminator requiredness"),
        RuleInfo(
            "MG203",
            E,
            "several discriminators and a member does not say which union",
            hint="keep one `+unionDiscriminator` per union and say which union each member belongs to with `+unionDiscriminatedBy=<discriminator>`",
        ),
        RuleInfo("MG204", E, "field is both discriminator and member"),
        RuleInfo("MG205", INFO, "discriminator without any member"),
        RuleInfo("MG206", E, "+default of a discriminator is not one of its enum values"),
        RuleInfo("MG301", E, "union member not optional"),
        RuleInfo("MG302", W, "union member cannot be told unset in JSON"),
        RuleInfo("MG303", E, "member's discriminator value is not in the discriminator's enum"),
        RuleInfo("MG304", E, "two members of one union have the same discriminator value"),
        RuleInfo("MG305", W, "explicit memberName does not match the member's JSON name"),
        RuleInfo(
            "MG306",
            E,
            "union membership names no discriminator of this struct",
            hint="name a discriminator field of this struct in `+unionDiscriminatedBy=<Go or JSON name>`",
        ),
        RuleInfo("MG307", E, "kep1027 member in a struct without a discriminator"),
        RuleInfo("MG308", E, 'union member or discriminator has json:"-" or is unexported'),
        RuleInfo(
            "MG309",
            E,
            "field is a member of two unions",
            hint="keep one union marker on the field: a field is a member of at most one union",
        ),
        RuleInfo("MG310", W, "kep2022 form +unionMember=<discriminator>"),
        RuleInfo("MG320", E, "two mode discriminators for one modality"),
        RuleInfo("MG321", E, "mode-dependent field of struct type is not a pointer"),
        RuleInfo("MG322", E, "mode value of a bool discriminator is not a bool"),
        RuleInfo("MG323", W, "mode value is no value of the discriminator's enum"),
        RuleInfo("MG324", E, "+k8s:alpha / +k8s:beta version is not <major>.<minor>"),
        RuleInfo("MG325", W, "+k8s:enumExclude on a constant of a type without +k8s:enum"),
        RuleInfo("MG330", E, "k8s union member of a struct value type"),
        RuleInfo("MG331", E, "k8s union discriminator that is not a string"),
        RuleInfo("MG332", E, "the same list item is a union member twice"),
        RuleInfo("MG333", W, "k8s discriminator of a union that has no members"),
        RuleInfo("MG340", W, "union member's implicit value is not a discriminator value"),
        RuleInfo("MG341", E, "controller-gen union marker names no field of the struct"),
        RuleInfo("MG342", W, "k8s union member is not optional as the API conventions ask"),
        RuleInfo(
            "MG343",
            W,
            "controller-gen union names a field of an embedded struct markergen cannot read",
        ),
        RuleInfo("MG360", W, "+union struct whose fields mostly match no discriminator value"),
        RuleInfo("MG401", E, "+union struct has an embedded (inlined) field"),
        RuleInfo("MG402", E, "+union struct has +unionDeprecated members"),
        RuleInfo("MG403", W, "+unionDeprecated member is not a pointer with omitempty"),
        RuleInfo(
            "MG404",
            E,
            "one union mixes marker dialects",
            hint="use one dialect's markers for the whole struct (see `markergen explain MG404`)",
        ),
        RuleInfo(
            "MG501",
            W,
            "a union field gets no CEL rule in a CRD",
            hint="add the field to the CRD (regenerate it with controller-gen), or make it reachable from CEL",
        ),
        RuleInfo(
            "MG502",
            W,
            "a CRD version has no Go root type among the inputs",
            hint="pass the package of the root type with `--types`, or add `+groupName` and `+kubebuilder:object:root=true` to it",
        ),
        RuleInfo(
            "MG503",
            W,
            "a CRD's discriminator enum differs from the Go enum",
            hint="make the CRD's enum and the Go enum the same: regenerate the CRD, or fix the Go constants",
        ),
        RuleInfo(
            "MG504",
            E,
            "a CRD file cannot be read or is not valid YAML",
            hint="fix the YAML (the message names the line), or leave the file out of the paths",
        ),
        RuleInfo(
            "MG505",
            W,
            "a CustomResourceDefinition that is not apiextensions.k8s.io/v1",
            hint="regenerate the CRD with a current controller-gen (apiextensions.k8s.io/v1)",
        ),
        RuleInfo(
            "MG506",
            W,
            "a union's CRD rules could not be satisfied; none are written",
            hint="fix the member's value (`+unionMember=<value>`) or add the member to this CRD's schema, then run `markergen crd` again",
        ),
        RuleInfo(
            "MG507",
            Severity.INFO,
            "a CRD file templated inside a YAML document is left alone",
            hint="keep templating outside the YAML documents (whole `{{ ... }}` lines), or patch the plain copy",
        ),
        RuleInfo(
            "MG508",
            W,
            "a hand-written CRD rule disagrees with the union",
            hint="change the hand-written rule or the markers so they agree on which objects are valid",
        ),
        RuleInfo(
            "MG509",
            Severity.INFO,
            "hand-written CRD rules already enforce a union",
            hint="nothing to do; drop the hand-written rule if markergen's should replace it",
        ),
        RuleInfo(
            "MG510",
            W,
            "a union's CRD rule would reject an object the project keeps",
            hint=_KEPT_OBJECT_HINT,
        ),
        RuleInfo(
            "MG511",
            W,
            "check: a union's CRD rule would reject an object the project keeps",
            hint=_KEPT_OBJECT_HINT,
        ),
        RuleInfo(
            "MG512",
            W,
            "a union's CRD rule is over the API server's CEL cost limit",
            hint="bound the lists and maps above the union (`+kubebuilder:validation:MaxItems`, `MaxProperties`)",
        ),
        RuleInfo(
            "MG513",
            W,
            "a file of kept objects is refused for excessive YAML aliasing and not read",
            hint="write the objects out instead of through nested aliases (`&name` / `*name`), "
            "as Kubernetes' own YAML decoder requires",
        ),
        RuleInfo(
            "MG514",
            W,
            "the CRD is stale: a union's field has no property in it",
            hint="regenerate the CRDs (`make manifests`), then run `markergen crd` again",
        ),
        RuleInfo(
            "MG515",
            W,
            "the project's own API server refuses the CRD with a union's rules",
            hint="read the server's message: a rule it cannot compile or afford comes from "
            "the marker named; run `markergen crd --server off` to compare with markergen's "
            "own proof, and report the difference",
        ),
        RuleInfo(
            "MG516",
            Severity.INFO,
            "an object the project keeps is rejected by its own CRD today; not used as proof",
            hint="correct the object, or mark it as a negative case (a file or folder named `invalid`), or leave it out with the `samples` exclude globs",
        ),
        RuleInfo(
            "MG520",
            W,
            "check: an enum differs between markergen's reading of the Go and the project's CRD",
            hint=_CRD_DIFFERS_HINT,
        ),
        RuleInfo(
            "MG521",
            W,
            "check: a discriminator's default differs between markergen's reading of the Go and the project's CRD",
            hint=_CRD_DIFFERS_HINT,
        ),
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
