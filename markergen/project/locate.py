"""Which Go type a CRD version describes: kind + group (`+groupName`) + version (the
package's `+versionName`, else its name, as controller-gen decides).

kubebuilder lays types out as `api/<version>/` with `+groupName` in `groupversion_info.go`;
openshift/api as `<group>/<version>/` with the CRDs beside them in
`<group>/<version>/zz_generated.crd-manifests/`, one file per feature set. When no input
package declares the CRD's group (a `+groupName` markergen could not read, for one), a
package of that version that declares the kind is still taken if it is the package the
CRD file sits in (openshift's layout) or the only such package without a group.
`+kubebuilder:object:root` is not required.
"""

from __future__ import annotations

from pathlib import Path

from markergen.model import Model, Package, Struct


def _version_match(p: Package, version: str) -> bool:
    """controller-gen's rule (GroupVersionForPackage): a package's version is its
    `+versionName=` when it has one, else its package name; markergen also takes the
    last element of its import path (a package named otherwise in a version directory)."""
    for m in p.markers:
        if m.name == "versionName" and m.value:
            return m.value.strip('"') == version
    return p.name == version or p.import_path.rsplit("/", 1)[-1] == version


def root_type(
    model: Model, group: str, kind: str, version: str, crd_file: Path | None = None
) -> Struct | None:
    """The struct `kind` in the package of `group` whose name (or last path element) is
    `version`; None when the inputs lack it."""
    candidates = sorted(
        (p for p in model.packages if p.group_name == group and _version_match(p, version)),
        key=lambda p: p.import_path,
    )
    for pkg in candidates:
        found = model.structs.get(f"{pkg.import_path}.{kind}")
        if found is not None:
            return found
    if candidates:
        return None
    ungrouped = [
        p
        for p in model.packages
        if p.group_name is None
        and _version_match(p, version)
        and f"{p.import_path}.{kind}" in model.structs
    ]
    if crd_file is not None:
        here = crd_file.resolve().parents
        beside = [p for p in ungrouped if Path(p.dir).resolve() in here]
        if beside:
            ungrouped = beside[-1:]  # the innermost package directory holding the file
    if len(ungrouped) == 1:
        return model.structs[f"{ungrouped[0].import_path}.{kind}"]
    return None


def describe_missing(model: Model, group: str, kind: str, version: str) -> str:
    """Why `root_type` found nothing (what was searched), for the warning."""
    groups = sorted({p.group_name for p in model.packages if p.group_name})
    if group not in groups:
        shown = ", ".join(groups[:4]) + (", ..." if len(groups) > 4 else "")
        known = f"{len(groups)}: {shown}" if groups else "none"
        return (
            f"no input package has +groupName={group} (groups among the inputs: {known}), "
            f"and no package named {version} without a group declares type {kind}"
        )
    return f"no input package of group {group} for version {version} declares type {kind}"
