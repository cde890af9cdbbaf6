"""`markergen crd` on a whole project: CRDs where the Makefile's controller-gen runs write
them, the Go types its `paths=` name, and the proof on the project's own objects.

Found without being named, a CRD file is patched only when it belongs to the project:
never under `vendor/`, and only when its API group (`spec.group`) is one a Go package
of the inputs declares with `+groupName=` (or the file sits in the directory of an
input package, or just below one, that declares one of its kinds: openshift's layout). Other projects' CRDs copied into a chart or a
config directory are left byte for byte, with a note naming them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from markergen.crd.files import CrdError, CrdResult, crd_files, finish
from markergen.diagnostics import Severity
from markergen.envtest.assets import Assets
from markergen.golang.header import generated_struct_names
from markergen.golang.packages import input_files
from markergen.policy import apply_policy
from markergen.project.inputs import crd_inputs
from markergen.project.outputs import CrdTargets, find_crd_outputs
from markergen.yamlio import YamlReader, indented_values

_GROUP_MARKER = re.compile(rb"^\s*//\s*\+groupName=\"?([A-Za-z0-9.-]*)", re.MULTILINE)
# `spec.group: x` on an indented line (a property named `group` in a schema has no value
# on its line); with yamlio.indented_values
_CRD_GROUP = re.compile(r"group:[ \t]*['\"]?([A-Za-z0-9.-]+)['\"]?[ \t]*$", re.MULTILINE)
_CRD_KIND = re.compile(r"^kind:\s*['\"]?CustomResourceDefinition\b", re.MULTILINE)
# `spec.names.kind: Widget` on an indented line (and listKind's value, harmless): a
# capitalised name on its line
_NAMES_KIND = re.compile(r"kind:[ \t]*['\"]?([A-Z][A-Za-z0-9]*)['\"]?[ \t]*$", re.MULTILINE)

if TYPE_CHECKING:
    from markergen.diagnostics import Diagnostic
    from markergen.model import Model
    from markergen.policy import Policy

DEFAULT_TYPES = ("./api/...", "./apis/...")


@dataclass(frozen=True)
class ProjectRun:
    result: CrdResult
    targets: CrdTargets  # the directories used and where they were found
    types: tuple[str, ...]  # the Go package patterns read
    # what the project's own API server did (`server` setting), for a line on stderr
    server: str = ""
    # "read ./api/...: 2 packages of example.com/x (1 union, 2 enums)" (pipeline.inputs_summary)
    summary: str = ""


def server_assets(root: Path, server: str) -> Assets | None:
    """The envtest binaries the `server` setting asks for: none with `off`, the project's
    when found with `auto`, those of the directory given otherwise (CrdError when that
    directory has none)."""
    if server == "off":
        return None
    from markergen.envtest import assets

    found = assets.find(root, None if server == "auto" else server)
    if found is None and server != "auto":
        raise CrdError(
            f"server: {server} holds no kube-apiserver and etcd (a setup-envtest directory, "
            "`setup-envtest use -p path` prints one); use `auto` or `off`"
        )
    return found


def _default_types(root: Path) -> tuple[str, ...]:
    found = tuple(p for p in DEFAULT_TYPES if (root / p.split("/")[1]).is_dir())
    return found or ("./...",)


def run_project(
    root: Path,
    *,
    paths: Sequence[Path] = (),
    types: Sequence[str] = (),
    verify: bool = False,
    include_generated: bool = False,
    samples_include: Sequence[str] = (),
    samples_exclude: Sequence[str] = (),
    strict: bool = False,
    use_cache: bool = True,
    server: str = "off",
    policy: Policy | None = None,
) -> ProjectRun:
    """Patch the project's CRDs. Without `paths`, the Makefile's CRD output directories
    (else config/crd/bases); the Go packages of `types` and of the Makefile's `paths=`
    (without either, ./api/..., ./apis/..., else ./...), plus the generated files that
    declare a CRD's root type. Raises CrdError when no CRD directory is found. With
    `use_cache`, a run whose inputs are byte-identical to an earlier one reuses its
    result (`markergen.cache`, under the key every command uses). `server` is the `server` setting (auto, off, or a
    directory of envtest binaries): with binaries, the CRDs and the project's objects are
    judged by that API server too (`markergen.crd.serverproof`). A union with an error
    `markergen check` reports, under the ignore comments and `policy`'s severities, gets
    no rules."""
    from markergen.cache import INPUTS_SUMMARY, open_run, store_run, syntax_store

    assets = server_assets(root, server)
    # one reading of every CRD and object file for the whole run: locating, the cache
    # key, the patcher and its proofs
    reader = YamlReader()
    files, targets, patterns = _plan(root, paths, types, include_generated, reader)
    options = {
        "include_generated": include_generated,
        "samples": [list(samples_include), list(samples_exclude)],
        "strict": strict,
        "server": [str(assets.directory), assets.version] if assets else None,
        # the severities decide which unions a check error blocks (the ignore comments
        # are in the Go files, already in the key)
        "policy": [list(policy.severity), policy.warnings_as_errors] if policy else None,
    }
    # the CRDs, the objects the proofs read (test suites beside the CRDs too), and the
    # make files and scripts that located them
    read = (
        crd_inputs(root, files, samples_include, samples_exclude, targets.files)
        if use_cache
        else []
    )
    cache, hit = open_run(root, "crd", patterns, root, options, use_cache, read, read=reader.data)
    if hit is not None:
        said = f"{assets.describe()}: unchanged inputs, as judged before" if assets else ""
        texts = {Path(name): text for name, text in hit.outputs.items() if name != INPUTS_SUMMARY}
        run = finish(files, texts, _under(hit.diagnostics, policy), verify)
        return ProjectRun(run, targets, patterns, said, hit.summary)
    # Imported here: a run served from the cache needs neither the Go front end nor the
    # patcher (YAML composer, CEL, proofs), a third of its time to import.
    from markergen.crd.reasons import silence
    from markergen.crd.run import plan_files
    from markergen.crd.serverproof import ProjectServer, ServerUnavailable
    from markergen.pipeline import check_model, inputs_summary, with_model

    judge = ProjectServer(assets, reader) if assets is not None else None

    def patch(model: Model) -> tuple[dict[Path, str], list[Diagnostic], str]:
        errors = [d for d in check_model(model, policy) if d.severity is Severity.ERROR]
        try:
            texts, planned = plan_files(
                files,
                model,
                root=root,
                samples_include=samples_include,
                samples_exclude=samples_exclude,
                strict=strict,
                check_errors=errors,
                server=judge.step if judge is not None else None,
                reader=reader,
            )
        finally:
            reader.release()  # while the collector is still paused (with_model)
        # the project's ignore comments silence a finding at the Go place it is about
        kept, _ = silence(planned, model.ignores)
        found = [f.for_crd() for f in kept]
        summary = inputs_summary(model, patterns)
        if cache is not None:
            store_run(
                cache, found, {str(p): t for p, t in texts.items()}, model.files_read, summary
            )
        return texts, found, summary

    try:
        # patched with the collector still paused, as generate's rules run (with_model)
        records = syntax_store(root, use_cache)
        outputs, diagnostics, summary = with_model(
            list(patterns), root, include_generated, patch, records
        )
    except ServerUnavailable as e:
        raise CrdError(f"{e}; `--server off` proves the rules without it") from e
    finally:
        if judge is not None:
            judge.close()
    result = finish(files, outputs, _under(diagnostics, policy), verify)
    said = judge.summary() if judge is not None else ""
    return ProjectRun(result, targets, patterns, said, summary)


def _under(diagnostics: Sequence[Diagnostic], policy: Policy | None) -> list[Diagnostic]:
    """crd's own findings under the project's `severity:` settings, as check's are (`off`
    drops a code, a level replaces its severity); `warnings-as-errors` is check's and
    generate's setting, not crd's."""
    if policy is None:
        return list(diagnostics)
    return apply_policy(diagnostics, replace(policy, warnings_as_errors=False))


def _plan(
    root: Path,
    paths: Sequence[Path],
    types: Sequence[str],
    include_generated: bool,
    reader: YamlReader,
) -> tuple[list[Path], CrdTargets, tuple[str, ...]]:
    """The CRD files a run patches, where they were found, and the Go patterns it reads."""
    targets = find_crd_outputs(root, reader.data)
    dirs = [Path(p) for p in paths] or [root / d for d in targets.dirs]
    if not dirs:
        raise CrdError(
            "no CRD files given and none found: no controller-gen `output:crd:...` in the "
            "Makefile and no config/crd/bases; pass files or directories"
        )
    patterns, notes = _type_patterns(root, types, targets.types)
    files = crd_files(dirs)
    if not paths:
        files, own_notes = _own_files(root, files, patterns, reader)
        notes += own_notes
    generated = () if include_generated else _generated_roots(root, files, patterns, reader)
    if generated:
        shown = ", ".join(g.removeprefix("./") for g in generated[:3])
        more = ", ..." if len(generated) > 3 else ""
        notes += (
            f"read {len(generated)} generated file(s) declaring CRD root types "
            f"({shown}{more}), as controller-gen does",
        )
    return files, replace(targets, notes=targets.notes + notes), (*patterns, *generated)


def _type_patterns(
    root: Path, given: Sequence[str], from_make: Sequence[str]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The Go package patterns read, and notes. controller-gen's `paths=` in the
    Makefile name the packages its CRDs come from, so they are read besides the
    patterns given (or the configured inputs, which a kubebuilder PROJECT sets to
    ./api/...): a group declared in exp/api/ or bootstrap/eks/api/ has its root types
    there. A Makefile pattern naming no directory is skipped with a note (one bad
    `paths=` must not stop the run); without any, ./api/..., ./apis/..., else ./...."""
    out = list(dict.fromkeys(given))
    notes: list[str] = []
    for pattern in from_make:
        if pattern in out:
            continue
        base = pattern.removesuffix("...").rstrip("/") or "."
        if not (root / base).exists():
            notes.append(
                f"Go package pattern {pattern} (controller-gen paths= in the Makefile) names "
                "nothing below the module root; not read"
            )
            continue
        out.append(pattern)
    return (tuple(out) or _default_types(root)), tuple(notes)


def _generated_roots(
    root: Path, files: Sequence[Path], patterns: Sequence[str], reader: YamlReader
) -> tuple[str, ...]:
    """The generated files among the inputs that declare a struct named as a CRD's kind
    in a package declaring that CRD's group (`+groupName=` in any of its files), as
    patterns naming each file (a file named is read even when generated). A load skips
    generated files; controller-gen reads them, and a resource generator may declare the
    root types there (`zz_generated.*-resource.go`, `// Code generated by ack-generate`).
    Only these files are added: not every generated file, nor a protobuf message of the
    same name in a package of no group."""
    groups_of: dict[str, set[str]] = {}  # kind -> the groups of the CRDs of that kind
    for crd in files:
        try:
            text = reader.loose_text(crd)
        except OSError:
            continue
        if _CRD_KIND.search(text):
            groups = set(indented_values(_CRD_GROUP, text))
            for kind in indented_values(_NAMES_KIND, text):
                groups_of.setdefault(kind, set()).update(groups)
    inputs = input_files(list(patterns), root) if groups_of else None
    if not inputs:
        return ()
    base = root.resolve()
    package_groups: dict[Path, set[str]] = {}
    out: list[str] = []
    for go in inputs:
        if go.explicit or not go.path.endswith(".go"):
            continue
        path = Path(go.path)
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if b"struct" not in data:
            continue
        names = generated_struct_names(data)
        if not names:
            continue
        wanted = set().union(*(groups_of.get(n, set()) for n in names))
        if not wanted:
            continue
        if path.parent not in package_groups:
            package_groups[path.parent] = _package_groups(path.parent)
        if wanted & package_groups[path.parent]:
            resolved = path.resolve()
            if resolved.is_relative_to(base):
                out.append("./" + resolved.relative_to(base).as_posix())
    return tuple(sorted(out))


def _package_groups(directory: Path) -> set[str]:
    """The `+groupName`s the Go files of a directory declare, generated ones included."""
    groups: set[str] = set()
    for go in sorted(directory.glob("*.go")):
        try:
            data = go.read_bytes()
        except OSError:
            continue
        if b"+groupName" in data:
            groups.update(m.decode() for m in _GROUP_MARKER.findall(data))
    return groups


def _declared(root: Path, patterns: Sequence[str]) -> tuple[set[str], set[Path]] | None:
    """(the `+groupName`s the input packages declare, their directories), read from the
    files the load would read, without parsing them; None when a pattern names nothing
    (the load reports it)."""
    groups: set[str] = set()
    dirs: set[Path] = set()
    inputs = input_files(list(patterns), root)
    if inputs is None:
        return None
    for f in inputs:
        path = Path(f.path)
        dirs.add(path.parent.resolve())
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if b"+groupName" in data:
            groups.update(m.decode() for m in _GROUP_MARKER.findall(data))
    return groups, dirs


def _crd_groups(path: Path, reader: YamlReader) -> set[str] | None:
    """The groups of the CRDs in a file; None when it holds no CRD (or cannot be read)."""
    try:
        text = reader.loose_text(path)
    except OSError:
        return None
    if not _CRD_KIND.search(text):
        return None
    return set(indented_values(_CRD_GROUP, text))


def _declares_kind(crd: Path, reader: YamlReader) -> bool:
    """Whether a Go file beside the CRD file, or in the directory above (openshift's
    `<group>/<version>/zz_generated.crd-manifests/`), declares one of its kinds. A
    package that only embeds another project's CRDs (`//go:embed *.yaml` in an assets
    directory) declares none: its CRDs are not the project's."""
    try:
        text = reader.loose_text(crd)
        kinds = set(indented_values(_NAMES_KIND, text))
    except OSError:
        return False
    if not kinds:
        return False
    decl = re.compile(
        rb"^(?:type[ \t]+|\t)(?:"
        + b"|".join(re.escape(k.encode()) for k in sorted(kinds))
        + rb")[ \t]+struct\b",
        re.MULTILINE,
    )
    for d in (crd.parent, crd.parent.parent):
        for go in sorted(d.glob("*.go")):
            try:
                if decl.search(go.read_bytes()):
                    return True
            except OSError:
                continue
    return False


def _own_files(
    root: Path, files: Sequence[Path], patterns: Sequence[str], reader: YamlReader
) -> tuple[list[Path], tuple[str, ...]]:
    """The CRD files found without being named that belong to the project, and a note
    for the others."""
    declared = _declared(root, patterns)
    if declared is None:
        return list(files), ()
    groups, dirs = declared
    kept: list[Path] = []
    vendored: list[Path] = []
    foreign: dict[str, list[Path]] = {}
    for f in files:
        rel = f.relative_to(root.resolve()) if f.is_relative_to(root.resolve()) else f
        if "vendor" in rel.parts:
            vendored.append(rel)
            continue
        found = _crd_groups(f, reader)
        if not found or found & groups or (f.parent in dirs and _declares_kind(f, reader)):
            kept.append(f)
            continue
        for g in sorted(found):
            foreign.setdefault(g, []).append(rel)
    notes: list[str] = []
    if vendored:
        notes.append(f"{len(vendored)} CRD file(s) under vendor/ left alone")
    for group, paths in sorted(foreign.items()):
        shown = ", ".join(p.as_posix() for p in paths[:3]) + (", ..." if len(paths) > 3 else "")
        notes.append(
            f"{len(paths)} CRD file(s) of group {group} left alone: no input package declares "
            f"+groupName={group} ({shown}); name them on the command line to patch them"
        )
    return kept, tuple(notes)
