"""Syntax records + markers → the model.

`build_model` is the only entry point. It never raises on bad input: what it cannot
understand becomes a diagnostic in `Model.diagnostics`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from markergen.diagnostics import Diagnostic, diag
from markergen.doctext import description
from markergen.golang.syntax import GoPackage, Position, TypeDecl
from markergen.markers import REGISTRY, Marker, Registry, Target
from markergen.model import Model, NamedType, Package, Struct, TypeKey, TypeRef
from markergen.model.dialects.base import StructInput
from markergen.model.dialects.k8s import build_wrapped
from markergen.model.enums import ImportSource, PackageConsts, build_enums, external_refs
from markergen.model.fields import make_field
from markergen.model.ignores import Ignore, file_ignores
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
    reader = MarkerReader(registry)
    diagnostics: list[Diagnostic] = []
    index = TypeIndex(
        frozenset(
            (pkg.import_path, decl.name)
            for pkg in packages
            for file in pkg.files
            for decl in file.types
        )
    )
    model_packages: list[Package] = []
    struct_inputs: list[tuple[StructInput, str, str]] = []  # (input, package, description)
    types: dict[TypeKey, NamedType] = {}
    consts: list[PackageConsts] = []
    ignores: list[Ignore] = []
    package_dirs = {pkg.import_path: pkg.dir for pkg in packages}
    for pkg in packages:
        diagnostics.extend(_read_problems(pkg))
        pkg_markers = _package_markers(pkg, reader)
        model_packages.append(
            Package(
                import_path=pkg.import_path,
                name=pkg.name,
                dir=pkg.dir,
                module_root=pkg.module_root,
                markers=pkg_markers,
                files=tuple(f.path for f in pkg.files),
            )
        )
        optional_by_default = any(
            m.name == "kubebuilder:validation:Optional" for m in pkg_markers
        )
        for file in pkg.files:
            resolver = Resolver(index, pkg.import_path, file)
            consts.append(PackageConsts(pkg.import_path, file, file.consts, pkg.dir))
            for spec in file.consts:
                if spec.doc is not None:
                    # no marker takes effect on a constant: this reports the union and
                    # enum markers written there by mistake (MG005)
                    reader.read((spec.doc,), Target.CONST, f"constant {spec.name}")
            for marked in file.marked:
                # likewise for variables and functions (MG005)
                if marked.kind == "var":
                    reader.read((marked.doc,), Target.VAR, f"variable {marked.name}")
                else:
                    reader.read((marked.doc,), Target.FUNC, f"function {marked.name}")
            file_igs, ignore_problems = file_ignores(file)
            ignores += file_igs
            diagnostics += ignore_problems
            for decl in file.types:
                key = f"{pkg.import_path}.{decl.name}"
                markers = reader.read((decl.doc_extra, decl.doc), Target.TYPE, f"type {decl.name}")
                if decl.type.kind == "struct" and not decl.alias:
                    fields = tuple(
                        make_field(fd, resolver, reader, decl.name, optional_by_default)
                        for fd in decl.type.fields
                    )
                    struct_inputs.append(
                        (
                            StructInput(key, decl.name, markers, fields, decl.pos),
                            pkg.import_path,
                            description(decl.doc),
                        )
                    )
                else:
                    types[key] = NamedType(
                        key=key,
                        name=decl.name,
                        package=pkg.import_path,
                        underlying=resolver.resolve(decl.type),
                        alias=decl.alias,
                        markers=markers,
                        description=description(decl.doc),
                        pos=decl.pos,
                    )
    # Fields whose type is another package's (`corev1.Protocol`): its enum values are
    # looked up through the imports; the directory is where the import is resolved from.
    external: dict[TypeKey, str] = {}
    for inp, package, _ in struct_inputs:
        found: set[TypeKey] = set()
        for f in inp.fields:
            external_refs(f.type, found)
        for key in found:
            external.setdefault(key, package_dirs[package])
    imported_reader = MarkerReader(registry)  # an imported package is never checked

    def imported_markers(decl: TypeDecl) -> tuple[Marker, ...]:
        return imported_reader.read((decl.doc_extra, decl.doc), Target.TYPE, decl.name)

    def imported_type(pc: PackageConsts, decl: TypeDecl) -> TypeRef:
        return Resolver(TypeIndex(frozenset()), pc.import_path, pc.file).resolve(decl.type)

    enums, imported, enum_diags = build_enums(
        types, consts, imports, external, imported_markers, imported_type
    )
    diagnostics.extend(enum_diags)
    structs: dict[TypeKey, Struct] = {}
    for inp, package, desc in struct_inputs:
        unions, union_diags = build_unions(inp, enums, types)
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
    diagnostics.extend(reader.diagnostics)
    unique = sorted(set(diagnostics), key=Diagnostic.sort_key)
    return Model(
        packages=tuple(model_packages),
        structs=dict(sorted(structs.items())),
        types=dict(sorted(types.items())),
        enums=enums,
        imported=imported,
        diagnostics=tuple(unique),
        ignores=tuple(ignores),
        opaque=frozenset(
            f"{pkg.import_path}.{name}"
            for pkg in packages
            for file in pkg.files
            for name in file.marshalers
        ),
        files_read=tuple(
            sorted(
                {f.path for pkg in packages for f in pkg.files}
                | {path for pkg in packages for path in pkg.skipped}
                | set(imports.files_read if imports is not None else ())
            )
        ),
    )


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
    groups = [
        group
        for f in pkg.files
        for group in (*f.package_comments, *((f.package_doc,) if f.package_doc else ()))
    ]
    return reader.read(groups, Target.PACKAGE, f"package {pkg.name}")
