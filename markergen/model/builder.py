"""Syntax records + markers → the model.

`ModelBuilder` builds the model one package at a time as the packages are loaded
(markergen.pipeline); `build_model` is the same for packages already in memory
(markergen.diff). Neither raises on bad input: what they cannot understand becomes a
diagnostic in `Model.diagnostics`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import replace

from markergen.diagnostics import Diagnostic, diag
from markergen.doctext import description
from markergen.golang.syntax import GoPackage, Position, TypeDecl
from markergen.markers import REGISTRY, Marker, Registry, Target
from markergen.model import OPAQUE_TYPES, Model, NamedType, Package, Struct, TypeKey, TypeRef
from markergen.model.dialects.base import StructInput
from markergen.model.dialects.k8s import build_wrapped
from markergen.model.enums import ImportSource, PackageConsts, build_enums, external_refs
from markergen.model.fields import make_field
from markergen.model.ignores import Ignore, file_ignores
from markergen.model.imported import ImportedStructs, PackageFinder
from markergen.model.lookup import FieldLookup
from markergen.model.markerread import MarkerReader
from markergen.model.resolve import Resolver, TypeIndex
from markergen.model.unions import build_unions


def build_model(
    packages: Sequence[GoPackage],
    registry: Registry = REGISTRY,
    imports: ImportSource | None = None,
) -> Model:
    """`imports` (markergen.golang.imports.ImportedPackages) resolves constants the
    inputs take from packages not on the command line; without it they stay unknown."""
    builder = ModelBuilder(registry, imports)
    builder.declare(packages)
    for pkg in packages:
        builder.add(pkg)
    return builder.finish()


class _Declared:
    """Which type names each input package declares: the resolver's whole world.

    A package is added when it is read. Until every input has been read (the model is
    built package by package, so that each package's syntax records are freed before
    the next is read), a qualified name in an input package not read yet is taken to be
    declared; `ModelBuilder.finish` corrects the few that were not."""

    def __init__(self) -> None:
        self.declared: set[tuple[str, str]] = set()
        self.read: set[str] = set()
        self.pending: frozenset[str] = frozenset()
        self.assumed: set[tuple[str, str]] = set()

    def has(self, package: str, name: str) -> bool:
        if (package, name) in self.declared:
            return True
        if package in self.pending and package not in self.read:
            self.assumed.add((package, name))
            return True
        return False

    def add(self, pkg: GoPackage) -> None:
        self.read.add(pkg.import_path)
        self.declared.update((pkg.import_path, d.name) for f in pkg.files for d in f.types)


class ModelBuilder:
    """Builds the model one package at a time: `expect` the input packages' import
    paths (or `declare` the packages), `add` each package in order, then `finish`.
    After `add`, nothing of a package's syntax records is kept but what the model
    itself holds."""

    def __init__(self, registry: Registry = REGISTRY, imports: ImportSource | None = None) -> None:
        self.registry = registry
        self.reader = MarkerReader(registry)
        self.imports = imports
        self.package_dirs: dict[str, str] = {}
        self.index = _Declared()
        self.diagnostics: list[Diagnostic] = []
        self.packages: list[Package] = []
        # (input, package, description)
        self.struct_inputs: list[tuple[StructInput, str, str]] = []
        self.types: dict[TypeKey, NamedType] = {}
        self.consts: list[PackageConsts] = []
        # the markers of the inputs' constants: `+k8s:enumExclude` (markergen/model/enums.py)
        self.const_markers: dict[tuple[str, str], tuple[Marker, ...]] = {}
        self.ignores: list[Ignore] = []
        self.opaque: set[TypeKey] = set()
        self.files_read: set[str] = set()

    def expect(self, import_paths: Iterable[str]) -> None:
        """The import paths of every input package, before the first `add`."""
        self.index.pending = frozenset(import_paths)

    def declare(self, packages: Sequence[GoPackage]) -> None:
        """Every input package, known before the first `add`: no name is assumed."""
        for pkg in packages:
            self.index.add(pkg)

    def add(self, pkg: GoPackage) -> None:
        reader = self.reader
        self.index.add(pkg)
        self.package_dirs[pkg.import_path] = pkg.dir
        self.diagnostics.extend(_read_problems(pkg))
        pkg_markers = _package_markers(pkg, reader)
        self.packages.append(
            Package(
                import_path=pkg.import_path,
                name=pkg.name,
                dir=pkg.dir,
                module_root=pkg.module_root,
                go_version=pkg.go_version,
                markers=pkg_markers,
                files=tuple(f.path for f in pkg.files),
            )
        )
        self.files_read.update(f.path for f in pkg.files)
        self.files_read.update(pkg.skipped)
        if pkg.module_root is not None:
            # its `go` line decides whether omitzero is honoured (MG301, MG302)
            self.files_read.add(os.path.abspath(os.path.join(pkg.module_root, "go.mod")))
        self.opaque.update(
            f"{pkg.import_path}.{name}" for file in pkg.files for name in file.marshalers
        )
        optional_by_default = any(
            m.name == "kubebuilder:validation:Optional" for m in pkg_markers
        )
        for file in pkg.files:
            resolver = Resolver(self.index, pkg.import_path, file)
            # The enum builder needs a file's imports and constants, not its types.
            slim = replace(
                file, package_doc=None, package_comments=(), types=(), errors=(), marked=()
            )
            self.consts.append(PackageConsts(pkg.import_path, slim, file.consts, pkg.dir))
            for spec in file.consts:
                if spec.doc is not None:
                    # only `+k8s:enumExclude` takes effect on a constant: reading reports
                    # the union and enum markers written there by mistake (MG005)
                    read = reader.read((spec.doc,), Target.CONST, f"constant {spec.name}")
                    if read:
                        self.const_markers[(pkg.import_path, spec.name)] = read
            for marked in file.marked:
                # likewise for variables and functions (MG005)
                if marked.kind == "var":
                    reader.read((marked.doc,), Target.VAR, f"variable {marked.name}")
                else:
                    reader.read((marked.doc,), Target.FUNC, f"function {marked.name}")
            file_igs, ignore_problems = file_ignores(file)
            self.ignores += file_igs
            self.diagnostics += ignore_problems
            for decl in file.types:
                key = f"{pkg.import_path}.{decl.name}"
                markers = reader.read((decl.doc_extra, decl.doc), Target.TYPE, f"type {decl.name}")
                if decl.type.kind == "struct" and not decl.alias:
                    fields = tuple(
                        make_field(fd, resolver, reader, decl.name, optional_by_default)
                        for fd in decl.type.fields
                    )
                    self.struct_inputs.append(
                        (
                            StructInput(key, decl.name, markers, fields, decl.pos),
                            pkg.import_path,
                            description(decl.doc),
                        )
                    )
                else:
                    self.types[key] = NamedType(
                        key=key,
                        name=decl.name,
                        package=pkg.import_path,
                        underlying=resolver.resolve(decl.type),
                        alias=decl.alias,
                        markers=markers,
                        description=description(decl.doc),
                        pos=decl.pos,
                    )
    def finish(self) -> Model:
        wrong = self.index.assumed - self.index.declared
        if wrong:
            self._not_declared(wrong)
        types = self.types
        diagnostics = self.diagnostics
        # Fields whose type is another package's (`corev1.Protocol`): its enum values are
        # looked up through the imports; the directory is where the import is resolved
        # from.
        external: dict[TypeKey, str] = {}
        for inp, package, _ in self.struct_inputs:
            found: set[TypeKey] = set()
            for f in inp.fields:
                if f.type.kind not in _NOT_EXTERNAL:  # most fields: nothing to look through
                    external_refs(f.type, found)
            for key in found:
                external.setdefault(key, self.package_dirs[package])
        imported_reader = MarkerReader(self.registry)  # an imported package is never checked

        def imported_markers(decl: TypeDecl) -> tuple[Marker, ...]:
            return imported_reader.read((decl.doc_extra, decl.doc), Target.TYPE, decl.name)

        def imported_type(pc: PackageConsts, decl: TypeDecl) -> TypeRef:
            return Resolver(TypeIndex(frozenset()), pc.import_path, pc.file).resolve(decl.type)

        enums, imported, enum_diags = build_enums(
            types,
            self.consts,
            self.imports,
            external,
            imported_markers,
            imported_type,
            self.const_markers,
        )
        diagnostics.extend(enum_diags)
        structs: dict[TypeKey, Struct] = {}
        opaque = frozenset(self.opaque) | OPAQUE_TYPES
        # structs embedded from packages that are not inputs are read when a look-up
        # needs their fields (a controller-gen union marker naming a promoted field)
        imported_structs = (
            ImportedStructs(self.imports, dict(self.package_dirs), self.registry)
            if isinstance(self.imports, PackageFinder)
            else None
        )
        lookup = FieldLookup(
            {inp.key: inp.fields for inp, _, _ in self.struct_inputs},
            types,
            opaque.__contains__,
            imported_structs.fields if imported_structs is not None else None,
        )
        for inp, package, desc in self.struct_inputs:
            unions, union_diags = build_unions(inp, enums, types, lookup)
            diagnostics.extend(union_diags)
            structs[inp.key] = Struct(
                key=inp.key,
                name=inp.name,
                package=package,
                fields=inp.fields,
                unions=unions,
                markers=inp.markers,
                description=desc,
                pos=inp.pos,
            )
        wrapped, wrapped_diags = build_wrapped(structs, types, enums)
        diagnostics.extend(wrapped_diags)
        for key, inner in wrapped.items():
            structs[key] = replace(structs[key], wrapped=inner)
        _defined_struct_types(structs, types)
        diagnostics.extend(self.reader.diagnostics)
        unique = sorted(set(diagnostics), key=Diagnostic.sort_key)
        imported_files = self.imports.files_read if self.imports is not None else ()
        if imported_structs is not None:
            imported_files = (*imported_files, *sorted(imported_structs.files_read))
        return Model(
            packages=tuple(self.packages),
            structs=dict(sorted(structs.items())),
            types=dict(sorted(types.items())),
            enums=enums,
            imported=imported,
            diagnostics=tuple(unique),
            ignores=tuple(self.ignores),
            opaque=frozenset(self.opaque),
            files_read=tuple(sorted(self.files_read | set(imported_files))),
        )

    def _not_declared(self, wrong: set[tuple[str, str]]) -> None:
        """Names taken to be declared in an input package read later that it does not
        declare: what resolving them with every package known gives (external)."""

        def fix(ref: TypeRef) -> TypeRef:
            elem = fix(ref.elem) if ref.elem is not None else None
            key = fix(ref.key) if ref.key is not None else None
            kind = ref.kind
            if kind == "named" and (ref.package, ref.name) in wrong:
                kind = "external"
            if kind == ref.kind and elem is ref.elem and key is ref.key:
                return ref
            return replace(ref, kind=kind, elem=elem, key=key)

        self.struct_inputs = [
            (replace(inp, fields=tuple(replace(f, type=fix(f.type)) for f in inp.fields)), pkg, d)
            for inp, pkg, d in self.struct_inputs
        ]
        self.types = {k: replace(t, underlying=fix(t.underlying)) for k, t in self.types.items()}


# Type kinds that never lead to another package's type (external_refs finds nothing).
_NOT_EXTERNAL = frozenset({"builtin", "named", "unknown", "struct", "interface"})


def _defined_struct_types(structs: dict[TypeKey, Struct], types: dict[TypeKey, NamedType]) -> None:
    """`type ThingCopy shared.Thing` is a struct type of its own in Go and in openapi-gen
    (its own definition, with the underlying struct's fields and unions); move it from
    the named types to the structs. Chains (`type A B`, `type B C`) resolve in turn."""
    changed = True
    while changed:
        changed = False
        for key, named in list(types.items()):
            target = named.underlying
            if named.alias or target.kind != "named" or target.type_key not in structs:
                continue
            base = structs[target.type_key]
            structs[key] = Struct(
                key=key,
                name=named.name,
                package=named.package,
                fields=base.fields,
                unions=tuple(replace(u, struct=key) for u in base.unions),
                markers=named.markers,
                description=named.description,
                pos=named.pos,
                wrapped=tuple(replace(u, struct=key) for u in base.wrapped),
            )
            del types[key]
            changed = True


def _read_problems(pkg: GoPackage) -> list[Diagnostic]:
    out = [
        diag("MG002", Position(p.path, p.line, p.column), p.message) for p in pkg.problems
    ]
    for file in pkg.files:
        out.extend(diag("MG001", err.pos, err.message) for err in file.errors)
    if pkg.module_root is None and pkg.files:
        out.append(
            diag(
                "MG006",
                Position(pkg.files[0].path, 1, 1),
                f"no go.mod above {pkg.dir}; its import path is taken to be {pkg.import_path}",
                hint="run markergen inside a Go module so definition names match openapi-gen's",
            )
        )
    return out


def _package_markers(pkg: GoPackage, reader: MarkerReader) -> tuple[Marker, ...]:
    groups = [group for f in pkg.files for group in f.package_comments]
    return reader.read(groups, Target.PACKAGE, f"package {pkg.name}")
