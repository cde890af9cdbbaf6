"""`markergen crd` and `markergen check` on CRD files: the plan of every CRD document.

A plan says, per CRD document, which union rules markergen wants at each schema node, the
discriminator enums it adds, and its findings, each with a reason
(`markergen.crd.reasons`) that `crd` and `check` each turn into their own diagnostic.
Making a plan writes nothing: `markergen.crd.apply` turns it into line edits of the file,
`markergen.crd.files` writes them. One run plans each distinct CRD version once
(`RunMemo.versions`): a copy in a Helm chart or an identical feature-set variant takes
the plan of the first, placed in its own document.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markergen.accept.admit import rejection
from markergen.accept.celeval import CelEvaluator
from markergen.accept.samples import KeptParts
from markergen.accept.union import NodeFacts, json_value, text_of
from markergen.crd.advice import (
    allowance_hint,
    as_documentation,
    member_marker,
    member_place,
    rejection_hint,
    rule_marker,
    rule_place,
    union_place,
)
from markergen.crd.apply import VALIDATIONS, is_ours
from markergen.crd.cel import (
    Rule,
    compact,
    item_rules,
    union_label,
    union_rules,
)
from markergen.crd.channels import channel_view, crd_channel
from markergen.crd.cost import (
    STATIC_ESTIMATED_COST_LIMIT,
    STATIC_ESTIMATED_CRD_COST_LIMIT,
    CostMemo,
    hand_cost,
)
from markergen.crd.prove import Proof, prove_items, prove_union
from markergen.crd.reasons import Finding, Placed, Reason
from markergen.crd.serverproof import ServerVerdicts
from markergen.crd.walk import MissingSite, UnionSite, union_sites
from markergen.diagnostics import Diagnostic, Severity
from markergen.golang.syntax import Position
from markergen.model import Model, Struct, Union
from markergen.model.lookup import FieldLookup, model_lookup
from markergen.project.locate import describe_missing, root_type
from markergen.project.samples import SampleObject, values_at
from markergen.yamlio import (
    Document,
    PathKey,
    YamlReader,
)

CRD_API_VERSION = "apiextensions.k8s.io/v1"


class RunMemo:
    """What one run computes once for many files (feature-set variants, copies in a Helm
    chart repeat the same unions): the kept objects' verdicts, the unions' proofs, cost
    estimates and, for a CRD version read before (the same schema for the same Go type),
    the changes its unions make."""

    def __init__(self) -> None:
        self._proofs: dict[tuple[Any, ...], Proof] = {}
        self._told: set[tuple[Any, ...]] = set()
        self.costs = CostMemo()
        # the plan of a CRD version's unions (_DocumentPlanner._version), by what decides it
        self.versions: dict[tuple[Any, ...], VersionPlan] = {}
        self._lookup: tuple[Model, FieldLookup] | None = None
        self._admitted: dict[tuple[int, bytes], str | None] = {}

    def rejection(
        self, obj: SampleObject, schema: dict[str, Any], digest: bytes, evaluator: CelEvaluator
    ) -> str | None:
        """Why the CRD version of `schema` (`digest` names it) rejects a kept object today
        (markergen.accept.admit); None when it accepts it."""
        # by the value: the run's YamlReader gives equal texts (a test suite's object in
        # case after case) one shared value, judged once
        key = (id(obj.value), digest)
        if key not in self._admitted:
            self._admitted[key] = rejection(obj.value, schema, evaluator)
        return self._admitted[key]

    def lookup(self, model: Model) -> FieldLookup:
        """The model's field lookup (`model_lookup`), built once: its answers are cached
        in it, and every CRD of a run asks about the same structs."""
        if self._lookup is None or self._lookup[0] is not model:
            self._lookup = (model, model_lookup(model))
        return self._lookup[1]

    def first_time(self, *what: Any) -> bool:
        """Whether `what` is said for the first time in this run (`Finding.once`)."""
        if what in self._told:
            return False
        self._told.add(what)
        return True

    def proof(
        self,
        union: Union,
        rules: Sequence[Rule],
        properties: Sequence[str],
        required: Sequence[str],
        enum: Sequence[Any] | None,
        evaluator: CelEvaluator,
        hand: Sequence[str],
        types: Mapping[str, str] | None = None,
        facts: NodeFacts | None = None,
    ) -> Proof:
        """`prove_union`, once per distinct union and schema node."""
        key = (
            union,
            tuple(rules),
            tuple(properties),
            tuple(required),
            None if enum is None else tuple(map(str, enum)),
            tuple(hand),
            tuple(sorted((types or {}).items())),
            facts,
        )
        found = self._proofs.get(key)
        if found is None:
            found = prove_union(
                union, rules, properties, required, enum, evaluator, hand, types, facts
            )
            self._proofs[key] = found
        return found


@dataclass(frozen=True)
class Withheld:
    """A union rule (or a discriminator's enum) the proof did not write because it
    rejects an object the project keeps (MG510): the rule entry as it would have been
    written, where, and the object."""

    file: str  # the CRD file, as diagnostics show it
    crd: str  # the CRD's metadata.name
    path: PathKey  # the schema node of the rule (of the discriminator, for an enum)
    rule: Mapping[str, str]  # the x-kubernetes-validations entry ({} for an enum)
    object: SampleObject
    enum: tuple[Any, ...] = ()  # the discriminator's enum, when that is what is withheld


@dataclass(frozen=True)
class PatchContext:
    """What a run knows besides the model: the project's objects and `check`'s errors."""

    samples: tuple[SampleObject, ...] = ()
    check_errors: tuple[Diagnostic, ...] = ()
    strict: bool = False  # a rule that would reject a project's object is an error
    # what the project's own API server said on an earlier pass (markergen.crd.serverproof)
    server: ServerVerdicts | None = None
    # told every rule withheld for a kept object (patch_files' `withheld`)
    withheld: Callable[[Withheld], None] | None = field(default=None, compare=False)
    # the samples by (group, version, kind): every CRD version asks for its own
    by_kind: dict[tuple[str, str, str], list[SampleObject]] = field(
        init=False, repr=False, compare=False
    )
    # the run's one reading of the CRD and object files (markergen.yamlio.YamlReader)
    reader: YamlReader = field(default_factory=YamlReader, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_kind: dict[tuple[str, str, str], list[SampleObject]] = {}
        for o in self.samples:
            by_kind.setdefault((o.group, o.version, o.kind), []).append(o)
        object.__setattr__(self, "by_kind", by_kind)


@dataclass(frozen=True)
class VersionPlan:
    """What one CRD version's unions call for, as data: the same for every document that
    holds an identical version (a copy in a Helm chart, a feature-set variant with the same
    schema), which takes it from `RunMemo.versions` instead of reading the version again.
    Findings at a schema node are placed in each document that takes the plan."""

    findings: tuple[Finding, ...] = ()
    wants: tuple[tuple[PathKey, tuple[Rule, ...]], ...] = ()  # rules wanted at a node
    enums: tuple[tuple[PathKey, tuple[Any, ...]], ...] = ()  # a discriminator's new enum
    # each site's rules and their estimated costs (None: a site with no rule written,
    # whose version's total is still checked)
    costs: tuple[tuple[PathKey, str | None, int], ...] = ()
    # (node, the rules wanted there, their compact form, its cost) of the sites whose rules
    # have a compact form (markergen.crd.cel.compact)
    compact: tuple[tuple[PathKey, tuple[Rule, ...], tuple[Rule, ...], int], ...] = ()
    # (node, the rule entry or {} for an enum, the object, the enum's values)
    withheld: tuple[tuple[PathKey, Mapping[str, str], SampleObject, tuple[Any, ...]], ...] = ()


@dataclass(frozen=True)
class DocumentPlan:
    """What one CRD document needs: markergen's rules at each schema node (all of them:
    a node with none wanted loses the ones markergen wrote before), the enums it adds,
    and the findings, placed."""

    wanted: Mapping[PathKey, list[dict[str, str]]]
    enums: Mapping[PathKey, list[Any]]
    findings: tuple[Placed, ...]
    writes: bool = True  # False: a document markergen leaves alone (not a v1 CRD)


@dataclass
class _VersionPlanner:
    """Reads one CRD version's unions into a VersionPlan."""

    model: Model
    crd: Mapping[str, Any]  # the CRD document's value
    file: str
    evaluator: CelEvaluator
    context: PatchContext
    memo: RunMemo
    kind: tuple[str, str, str]  # group, version, kind
    findings: list[Finding] = field(default_factory=list)
    wants: list[tuple[PathKey, tuple[Rule, ...]]] = field(default_factory=list)
    enums: list[tuple[PathKey, tuple[Any, ...]]] = field(default_factory=list)
    costs: list[tuple[PathKey, str | None, int]] = field(default_factory=list)
    compact: list[tuple[PathKey, tuple[Rule, ...], tuple[Rule, ...], int]] = field(
        default_factory=list
    )
    withheld: list[tuple[PathKey, Mapping[str, str], SampleObject, tuple[Any, ...]]] = field(
        default_factory=list
    )

    def plan(self) -> VersionPlan:
        return VersionPlan(
            tuple(self.findings),
            tuple(self.wants),
            tuple(self.enums),
            tuple(self.costs),
            tuple(self.compact),
            tuple(self.withheld),
        )

    def say(
        self,
        reason: Reason,
        where: Position | PathKey,
        text: str,
        *,
        after: str = "",
        severity: Severity | None = None,
        hint: str | None = None,
        once: tuple[Any, ...] | None = None,
        about: Position | None = None,
    ) -> None:
        self.findings.append(Finding(reason, where, text, after, severity, hint, once, about))

    def read(
        self,
        version: Mapping[str, Any],
        schema: dict[str, Any],
        digest: bytes,
        root: Struct,
        base: PathKey,
    ) -> VersionPlan:
        group, name, kind = self.kind
        objects = self._accepted(
            self.context.by_kind.get((group, name, kind), []),
            schema,
            digest,
            served=version.get("served", True) is not False,
        )
        lookup = self.memo.lookup(self.model)
        missing: list[MissingSite] = []
        for site in union_sites(self.model, root, schema, base, lookup, missing):
            self._site(site, objects, schema)
        for gap in missing:
            self._stale(gap, kind, group, name)
        return self.plan()

    def _stale(self, gap: MissingSite, kind: str, group: str, version: str) -> None:
        """MG514: a union the Go types hold where the CRD has no property: controller-gen
        wrote the CRD before the field existed, so no rule can go where it belongs."""
        labels = ", ".join(union_label(u, s.name) for s, u in gap.unions)
        plural = "s" if len(gap.unions) > 1 else ""
        self.say(
            Reason.STALE_CRD,
            gap.path,
            f"the CRD is stale for {gap.owner.name}.{gap.field.go_name}: CRD {kind}.{group} "
            f"version {version} has no property `{gap.field.json_name}` in the schema of "
            f"{gap.owner.name}, where the Go types hold union{plural} {labels}; no rules "
            f"written for {'them' if plural else 'it'}",
            once=("stale", gap.owner.key, gap.field.go_name, group, version),
            about=gap.field.pos,
        )

    def _accepted(
        self,
        objects: Sequence[SampleObject],
        schema: dict[str, Any],
        digest: bytes,
        served: bool = True,
    ) -> list[SampleObject]:
        """The kept objects this CRD version accepts today (schema and its own rules):
        only they prove what users apply. The others (a design proposal in the docs, an
        example of a field the CRD no longer has) are named once per kind, as a note."""
        kept: list[SampleObject] = []
        dropped: list[tuple[SampleObject, str]] = []
        for o in objects:
            # the server refuses every object of a version it does not serve
            why = (
                self.memo.rejection(o, schema, digest, self.evaluator)
                if served
                else f"version {o.version} is not served"
            )
            if why is None:
                kept.append(o)
            else:
                dropped.append((o, why))
        if dropped and self.memo.first_time("MG516", *self.kind):
            first, why = dropped[0]
            more = (
                ", and "
                + ", ".join(f"{o.file}:{o.line}" for o, _ in dropped[1:4])
                + (f" and {len(dropped) - 4} more" if len(dropped) > 4 else "")
                if len(dropped) > 1
                else ""
            )
            group, version, kind = self.kind
            self.say(
                Reason.KEPT_REJECTED,
                Position(first.file, first.line, 1),
                f"{len(dropped)} kept object(s) of {kind}.{group}/{version} are rejected "
                f"by the project's CRD today ({why}{more}); they prove nothing and are "
                "not used as proof",
            )
        return kept

    def _site(self, site: UnionSite, objects: Sequence[SampleObject], schema: Any) -> None:
        # gateway-api's standard channel has fewer members and values than the Go types:
        # the union as this CRD's channel holds it (markergen.crd.channels)
        union = channel_view(self.model, site.struct, site.union, crd_channel(self.crd))
        if union is not site.union:
            site = dataclasses.replace(site, union=union)
        node = site.node
        label = union_label(union, site.struct.name)
        where = ".".join(str(p) for p in site.path)
        place = union_place(self.model, union)
        if union.gate and not union.gate_disabled:
            self.say(
                Reason.UNPROVEN,
                site.path,
                f"union {label} at {where}: validation-gen "
                f"checks it only when option {union.gate} is enabled, and a CRD has no "
                "options",
                severity=Severity.INFO,
                hint="nothing to do; if the option is always on where this CRD is served, "
                f"drop the `+k8s:ifEnabled({union.gate})=` wrapper",
                about=place,
            )
            return
        if union.items:
            self._item_site(site, objects, schema, label, where)
            return
        if (
            union.modes
            and union.discriminator is not None
            and _is_boolean(node, union.discriminator.json_name)
        ):
            self.say(
                Reason.UNPROVEN,
                site.path,
                f"union {label} at {where}: its mode "
                f"discriminator {union.discriminator.json_name} is a bool, whose modes "
                "markergen does not write as CRD rules",
                severity=Severity.INFO,
                hint="nothing to do; the API server's declarative validation checks it",
                about=place,
            )
            return
        props = node.get("properties")
        props = props if isinstance(props, dict) else {}
        required = node.get("required")
        required = [r for r in required if isinstance(r, str)] if isinstance(required, list) else []
        types = {str(k): str(v.get("type", "")) for k, v in props.items() if isinstance(v, dict)}
        rules, skipped = union_rules(union, site.struct.name, props.keys(), required, types)
        for s in skipped:
            self.say(
                Reason.SKIPPED_MEMBER,
                (*site.path, "properties"),
                f"union {site.struct.name} field {s.field} {s.reason} at {where}; "
                "the union's rules leave it out",
                about=member_place(self.model, union, s.field),
            )
        if not rules or self._blocked(site, label, where):
            return
        disc = union.discriminator
        prop = props.get(disc.json_name) if disc is not None else None
        enum = prop.get("enum") if isinstance(prop, dict) else None
        go_values = list(disc.values) if disc is not None else []
        # As the CRD holds them: numbers and booleans for a discriminator of such a type.
        typed_values = (
            [json_value(v, disc.value_type) for v in go_values] if disc is not None else []
        )
        add_enum = bool(go_values) and isinstance(prop, dict) and "enum" not in prop
        if add_enum and disc is not None:
            add_enum = self._enum_accepts_kept(site, objects, label, typed_values)
        schema_enum = typed_values if add_enum else enum if isinstance(enum, list) else None
        if (
            disc is not None
            and isinstance(enum, list)
            and go_values
            and sorted(map(text_of, enum)) != sorted(go_values)
            and not _variant_enum(enum, go_values, union, props)
        ):
            self.say(
                Reason.ENUM_DIFFERS,
                (*site.path, "properties", disc.json_name, "enum"),
                f"enum of discriminator {disc.json_name} at {where} is "
                f"{enum!r} in the CRD but {go_values!r} in Go; kept as written",
                about=place,
            )
        hand = [
            str(r["rule"])
            for r in (node.get(VALIDATIONS) or [])
            if isinstance(r, dict) and "rule" in r and not is_ours(r)
        ]
        proof = self.memo.proof(
            union,
            rules,
            list(props),
            required,
            schema_enum,
            self.evaluator,
            hand,
            types,
            _facts(props, union),
        )
        documentation = as_documentation(union, proof.problems)
        for p in proof.problems:
            self.say(
                Reason.UNPROVEN,
                site.path,
                f"union {label} at {where}: {p}",
                after=documentation,
                once=(union.struct, union.name, p),
                about=place,
            )
        # once per union and finding: a CRD kept in two places (openshift's
        # zz_generated.crd-manifests and payload-manifests) holds the same rules twice
        for c in proof.contradictions:
            once = (union.struct, union.name, c)
            self.say(
                Reason.HAND_CONTRADICTS,
                site.path,
                f"union {label} at {where}: {c}",
                once=once,
                about=place,
            )
        for a in proof.allowances:
            marker = member_marker(self.model, union, a.member)
            self.say(
                Reason.HAND_ALLOWS,
                site.path,
                f"union {label} at {where}: {a.text} (member {a.member} at {marker})",
                hint=allowance_hint(self.model, union, a),
                once=(union.struct, union.name, a.member, a.text),
                about=member_place(self.model, union, a.member),
            )
        if proof.allowances:
            return
        if proof.problems:
            # not written anyway; the objects they would reject still tell the author why
            self._not_rejecting(list(rules), site, objects, label)
            return
        if proof.covered:
            self.say(
                Reason.HAND_COVERS,
                site.path,
                f"union {label} at {where}: the hand-written rules already enforce it; "
                "nothing added",
                once=(union.struct, union.name),
                about=place,
            )
        rules = self._not_rejecting(list(proof.rules), site, objects, label)
        rules = self._affordable(rules, site, schema, label)
        self.wants.append((site.path, tuple(rules)))
        if add_enum and disc is not None:
            self.enums.append(((*site.path, "properties", disc.json_name), tuple(typed_values)))

    def _item_site(
        self,
        site: UnionSite,
        objects: Sequence[SampleObject],
        schema: Any,
        label: str,
        where: str,
    ) -> None:
        """A union of list items (`+k8s:item`): `self.exists(...)` rules at the list."""
        union, node = site.union, site.node
        bound = node.get("maxItems")
        if not isinstance(bound, int) or isinstance(bound, bool):
            # The API server takes as many items as fit in a request: usually over its
            # per-rule limit for rules that look through the list (an info, not MG512:
            # nothing is wrong with the CRD, only the union cannot be enforced here).
            over = [
                est
                for r in item_rules(union, label)[0]
                if (est := self.memo.costs.estimate(r.rule, schema, site.path[5:])).total
                > STATIC_ESTIMATED_COST_LIMIT
            ]
            if over:
                self.say(
                    Reason.UNPROVEN,
                    site.path,
                    f"union {label} at {where}: its rules look through the whole list, and "
                    "the list has no maxItems, so the API server estimates them at "
                    f"{over[0].total:,} ({over[0].per_call:,} per call), over its per-rule "
                    f"limit of {STATIC_ESTIMATED_COST_LIMIT:,}",
                    severity=Severity.INFO,
                    hint="bound the list (`+kubebuilder:validation:MaxItems`, regenerate the "
                    "CRD), then run `markergen crd` again",
                    about=union_place(self.model, union),
                )
                return
        rules, skipped = item_rules(union, label)
        for s in skipped:
            self.say(
                Reason.SKIPPED_MEMBER,
                site.path,
                f"union {label} member {s.field} {s.reason} at {where}",
                about=member_place(self.model, union, s.field),
            )
        if not rules or self._blocked(site, label, where):
            return
        for p in prove_items(union, rules, self.evaluator):
            self.say(
                Reason.UNPROVEN,
                site.path,
                f"union {label} at {where}: {p}",
                about=union_place(self.model, union),
            )
            return
        rules = self._not_rejecting(list(rules), site, objects, label)
        rules = self._affordable(rules, site, schema, label)
        self.wants.append((site.path, tuple(rules)))

    def _blocked(self, site: UnionSite, label: str, where: str) -> bool:
        """Whether `markergen check` has an error inside the union (then MG506, no rules),
        or the project's API server refused this file's CRD with markergen's rules (MG515)."""
        server = self.context.server
        refusal = server.refused.get(self.file) if server is not None else None
        if server is not None and refusal is not None:
            if self.memo.first_time("MG515", self.file, site.union.struct, site.union.name):
                self.say(
                    Reason.SERVER_REFUSED,
                    site.union.pos,
                    f"union {label}: {server.server} refuses {self.file} with markergen's "
                    f"rules: {refusal}; the file is not written",
                    severity=Severity.ERROR if self.context.strict else None,
                    about=union_place(self.model, site.union),
                )
            return True
        blocked = self._check_error(site.union)
        if blocked is not None:
            self.say(
                Reason.CHECK_ERROR,
                site.path,
                f"union {label} at {where}: `markergen check` reports {blocked.code} at "
                f"{blocked.pos}: {blocked.message}",
                about=union_place(self.model, site.union),
            )
        return blocked is not None

    def _check_error(self, union: Union) -> Diagnostic | None:
        """A check error inside the union: from its first marker or field to its last
        field (value problems are reported at a member's marker, above its field)."""
        lines = [union.pos.line, *(m.pos.line for m in union.members)]
        if union.discriminator is not None:
            lines.append(union.discriminator.pos.line)
        first, last = min(lines), max(lines)
        for d in self.context.check_errors:
            if d.pos.file == union.pos.file and first <= d.pos.line <= last:
                return d
        return None

    def _not_rejecting(
        self, rules: list[Rule], site: UnionSite, objects: Sequence[SampleObject], label: str
    ) -> list[Rule]:
        """The rules that accept every object the project keeps (issue 22: never enforce
        what was never enforced); each rejection is reported at the union's marker. What
        the project's API server rejected on an earlier pass is withheld first."""
        rules = self._server_rejected(rules, site, label)
        if not objects or not rules:
            return rules
        # The API server defaults an object before it validates it: a kept object that
        # leaves a defaulted field out is judged with the default. The rules of a union of
        # list items are the list's: they see every item.
        kept = self._kept(site, objects)
        keep: list[Rule] = []
        for r in rules:
            rejected = kept.rejected(r.rule)
            if rejected is None:
                keep.append(r)
                continue
            self.withheld.append((site.path, r.as_dict(), rejected, ()))
            self.say(
                Reason.REJECTS_KEPT,
                rule_marker(self.model, site.union, r),
                f"union {label}: the rule `{r.message}` would reject "
                f"{rejected.kind} at {rejected.file}:{rejected.line}",
                severity=Severity.ERROR if self.context.strict else None,
                hint=rejection_hint(self.model, site.union, r),
                about=rule_place(self.model, site.union, r),
            )
        return keep

    def _kept(self, site: UnionSite, objects: Sequence[SampleObject]) -> KeptParts[SampleObject]:
        """The kept objects' parts at the union's node (markergen.accept.samples)."""
        below = site.path[5:]  # under spec.versions[i].schema.openAPIV3Schema
        values = ((part, o) for o in objects for part in values_at(o.value, below))
        return KeptParts(self.evaluator, site.node, values, items=site.union.items)

    def _server_rejected(self, rules: list[Rule], site: UnionSite, label: str) -> list[Rule]:
        server = self.context.server
        if server is None or not server.rejects:
            return rules
        keep: list[Rule] = []
        for r in rules:
            found = server.rejects.get(r.message)
            if found is None:
                keep.append(r)
                continue
            obj, words = found
            self.say(
                Reason.REJECTS_KEPT,
                rule_marker(self.model, site.union, r),
                f"union {label}: {server.server} rejects {obj} with the rule "
                f"`{r.message}` (it says: {words})",
                severity=Severity.ERROR if self.context.strict else None,
                hint=rejection_hint(self.model, site.union, r),
                about=rule_place(self.model, site.union, r),
            )
        return keep

    def _enum_accepts_kept(
        self, site: UnionSite, objects: Sequence[SampleObject], label: str, values: list[Any]
    ) -> bool:
        """Whether the discriminator's enum markergen would add accepts every kept
        object's value (a CRD without an enum accepted any); when not, MG510 at the
        discriminator and the enum is not added."""
        disc = site.union.discriminator
        if disc is None or not objects:
            return True
        for value, first in self._kept(site, objects).values(disc.json_name):
            if value in values:
                continue
            path = (*site.path, "properties", disc.json_name)
            self.say(
                Reason.REJECTS_KEPT,
                disc.pos,
                f"union {label}: the enum {values!r} of {disc.json_name} would reject "
                f"{first.kind} at {first.file}:{first.line} ({disc.json_name}: "
                f"{json.dumps(value)})",
                severity=Severity.ERROR if self.context.strict else None,
                hint=f"if {json.dumps(value)} is a value of the API, add it as a constant of "
                "the discriminator's type; or correct the object",
                about=union_place(self.model, site.union),
            )
            self.withheld.append((path, {}, first, tuple(values)))
            return False
        return True

    def _affordable(
        self, rules: list[Rule], site: UnionSite, schema: Any, label: str
    ) -> list[Rule]:
        """The rules whose estimated cost the API server accepts (markergen.crd.cost)."""
        below = site.path[5:]
        keep: list[Rule] = []
        self.costs.append((site.path, None, 0))
        for r in rules:
            est = self.memo.costs.estimate(r.rule, schema, below)
            if est.total <= STATIC_ESTIMATED_COST_LIMIT:
                self.costs.append((site.path, r.rule, est.total))
                keep.append(r)
                continue
            how = (
                f"an upper bound, as the API server's estimate could not be made: {est.fallback}"
                if est.fallback
                else "the API server's estimate"
            )
            self.say(
                Reason.TOO_COSTLY,
                site.path,
                f"union {label}: the rule `{r.message}` has an estimated cost of "
                f"{est.total:,} ({est.per_call:,} per call x {est.cardinality:,} possible "
                f"nodes; {how}), over the API server's per-rule limit of "
                f"{STATIC_ESTIMATED_COST_LIMIT:,}; not written. Bound the enclosing lists and "
                "maps (+kubebuilder:validation:MaxItems, MaxProperties)",
                about=rule_place(self.model, site.union, r),
            )
        merged = compact(keep)
        if merged != keep:
            cost = sum(self.memo.costs.estimate(r.rule, schema, below).total for r in merged)
            self.compact.append((site.path, tuple(keep), tuple(merged), cost))
        return keep


@dataclass
class _DocumentPlanner:
    """Plans one CRD document: each version's plan (read, or taken from the run's memo),
    placed in this document, then the per-version cost limit over all of them."""

    model: Model
    doc: Document
    file: str
    evaluator: CelEvaluator
    context: PatchContext
    memo: RunMemo
    path: Path | None = None  # the CRD file on disk, when there is one
    wanted: dict[PathKey, list[dict[str, str]]] = field(default_factory=dict)
    enums: dict[PathKey, list[Any]] = field(default_factory=dict)
    costs: dict[int, list[int]] = field(default_factory=dict)  # per version: our rules' costs
    rule_costs: dict[tuple[PathKey, str], int] = field(default_factory=dict)
    compact_forms: dict[int, list[tuple[PathKey, tuple[Rule, ...], tuple[Rule, ...], int]]] = field(
        default_factory=dict
    )
    findings: list[Placed] = field(default_factory=list)

    def say(self, reason: Reason, path: PathKey, text: str) -> None:
        line, col = self.doc.position(path)
        self.findings.append(Placed(reason, Position(self.file, line, col), text))

    def plan(self) -> DocumentPlan:
        spec = self.doc.value.get("spec")
        if isinstance(spec, dict):
            for i, version in enumerate(spec.get("versions") or []):
                self._version(spec, i, version)
        for i, costs in sorted(self.costs.items()):
            self._version_total(spec, i, costs)
        return DocumentPlan(self.wanted, self.enums, tuple(self.findings))

    def _version_total(self, spec: dict[str, Any], i: int, costs: list[int]) -> None:
        """The per-CRD limit is checked per version schema (each has its own
        `RootCELContext`): the rules already there and markergen's together."""
        versions = spec.get("versions") or []
        version = versions[i] if i < len(versions) else None
        schema = ((version or {}).get("schema") or {}).get("openAPIV3Schema")
        hand, unknown = hand_cost(schema, is_ours, self.memo.costs)
        total = hand + sum(costs)
        if total <= STATIC_ESTIMATED_CRD_COST_LIMIT:
            return
        forms = self.compact_forms.get(i, [])
        saved = sum(self._cost_of(split, path) - cost for path, split, _, cost in forms)
        if forms and total - saved <= STATIC_ESTIMATED_CRD_COST_LIMIT:
            # The compact form says the same with one rule per member instead of two.
            for path, split, merged, _ in forms:
                drop = [r.as_dict() for r in split]
                current = [d for d in self.wanted.get(path, []) if d not in drop]
                self.wanted[path] = current
                self._want(path, merged)
            return
        vpath: PathKey = ("spec", "versions", i)
        not_counted = (
            f"; {len(unknown)} rule(s) already there could not be estimated and are not "
            f"counted ({unknown[0]})"
            if unknown
            else ""
        )
        self.say(
            Reason.TOO_COSTLY,
            vpath,
            f"the rules of this CRD version would have an estimated total cost of {total:,} "
            f"({hand:,} for the rules already there, {sum(costs):,} for the union rules), "
            f"over the API server's limit of {STATIC_ESTIMATED_CRD_COST_LIMIT:,} per schema; "
            f"no union rule is written{not_counted}. Bound the lists and maps that hold "
            "unions (+kubebuilder:validation:MaxItems, MaxProperties)",
        )
        self.wanted = {p: ([] if p[:3] == vpath else r) for p, r in self.wanted.items()}
        self.enums = {p: v for p, v in self.enums.items() if p[:3] != vpath}

    def _version(self, spec: dict[str, Any], i: int, version: Any) -> None:
        if not isinstance(version, dict):
            return
        schema = (version.get("schema") or {}).get("openAPIV3Schema")
        if not isinstance(schema, dict):
            return
        group, kind = str(spec.get("group", "")), str((spec.get("names") or {}).get("kind", ""))
        name = str(version.get("name", ""))
        if not (group and kind and name):
            return  # a fragment (openshift's manual-override files), not a whole CRD
        vpath: PathKey = ("spec", "versions", i)
        root = root_type(self.model, group, kind, name, self.path)
        if root is None:
            why = describe_missing(self.model, group, kind, name)
            self.say(
                Reason.NO_ROOT_TYPE,
                (*vpath, "name"),
                f"CRD {kind}.{group} version {name}: no Go root type ({why}); no union rules added",
            )
            return
        base: PathKey = (*vpath, "schema", "openAPIV3Schema")
        # The plan depends only on these (the model, the objects of the kind and
        # `check`'s errors are the run's), so an identical version (a copy in a Helm
        # chart, a CRD listed twice) takes the plan made for the first; it is placed in
        # this document (positions, `once`) as it was in that one.
        digest = self.memo.costs.digest(schema)
        key = (i, group, kind, name, root.key, digest)
        plan = self.memo.versions.get(key)
        if plan is None:
            planner = _VersionPlanner(
                self.model,
                self.doc.value,
                self.file,
                self.evaluator,
                self.context,
                self.memo,
                (group, name, kind),
            )
            plan = self.memo.versions[key] = planner.read(version, schema, digest, root, base)
        self._take(i, plan)

    def _take(self, version: int, plan: VersionPlan) -> None:
        """Place a version's plan in this document."""
        for f in plan.findings:
            if isinstance(f.where, Position):
                self.findings.append(f.placed(f.where))
                continue
            if f.once is not None and not self.memo.first_time(f.reason.code, *f.once):
                continue
            line, col = self.doc.position(f.where)
            self.findings.append(f.placed(Position(self.file, line, col)))
        for path, rules in plan.wants:
            self._want(path, rules)
        for path, values in plan.enums:
            self.enums[path] = list(values)
        for path, rule, total in plan.costs:
            costs = self.costs.setdefault(version, [])
            if rule is not None:
                costs.append(total)
                self.rule_costs[(path, rule)] = total
        for path, split, merged, cost in plan.compact:
            self.compact_forms.setdefault(version, []).append((path, split, merged, cost))
        if self.context.withheld is not None:
            name = str((self.doc.value.get("metadata") or {}).get("name", ""))
            for path, entry, obj, values in plan.withheld:
                self.context.withheld(Withheld(self.file, name, path, entry, obj, values))

    def _want(self, path: PathKey, rules: Sequence[Rule]) -> None:
        current = self.wanted.setdefault(path, [])
        for r in rules:
            d = r.as_dict()
            if d not in current:
                current.append(d)

    def _cost_of(self, rules: Sequence[Rule], path: PathKey) -> int:
        return sum(self.rule_costs.get((path, r.rule), 0) for r in rules)


def _facts(props: Mapping[str, Any], union: Union) -> NodeFacts:
    """The schema's defaults of the union's fields and the rules on its discriminator."""
    names = [m.json_name for m in union.members]
    disc = union.discriminator
    if disc is not None:
        names.append(disc.json_name)
    defaults = []
    for name in sorted(set(names)):
        prop = props.get(name)
        if isinstance(prop, dict) and "default" in prop:
            defaults.append((name, json.dumps(prop["default"], sort_keys=True)))
    rules: list[str] = []
    prop = props.get(disc.json_name) if disc is not None else None
    if isinstance(prop, dict) and isinstance(prop.get(VALIDATIONS), list):
        rules = [
            str(r["rule"])
            for r in prop[VALIDATIONS]
            if isinstance(r, dict) and isinstance(r.get("rule"), str)
        ]
    return NodeFacts(tuple(defaults), tuple(rules))


def _is_boolean(node: Any, name: str) -> bool:
    props = node.get("properties") if isinstance(node, dict) else None
    prop = props.get(name) if isinstance(props, dict) else None
    return isinstance(prop, dict) and prop.get("type") == "boolean"


def _variant_enum(
    enum: list[Any], go_values: list[str], union: Union, props: dict[str, Any]
) -> bool:
    """True when the CRD's enum lacks only the values of members absent from this schema:
    a feature-set variant without a gated member (openshift), not a disagreement."""
    crd = {text_of(e) for e in enum}
    absent = {m.value for m in union.members if m.json_name not in props}
    return crd <= set(go_values) and set(go_values) - crd <= absent


def plan_document(
    model: Model,
    doc: Document,
    file: str,
    evaluator: CelEvaluator,
    context: PatchContext,
    memo: RunMemo,
    path: Path | None = None,
) -> DocumentPlan:
    """What one YAML document needs (nothing when it is not a CRD)."""
    value = doc.value
    if not isinstance(value, dict) or value.get("kind") != "CustomResourceDefinition":
        return DocumentPlan({}, {}, (), writes=False)
    if value.get("apiVersion") != CRD_API_VERSION:
        line, col = doc.position(("apiVersion",))
        said = Placed(
            Reason.NOT_V1,
            Position(file, line, col),
            f"CRD apiVersion {value.get('apiVersion')!r} is not {CRD_API_VERSION}; left untouched",
        )
        return DocumentPlan({}, {}, (said,), writes=False)
    return _DocumentPlanner(model, doc, file, evaluator, context, memo, path).plan()
