"""A struct's JSON fields, found as Go's encoding/json finds them.

Every marker that names a field by its JSON name (controller-gen's
`+kubebuilder:validation:ExactlyOneOf=a;b`, validation-gen's `+k8s:subfield(a)`) and the
CRD walk ask this one service, so that a field promoted from an embedded struct is found
where the API server finds it. The rules are encoding/json's `typeFields` (Go 1.22+):

- Fields are visited breadth first: the struct's own fields are at depth 0, those of a
  struct it embeds at depth 1, and so on. An embedded field is a struct to explore when
  it has no JSON name in its tag (`json:",inline"` has none: controller-gen and
  Kubernetes spell an untagged embedding that way) and its type, or the type its
  pointer points to, is a struct. An embedded struct WITH a JSON name (`json:"spec"`)
  is a nested object, one field; an embedded non-struct type is one field named after
  its type.
- Unexported fields are skipped, except embedded structs (their exported fields are
  promoted); `json:"-"` fields are skipped.
- Each struct type is explored once, at the shallowest depth it appears (this ends
  cycles); embedded twice at the same depth, its fields are duplicates of each other.
- Of the fields that share a JSON name, encoding/json keeps one: "sort field by name,
  breaking ties with depth, then breaking ties with 'name came from json tag', then
  breaking ties with index sequence", and `dominantField`: "The fields are sorted in
  increasing index-length order, then by presence of tag. That means that the first
  field is the dominant one. We need only check for error cases: two fields at top
  level, either both tagged or neither tagged." So the shallowest field wins; at equal
  depth a tagged field wins over an untagged one; otherwise the name is dropped and
  neither field is in the JSON.

controller-gen inlines the same embedded structs into the CRD schema, so the visible
fields are the properties of the struct's schema node.

A struct embedded from a package markergen does not read (`metav1.TypeMeta`) has fields
the lookup does not know: `JSONFields.unread` names such embeddings, so that a name
missing from the known fields is not called wrong with certainty.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from markergen.model import Field, Model, NamedType, TypeKey, TypeRef

_MAX_HOPS = 64  # named types chained this deep (`type A B`, `type B C`, ...) are a cycle


@dataclass(frozen=True, slots=True)
class JSONField:
    """One JSON property of a struct and the Go field that holds it."""

    name: str
    field: Field
    owner: TypeKey  # the struct that declares the field
    via: tuple[Field, ...]  # the embedded fields it is promoted through, outermost first
    tagged: bool  # its name comes from a json tag, not from its Go name
    index: tuple[int, ...]  # encoding/json's index sequence: the field order

    @property
    def depth(self) -> int:
        return len(self.via)

    def path(self) -> str:
        """`FooFields.A`: the Go selector that reaches it."""
        return ".".join((*(f.go_name for f in self.via), self.field.go_name))


@dataclass(frozen=True, slots=True)
class Dropped:
    """A JSON name encoding/json drops: the fields at its shallowest depth tie."""

    name: str
    candidates: tuple[JSONField, ...]


@dataclass(frozen=True, slots=True)
class JSONFields:
    key: TypeKey
    fields: tuple[JSONField, ...]  # the visible fields, in encoding/json's order
    dropped: tuple[Dropped, ...] = ()
    shadowed: tuple[JSONField, ...] = ()  # deeper (or untagged) fields a visible one hides
    unread: tuple[Field, ...] = ()  # embedded structs whose fields are not known

    def get(self, name: str) -> JSONField | None:
        for f in self.fields:
            if f.name == name:
                return f
        return None

    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    def drop(self, name: str) -> Dropped | None:
        for d in self.dropped:
            if d.name == name:
                return d
        return None

    def hidden(self, name: str) -> tuple[JSONField, ...]:
        """The fields of that name a visible field (or a tie) keeps out of the JSON."""
        return tuple(f for f in self.shadowed if f.name == name)

    def by_go_name(self, go_name: str) -> JSONField | None:
        """The visible field a Go selector `x.<go_name>` most likely means (shallowest)."""
        best = [f for f in self.fields if f.field.go_name == go_name]
        return min(best, key=lambda f: f.depth) if best else None


# What an embedded field's type is: ("struct", key, its fields), ("other", ...) for a
# non-struct type, ("unread", key, ()) for a struct of a package the look-up cannot read.
Target = tuple[str, TypeKey, Sequence[Field]]


class FieldLookup:
    """The JSON fields of the structs `structs` holds (key → its own fields, in order).

    `types` are the named non-struct types, followed to see what an embedded `type B A`
    or alias is. `load` gives the fields of a struct of a package that is not among the
    inputs (markergen/model/imported.py), asked with the package of the struct that
    embeds it. Answers are computed once per struct and kept by this instance.
    """

    def __init__(
        self,
        structs: Mapping[TypeKey, Sequence[Field]],
        types: Mapping[TypeKey, NamedType],
        opaque: Callable[[TypeKey], bool] | None = None,
        load: Callable[[TypeKey, str], Sequence[Field] | None] | None = None,
    ) -> None:
        self._structs = structs
        self._types = types
        self._opaque = opaque
        self._load = load
        self._cache: dict[TypeKey, JSONFields] = {}

    def _unread(self, key: TypeKey, owner: TypeKey) -> Target:
        if self._load is not None:
            fields = self._load(key, owner.rpartition(".")[0])
            if fields is not None:
                return ("struct", key, fields)
        return ("unread", key, ())

    def target(self, ref: TypeRef, owner: TypeKey = "") -> Target:
        """What an embedded field of type `ref`, declared in struct `owner`, brings (Go
        embeds `T` or `*T` only)."""
        if ref.kind == "pointer" and ref.elem is not None:
            ref = ref.elem
        for _ in range(_MAX_HOPS):
            if ref.kind == "struct":
                return ("other", "", ())  # an anonymous struct cannot be embedded by name
            if ref.kind == "external":
                return self._unread(ref.type_key, owner)
            if ref.kind != "named":
                return ("other", "", ())
            key = ref.type_key
            if self._opaque is not None and self._opaque(key):
                # its own MarshalJSON (metav1.Time): nothing is promoted from it (Go would
                # promote the method itself and marshal the outer struct with it, a
                # shape no API type has)
                return ("other", key, ())
            fields = self._structs.get(key)
            if fields is not None:
                return ("struct", key, fields)
            named = self._types.get(key)
            if named is None:
                return self._unread(key, owner)
            ref = named.underlying  # `type B A` has A's fields; an alias is A
        return ("other", "", ())

    def of(self, key: TypeKey) -> JSONFields:
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._compute(key)
        return found

    def _compute(self, key: TypeKey) -> JSONFields:
        found: list[JSONField] = []
        unread: list[Field] = []
        # one depth of the breadth-first walk: (struct, its fields, via, index), and how
        # many times each struct was met at that depth
        level: list[tuple[TypeKey, Sequence[Field], tuple[Field, ...], tuple[int, ...]]]
        level = [(key, self._structs.get(key, ()), (), ())]
        count: dict[TypeKey, int] = {}
        visited: set[TypeKey] = set()
        while level:
            current, level = level, []
            next_count: dict[TypeKey, int] = {}
            for skey, fields, via, index in current:
                if skey in visited:
                    continue
                visited.add(skey)
                for i, f in enumerate(fields):
                    at = (*index, i)
                    target: Target = ("other", "", ())
                    if f.embedded:
                        target = self.target(f.type, skey)
                        if not f.exported and target[0] == "other":
                            continue  # an unexported non-struct embedding is ignored
                    elif not f.exported:
                        continue
                    if f.json.skip:
                        continue
                    name = f.json.name
                    if name or not f.embedded or target[0] == "other":
                        record = JSONField(name or f.go_name, f, skey, via, bool(name), at)
                        found.append(record)
                        if count.get(skey, 0) > 1:
                            # the same struct embedded twice at this depth: its fields
                            # tie with themselves and are dropped, as in encoding/json
                            found.append(record)
                        continue
                    if target[0] == "unread":
                        unread.append(f)
                        continue
                    next_count[target[1]] = next_count.get(target[1], 0) + 1
                    if next_count[target[1]] == 1:
                        level.append((target[1], target[2], (*via, f), at))
            count = next_count
        return _resolve(key, found, tuple(unread))


def _resolve(key: TypeKey, found: list[JSONField], unread: tuple[Field, ...]) -> JSONFields:
    """encoding/json's sort and `dominantField`."""
    ordered = sorted(found, key=lambda f: (f.name, f.depth, not f.tagged, f.index))
    visible: list[JSONField] = []
    dropped: list[Dropped] = []
    shadowed: list[JSONField] = []
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and ordered[j].name == ordered[i].name:
            j += 1
        group = ordered[i:j]
        i = j
        first = group[0]
        if len(group) > 1 and group[1].depth == first.depth and group[1].tagged == first.tagged:
            ties = _unique(f for f in group if f.depth == first.depth and f.tagged == first.tagged)
            dropped.append(Dropped(first.name, ties))
            shadowed.extend(f for f in _unique(group) if all(f is not t for t in ties))
            continue
        visible.append(first)
        shadowed.extend(f for f in _unique(group) if f is not first)
    visible.sort(key=lambda f: f.index)
    return JSONFields(key, tuple(visible), tuple(dropped), tuple(shadowed), unread)


def _unique(fields: Iterable[JSONField]) -> tuple[JSONField, ...]:
    """Each record once (a struct embedded twice adds the same record twice)."""
    seen: set[int] = set()
    out: list[JSONField] = []
    for f in fields:
        if id(f) not in seen:
            seen.add(id(f))
            out.append(f)
    return tuple(out)


def model_lookup(model: Model) -> FieldLookup:
    """The lookup over a built model's structs (for the rules and the CRD walk)."""
    return FieldLookup(
        {key: s.fields for key, s in model.structs.items()}, model.types, model.is_opaque
    )
