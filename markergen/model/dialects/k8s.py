"""k8s: the `+k8s:` tags of Kubernetes declarative validation (validation-gen).

`+k8s:unionDiscriminator(union: "u")`, `+k8s:unionMember(union: "u", memberName: "X")`
(exactly one member set) and `+k8s:zeroOrOneOfMember` (at most one), with `+k8s:enum` on
the discriminator's type. A member's value is its `memberName`, by default the Go field
name. docs/k8s.md describes the tags.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from dataclasses import field as dc_field

from markergen import hints
from markergen.diagnostics import Diagnostic, diag
from markergen.markers import (
    K8S_EACH_KEY,
    K8S_EACH_VAL,
    K8S_ENUM,
    K8S_ITEM,
    K8S_LIST_MAP_KEY,
    K8S_LIST_TYPE,
    K8S_SUBFIELD,
    K8S_UNION_DISCRIMINATOR,
    K8S_UNION_MEMBER,
    K8S_UNIQUE,
    K8S_ZERO_OR_ONE_OF_MEMBER,
    Marker,
    Wrap,
    edit_distance,
)
from markergen.model import (
    Discriminator,
    Enum,
    Field,
    Member,
    Mode,
    NamedType,
    Struct,
    TypeKey,
    TypeRef,
    Union,
)
from markergen.model.dialects.base import (
    Ctx,
    StructInput,
    discriminator_of,
    marker_of,
    named_underlying,
    zero_kind,
)
from markergen.model.lookup import FieldLookup


def _union_key(u: Union) -> tuple[str, frozenset[str]]:
    d = u.discriminator.go_name if u.discriminator else ""
    return d, frozenset(m.go_name for m in u.members)


def one_union_written_twice(others: list[Union], k8s: list[Union]) -> list[Union]:
    """kubernetes/api marks some structs `+union` (2019) and their members
    `+k8s:unionMember` too: one union, which the API server checks with validation-gen's
    code, so the k8s spelling stands and the 2019 copy (same discriminator, same members)
    goes."""
    if not k8s:
        return list(others)  # nearly every struct: nothing written twice
    written = {_union_key(u) for u in k8s}
    # openapi-gen writes the `+union` struct's list entry whatever the `+k8s:` tags say:
    # the k8s union that stands for it keeps that origin, so OpenAPI stays openapi-gen's.
    listed = {_union_key(u): u for u in others if u.origin == "struct"}
    kept = [_as_listed(u, listed[_union_key(u)]) if _union_key(u) in listed else u for u in k8s]
    return [u for u in others if _union_key(u) not in written] + kept


def _as_listed(k8s: Union, struct_union: Union) -> Union:
    """The k8s union standing for a `+union` struct's: openapi-gen's list entry names each
    member by the 2019 value (its Go field name). A mode union keeps its own modes, which
    its checks use; a union member keeps its memberName."""
    if not k8s.modes:
        return replace(k8s, origin="struct")
    values = {m.go_name: m.value for m in struct_union.members}
    members = tuple(replace(m, value=values.get(m.go_name, m.value)) for m in k8s.members)
    return replace(k8s, origin="struct", members=members)


def form_k8s(ctx: Ctx, fields: list[Field]) -> list[Union]:
    discs: dict[str, Field] = {}
    members: dict[str, list[tuple[Field, Marker]]] = {}
    zero_or_one: dict[str, list[tuple[Field, Marker]]] = {}
    order: list[str] = []

    def note(name: str) -> None:
        if name not in order:
            order.append(name)

    for f in fields:
        seen_unions: list[str] = []
        for m in f.markers:
            if m.via:
                continue  # a wrapped tag is about a part of the value (build_wrapped)
            if m.name == K8S_UNION_DISCRIMINATOR:
                if not _string_kind(f.type, ctx.types):
                    ctx.diagnostics.append(_not_string(ctx.subject(f), f, m))
                    continue
                name = m.arg("union") or ""
                discs.setdefault(name, f)
                note(name)
            elif m.name in (K8S_UNION_MEMBER, K8S_ZERO_OR_ONE_OF_MEMBER):
                if zero_kind(f.type, ctx.types) == "struct":
                    ctx.diagnostics.append(_struct_member(ctx.subject(f), f, m))
                    continue
                name = m.arg("union") or ""
                target = members if m.name == K8S_UNION_MEMBER else zero_or_one
                target.setdefault(name, []).append((f, m))
                note(name)
                if name in seen_unions:
                    continue
                if seen_unions:
                    ctx.diagnostics.append(
                        diag(
                            "MG309",
                            m.pos,
                            f"field {ctx.subject(f)} is a member of two unions "
                            f"({seen_unions[0]!r} and {name!r})",
                            hint=hints.remove(hints.marker_line(m.raw), f.go_name),
                        )
                    )
                seen_unions.append(name)
    out = []
    for name in order:
        disc_field = discs.get(name)
        disc = discriminator_of(disc_field, ctx) if disc_field else None
        entries = members.get(name, []) + zero_or_one.get(name, [])
        mode: Mode = "exactly-one" if members.get(name) else "at-most-one"
        if not entries and disc_field is not None and len(order) > 1:
            # the discriminator names a union that no member names: a typo of another
            # union's name (MG333); a discriminator alone is MG205's business
            ctx.diagnostics.append(_lonely_discriminator(ctx, name, disc_field, order))
            continue
        ms = tuple(
            _member(f, m, ctx.types)
            for f, m in sorted(entries, key=lambda e: (e[0].pos.line, e[0].pos.column))
        )
        founding = marker_of(disc_field, K8S_UNION_DISCRIMINATOR) if disc_field else (entries[0][1])
        values = disc.values if disc else ()
        out.append(
            Union(
                struct=ctx.struct.key,
                dialect="k8s",
                origin="discriminated",
                name=name or (disc.go_name if disc else ""),
                discriminator=disc,
                members=ms,
                empty_values=tuple(sorted(set(values) - {m.value for m in ms})),
                mode="at-most-one" if disc is not None and not disc.required else mode,
                semantics="k8s",
                pos=founding.pos if founding else ctx.struct.pos,
                stage=founding.stage if founding else "",
                gate=founding.gate if founding else "",
                gate_disabled=founding.gate_disabled if founding else False,
            )
        )
    return out


# ---------------------------------------------------------------------------
# What validation-gen refuses about the union tags themselves, and the Go kinds it sees


def _member(f: Field, m: Marker, types: Mapping[TypeKey, NamedType]) -> Member:
    """A field tagged `+k8s:unionMember` / `+k8s:zeroOrOneOfMember`: its value is the
    `memberName` argument, else the Go name (validation-gen's)."""
    return Member(
        f.go_name,
        f.json_name,
        m.arg("memberName") or f.go_name,
        False,
        f.pos,
        zero=zero_kind(f.type, types),
    )


def _string_kind(ref: TypeRef, types: Mapping[TypeKey, NamedType]) -> bool:
    base = named_underlying(ref.deref(), types)
    return base.kind == "builtin" and base.name == "string"


def _struct_member(subject: str, f: Field, m: Marker) -> Diagnostic:
    return diag(
        "MG330",
        m.pos,
        f"+{m.name} on {subject}, a struct value: validation-gen accepts union members "
        "of nilable and primitive types only (a struct value is never unset)",
        hint="make it a pointer: "
        + hints.edits(
            f"write the field as `{f.go_name} *{f.type.text}`",
            # a pointer that is always written is not unset either (MG301)
            *([tag] if (tag := hints.json_options(f.json, add=("omitempty",))) else []),
        ),
    )


def _not_string(subject: str, f: Field, m: Marker) -> Diagnostic:
    return diag(
        "MG331",
        m.pos,
        f"+{m.name} on {subject} of type {f.type.text}: validation-gen accepts a "
        "discriminator of a string type only",
        hint=f"give it a string type: write the field as `{f.go_name} string` (or a named "
        "string type with `+k8s:enum`)",
    )


def _lonely_discriminator(ctx: Ctx, name: str, f: Field, order: list[str]) -> Diagnostic:
    m = marker_of(f, K8S_UNION_DISCRIMINATOR)
    others = [n for n in order if n != name]
    tag = f"+{K8S_UNION_DISCRIMINATOR}"
    if name and others[0]:
        hint = f'replace `union: "{name}"` with `union: "{others[0]}"` on this line'
    elif name:
        hint = f'replace `(union: "{name}")` with `` on this line'
    else:
        hint = f'replace `{tag}` with `{tag}(union: "{others[0]}")` on this line'
    shown = f"union {name!r}" if name else "the unnamed union"
    return diag(
        "MG333",
        m.pos if m is not None else f.pos,
        f"discriminator {ctx.subject(f)} is for {shown}, which has no members",
        hint=hint,
    )


# ---------------------------------------------------------------------------
# Unions through validation-gen's path wrappers (`+k8s:subfield`, `+k8s:item`, `+k8s:eachVal`)

_UNION_TAGS = frozenset({K8S_UNION_DISCRIMINATOR, K8S_UNION_MEMBER, K8S_ZERO_OR_ONE_OF_MEMBER})


@dataclass
class _Wrapped:
    """The tags that make one union below a struct: keyed by (at, union name)."""

    at: tuple[str, ...]
    name: str
    owner: Struct | None = None  # the struct whose fields are members (subfield)
    disc: Field | None = None
    fields: list[tuple[Field, Marker]] = dc_field(default_factory=list)
    items: list[tuple[Member, Marker]] = dc_field(default_factory=list)
    founding: Marker | None = None
    value: bool = False  # the node at `at` is a struct value held by a field


def _flat(lookup: FieldLookup, s: Struct) -> dict[str, Field]:
    """A struct's JSON fields by name, those of embedded structs included, as
    validation-gen finds a subfield ("a direct field of the struct, or of an embedded
    struct") and as encoding/json resolves them (markergen/model/lookup.py)."""
    return {jf.name: jf.field for jf in lookup.of(s.key).fields}


def _list_map_keys(f: Field | None, named: NamedType | None) -> tuple[str, ...]:
    """The keys validation-gen selects list items by: `+k8s:listMapKey` of a list that is
    `+k8s:listType=map` (or `+k8s:unique=map`); the plain `+listType` / `+listMapKey` are
    openapi-gen's, which validation-gen does not read. Empty when the list is no list-map."""
    keys: list[str] = []
    is_map = False
    for markers in ((f.markers if f else ()), (named.markers if named else ())):
        for m in markers:
            if m.via or m.value is None:
                continue
            if m.name == K8S_LIST_MAP_KEY:
                keys.append(m.value)
            elif m.name in (K8S_LIST_TYPE, K8S_UNIQUE) and m.value == "map":
                is_map = True
    return tuple(dict.fromkeys(keys)) if is_map else ()


class _WrappedBuilder:
    def __init__(
        self,
        structs: Mapping[TypeKey, Struct],
        types: Mapping[TypeKey, NamedType],
        enums: Mapping[TypeKey, Enum],
    ) -> None:
        self.structs = structs
        self.types = types
        self.enums = enums
        self.diagnostics: list[Diagnostic] = []
        self.lookup = FieldLookup({k: s.fields for k, s in structs.items()}, types)
        # The named types whose own markers hold a wrapped union tag: a field without a
        # wrapped marker matters only when its type is one of these (nearly none is).
        self.tagged_types = {
            k for k, n in types.items() if any(m.via and m.name in _UNION_TAGS for m in n.markers)
        }

    def fail(self, code: str, m: Marker, message: str, hint: str | None = None) -> None:
        self.diagnostics.append(diag(code, m.pos, message, hint=hint))

    def struct_of(self, ref: TypeRef) -> Struct | None:
        ref = named_underlying(ref.deref(), self.types)
        return self.structs.get(ref.type_key) if ref.kind == "named" else None

    def unions(self, s: Struct) -> tuple[Union, ...]:
        found: dict[tuple[tuple[str, ...], str], _Wrapped] = {}
        tagged_types = self.tagged_types
        for f in s.fields:
            if not f.json_name:
                continue
            for m in f.markers:
                if m.via:
                    break
            else:
                # no wrapped marker of its own: only a wrapped union tag on its type counts
                if not tagged_types:
                    continue
                ref = f.type.deref()
                if ref.kind != "named" or ref.type_key not in tagged_types:
                    continue
            named = (
                self.types.get(f.type.deref().type_key) if f.type.deref().kind == "named" else None
            )
            tagged = [(m, f.json_name) for m in f.markers if m.via and m.name in _UNION_TAGS]
            if named is not None:
                tagged += [
                    (m, named.name) for m in named.markers if m.via and m.name in _UNION_TAGS
                ]
            for m, label in tagged:
                self.place(s, f, named, m, label, found)
            for m in f.markers:
                if m.via and m.name == K8S_ENUM:
                    self.fail(
                        "MG118",
                        m,
                        f"+{K8S_ENUM} through +{m.via[0].kind} on {s.name}.{f.go_name}: "
                        "validation-gen takes +k8s:enum on a type declaration only",
                        hint="delete this line (and mark the string type of the values "
                        f"`+{K8S_ENUM}` instead)",
                    )
        return tuple(u for w in found.values() if (u := self.form(s, w)) is not None)

    def place(
        self,
        s: Struct,
        f: Field,
        named: NamedType | None,
        m: Marker,
        label: str,
        found: dict[tuple[tuple[str, ...], str], _Wrapped],
    ) -> None:
        subject = f"{s.name}.{f.go_name}"
        kinds = [w.kind for w in m.via]
        if K8S_EACH_KEY in kinds:
            self.fail(
                "MG118",
                m,
                f"+{m.name} through +{K8S_EACH_KEY} on {subject}: a map key is no field "
                "or list item, and validation-gen applies union tags to those only",
                hint=f"replace `+{K8S_EACH_KEY}=` with `` on this line (the tag then applies "
                "to the field)",
            )
            return
        if kinds.count(K8S_SUBFIELD) > 1:
            self.fail(
                "MG119",
                m,
                f"nested +{K8S_SUBFIELD} on {subject}: validation-gen refuses a subfield of "
                "a subfield",
                hint=self.unnest(f, m),
            )
            return
        at: tuple[str, ...] = (f.json_name,)
        cur: TypeRef = f.type
        holder: Field | None = f
        for i, step in enumerate(m.via):
            last = i == len(m.via) - 1
            if named_underlying(cur.deref(), self.types).kind in ("external", "unknown"):
                return  # a type from outside the inputs: validation-gen may know it, we do not
            if step.kind == K8S_EACH_VAL:
                base = named_underlying(cur.deref(), self.types)
                if last or base.kind not in ("slice", "array", "map") or base.elem is None:
                    why = (
                        "a list or map value is no field: wrap the tag in "
                        f"`+{K8S_SUBFIELD}(name)=` to name the member"
                        if last
                        else "the field is no list or map"
                    )
                    self.fail(
                        "MG118",
                        m,
                        f"+{m.name} through +{K8S_EACH_VAL} on {subject}: {why}",
                        hint=f"replace `+{K8S_EACH_VAL}=` with `` on this line (the tag then "
                        "applies to the list or map field, set when not empty), or name a "
                        f"field of its items: `+{K8S_EACH_VAL}=+{K8S_SUBFIELD}(<field>)=+{m.name}`",
                    )
                    return
                cur, at, holder = base.elem, (*at, "*"), None
            elif step.kind == K8S_SUBFIELD:
                owner = self.struct_of(cur)
                sub = None
                if owner is not None:
                    sub = _flat(self.lookup, owner).get(step.name)
                if owner is None or sub is None:
                    what = "is no struct" if owner is None else f"has no field {step.name!r}"
                    names = list(_flat(self.lookup, owner)) if owner else []
                    closest = min(
                        names,
                        key=lambda n: (edit_distance(n.lower(), step.name.lower()), n),
                        default="",
                    )
                    self.fail(
                        "MG117",
                        m,
                        f"+{K8S_SUBFIELD}({step.name}) on {subject}: the value {what}",
                        hint=f"replace `+{K8S_SUBFIELD}({step.name})` with "
                        f"`+{K8S_SUBFIELD}({closest})` on this line (its JSON fields: "
                        f"{', '.join(names)})"
                        if closest
                        else f"delete this line: +{K8S_SUBFIELD} names a field of a struct value",
                    )
                    return
                if last:
                    # a struct value (not a pointer) always has an old value on update:
                    # validation-gen compares the union with the zero struct's
                    value = holder is not None and holder.type.kind != "pointer"
                    self.field_tag(s, owner, sub, m, at, found, value)
                    return
                cur, at, holder = sub.type, (*at, sub.json_name), sub
            else:  # K8S_ITEM
                self.item_tag(
                    s,
                    subject,
                    holder,
                    named if i == 0 else None,
                    cur,
                    m,
                    step,
                    at,
                    # validation-gen names an item member after the last path element
                    # before it: the field, the subfield, or the named list type
                    label if i == 0 or holder is None else holder.json_name,
                    last,
                    found,
                )
                return

    def unnest(self, f: Field, m: Marker) -> str:
        """MG119's fix: the tag, less its first subfield, on the field that subfield names."""
        outer = next(w for w in m.via if w.kind == K8S_SUBFIELD)
        owner = self.struct_of(f.type)
        sub = None
        if owner is not None:
            sub = _flat(self.lookup, owner).get(outer.name)
        if owner is None or sub is None:
            return f"apply the tag on the nested struct's own field, without `+{K8S_SUBFIELD}({outer.name})=`"
        head = f"+{K8S_SUBFIELD}({outer.name})="
        rest = m.raw[m.raw.index(head) + len(head) :]
        return f"delete this line and write `// {rest}` above {sub.go_name} in {owner.name}"

    def item_tag(
        self,
        s: Struct,
        subject: str,
        holder: Field | None,
        named: NamedType | None,
        cur: TypeRef,
        m: Marker,
        step: Wrap,
        at: tuple[str, ...],
        label: str,
        last: bool,
        found: dict[tuple[tuple[str, ...], str], _Wrapped],
    ) -> None:
        if not last or m.name == K8S_UNION_DISCRIMINATOR:
            what = (
                "a discriminator"
                if m.name == K8S_UNION_DISCRIMINATOR
                else "a tag through more wrappers"
            )
            self.fail(
                "MG118",
                m,
                f"+{m.name} through +{K8S_ITEM} on {subject}: a list item can only be a "
                f"union member (+{K8S_UNION_MEMBER} or +{K8S_ZERO_OR_ONE_OF_MEMBER}), not {what}",
                hint="delete this line (a list item can be a member, "
                f"`+{K8S_ITEM}(...)=+{K8S_UNION_MEMBER}`, never a discriminator)",
            )
            return
        base = named_underlying(cur.deref(), self.types)
        elem = self.struct_of(base.elem) if base.kind in ("slice", "array") and base.elem else None
        if elem is None:
            self.fail(
                "MG115",
                m,
                f"+{K8S_ITEM} on {subject}: validation-gen accepts it on lists of structs only",
                hint=f"delete this line: +{K8S_ITEM} selects items of a `[]Struct` list "
                f"marked `+{K8S_LIST_TYPE}=map`",
            )
            return
        keys = _list_map_keys(holder, named)
        given = [k for k, _ in step.selector]
        fields = _flat(self.lookup, elem)
        problem = ""
        if step.positional:
            problem = "every argument must be named after a list-map key"
        elif not keys:
            problem = f"the list has no `+{K8S_LIST_TYPE}=map` with `+{K8S_LIST_MAP_KEY}`"
        elif sorted(given) != sorted(keys):
            problem = f"its arguments ({', '.join(given) or 'none'}) are not the list-map keys ({', '.join(keys)})"
        else:
            for k, v in step.selector:
                target = fields.get(k)
                if target is None:
                    problem = f"the item type {elem.name} has no field {k!r}"
                    break
                want = named_underlying(target.type.deref(), self.types)
                quoted = v.startswith('"')
                if want.kind == "builtin" and (want.name == "string") != quoted:
                    problem = f"{k} is a {want.name} but {v} is {'a string' if quoted else 'not a string'}"
                    break
        if problem:
            example = ", ".join(f'{k}: "..."' for k in keys) or 'name: "..."'
            missing = [k for k in keys if k not in given]
            extra = [g for g in given if g not in keys]
            if len(missing) == len(extra) == 1 and not step.positional:
                keys_hint = f"replace `{extra[0]}:` with `{missing[0]}:` on this line"
            else:
                keys_hint = (
                    f"select the item by every list-map key: `+{K8S_ITEM}({example})=+{m.name}`"
                )
            self.fail(
                "MG116",
                m,
                f"`{m.raw}` on {subject}: {problem}",
                hint=keys_hint
                if keys
                else f"write `// +{K8S_LIST_TYPE}=map` and `// +{K8S_LIST_MAP_KEY}={given[0]}` "
                f"above {holder.go_name if holder else '<the list field>'}"
                if given
                else f"mark the list `+{K8S_LIST_TYPE}=map` and `+{K8S_LIST_MAP_KEY}=<key>`",
            )
            return
        name = m.arg("union") or ""
        w = found.setdefault((at, name), _Wrapped(at, name))
        display = label + "[" + step.selector_text() + "]"
        if any(x.json_name == display for x, _ in w.items):
            self.fail(
                "MG332",
                m,
                f"list item {display} is a member of union {name!r} twice",
                hint="delete this line (it repeats a member)",
            )
            return
        member = Member(
            display, display, m.arg("memberName") or "", False, m.pos, selector=step.selector
        )
        w.items.append((member, m))
        w.founding = w.founding or m

    def field_tag(
        self,
        s: Struct,
        owner: Struct,
        sub: Field,
        m: Marker,
        at: tuple[str, ...],
        found: dict[tuple[tuple[str, ...], str], _Wrapped],
        value: bool = False,
    ) -> None:
        subject = f"{owner.name}.{sub.go_name} (+{K8S_SUBFIELD} on {s.name})"
        name = m.arg("union") or ""
        w = found.setdefault((at, name), _Wrapped(at, name, owner))
        w.value = value
        if m.name == K8S_UNION_DISCRIMINATOR:
            if not _string_kind(sub.type, self.types):
                self.diagnostics.append(_not_string(subject, sub, m))
                return
            w.disc = w.disc or sub
        else:
            if zero_kind(sub.type, self.types) == "struct":
                self.diagnostics.append(_struct_member(subject, sub, m))
                return
            w.fields.append((sub, m))
        w.founding = w.founding or m

    def form(self, s: Struct, w: _Wrapped) -> Union | None:
        founding = w.founding
        if founding is None:
            return None
        disc: Discriminator | None = None
        if w.disc is not None and w.owner is not None:
            o = w.owner
            ctx = Ctx(
                StructInput(o.key, o.name, o.markers, o.fields, o.pos), self.enums, self.types
            )
            disc = discriminator_of(w.disc, ctx)
            self.diagnostics.extend(ctx.diagnostics)
        members = tuple(_member(f, m, self.types) for f, m in w.fields) + tuple(
            member for member, _ in w.items
        )
        tags = [m for _, m in w.fields] + [m for _, m in w.items]
        exactly = any(m.name == K8S_UNION_MEMBER for m in tags)
        return Union(
            struct=s.key,
            dialect="k8s",
            origin="discriminated",
            name=w.name or (disc.go_name if disc else ""),
            discriminator=disc,
            members=members,
            empty_values=tuple(
                sorted(set(disc.values if disc else ()) - {x.value for x in members})
            ),
            mode="exactly-one" if exactly else "at-most-one",
            semantics="k8s",
            pos=founding.pos,
            stage=founding.stage,
            gate=founding.gate,
            gate_disabled=founding.gate_disabled,
            at=w.at,
            items=bool(w.items),
            at_value=w.value,
        )


def build_wrapped(
    structs: Mapping[TypeKey, Struct],
    types: Mapping[TypeKey, NamedType],
    enums: Mapping[TypeKey, Enum],
) -> tuple[dict[TypeKey, tuple[Union, ...]], list[Diagnostic]]:
    """The unions written through path wrappers on each struct's fields (and on the
    named list types of its fields), with what validation-gen would refuse about them."""
    b = _WrappedBuilder(structs, types, enums)
    out: dict[TypeKey, tuple[Union, ...]] = {}
    for key, s in structs.items():
        found = b.unions(s)
        if found:
            out[key] = found
    return out, b.diagnostics
