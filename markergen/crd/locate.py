"""Which Go type a CRD version describes: kind + group (`+groupName`) + version (package)."""

from __future__ import annotations

from markergen.model import Model, Struct


def root_type(model: Model, group: str, kind: str, version: str) -> Struct | None:
    """The struct `kind` in the package of `group` whose name (or last path element) is
    `version`, as kubebuilder lays out `api/<version>/`; None when the inputs lack it."""
    candidates = sorted(
        (
            p
            for p in model.packages
            if p.group_name == group
            and (p.name == version or p.import_path.rsplit("/", 1)[-1] == version)
        ),
        key=lambda p: p.import_path,
    )
    for pkg in candidates:
        found = model.structs.get(f"{pkg.import_path}.{kind}")
        if found is not None:
            return found
    return None


def describe_missing(model: Model, group: str, kind: str, version: str) -> str:
    """Why `root_type` found nothing, for the warning."""
    groups = sorted({p.group_name for p in model.packages if p.group_name})
    if group not in groups:
        known = ", ".join(groups) if groups else "none"
        return f"no input package has +groupName={group} (groups among the inputs: {known})"
    return f"no input package of group {group} for version {version} declares type {kind}"
