"""The one-way pipeline: patterns → syntax → model → diagnostics.

The CLI and the tests call these; nothing here prints or exits.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from markergen.diagnostics import Diagnostic
from markergen.gcpause import gc_paused
from markergen.model import Model

if TYPE_CHECKING:
    from markergen.golang.records import RecordStore
    from markergen.policy import Policy
    from markergen.progress import Progress


_T = TypeVar("_T")


class InputError(Exception):
    """A usage or I/O problem with the inputs themselves (exit code 2)."""


def load_model(
    patterns: Sequence[str],
    cwd: Path,
    include_generated: bool = False,
    progress: Progress | None = None,
    env: Mapping[str, str] | None = None,
    records: RecordStore | None = None,
) -> Model:
    """`env` (default os.environ) gives GOPATH, GOMODCACHE, GOWORK and HOME for
    finding imported packages, as the go command reads them. `records`: the syntax
    records of files read before (markergen.cache.SyntaxStore), so that only the
    files whose bytes changed are parsed."""
    from markergen.accept.selected import settle_members
    from markergen.golang.imports import ImportedPackages
    from markergen.golang.packages import load_packages
    from markergen.model.builder import ModelBuilder

    with gc_paused():
        # Built package by package: each package's syntax records are freed before the
        # next is read (at 10,000 types they are twice the size of the model).
        imports = ImportedPackages(Path(os.path.abspath(cwd)), env, records)
        builder = ModelBuilder(imports=imports)
        result = load_packages(
            list(patterns),
            cwd,
            include_generated=include_generated,
            progress=progress,
            sink=builder,
            records=records,
        )
        if result.errors:
            raise InputError("\n".join(f"{e.pattern}: {e.message}" for e in result.errors))
        # a member the markers leave to its struct's own rules is read from those rules
        model = settle_members(builder.finish())
        if records is not None:
            records.save()  # after finish: imported packages are read while it resolves
        return model


def with_model(
    patterns: Sequence[str],
    cwd: Path,
    include_generated: bool,
    work: Callable[[Model], _T],
    records: RecordStore | None = None,
) -> _T:
    """`work`'s result on the model of `patterns` (`load_model`), with the collector
    paused until the model is freed.

    Once the collector is back, its passes would walk the whole model again and again
    (1.2 s of a cold check at 10,000 types; markergen.gcpause says more), and its first
    pass would walk it all even when it is garbage a moment later: every object the
    block made is still in the youngest generation. So the model is dropped here,
    before the pause ends; `work` must not keep it.
    """
    with gc_paused():
        model = load_model(patterns, cwd, include_generated, records=records)
        result = work(model)
        del model
    return result


def check_model(model: Model, policy: Policy | None = None) -> list[Diagnostic]:
    """Every diagnostic: what building found, then every rule, less what the source's
    `// markergen:ignore` comments silence (plus MG010 for those that silence nothing),
    with `policy`'s severities applied; sorted by position."""
    from markergen.policy import apply_policy, suppress
    from markergen.rules import all_diagnostics

    diags = suppress(all_diagnostics(model), model.ignores)
    if policy is not None:
        diags = apply_policy(diags, policy)
    return sorted(diags, key=Diagnostic.sort_key)


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _module_of(import_path: str, package_dir: str, module_root: str | None) -> str:
    """The module path of a package: its import path less its directory below the
    module root (`example.com/x/api/v1` in `api/` of module `example.com/x/api`)."""
    if module_root is None:
        return "no module"
    rel = os.path.relpath(package_dir, module_root).replace(os.sep, "/")
    if rel == ".":
        return import_path
    tail = "/" + rel
    return import_path[: -len(tail)] if import_path.endswith(tail) else import_path


def inputs_summary(model: Model, patterns: Sequence[str]) -> str:
    """One line saying what a run read and found: the patterns, then each module with its
    packages and the unions and enums declared there (not those of imported packages).
    A run that picked its own inputs prints it, so that one which read nothing useful
    (the wrong module, packages without markers, the API in another module than the
    one expected) shows it at once."""
    module_of: dict[str, str] = {}
    packages: dict[str, int] = {}
    for pkg in model.packages:
        module = _module_of(pkg.import_path, pkg.dir, pkg.module_root)
        module_of[pkg.import_path] = module
        packages[module] = packages.get(module, 0) + 1
    unions: dict[str, int] = {}
    enums: dict[str, int] = {}
    for s in model.structs.values():
        if s.unions and s.package in module_of:
            module = module_of[s.package]
            unions[module] = unions.get(module, 0) + len(s.unions)
    for enum in model.enums.values():
        if not enum.imported and enum.package in module_of:
            enums[module_of[enum.package]] = enums.get(module_of[enum.package], 0) + 1
    # "3 packages of example.com/x (2 unions, 1 enum), 1 of example.com/x/api (0 unions, ...)"
    read = []
    for i, (m, n) in enumerate(sorted(packages.items())):
        u, k = unions.get(m, 0), enums.get(m, 0)
        found = f"{u} union{_s(u)}, {k} enum{_s(k)}"
        read.append(f"{n} package{_s(n)} of {m} ({found})" if i == 0 else f"{n} of {m} ({found})")
    total_unions, total_enums = sum(unions.values()), sum(enums.values())
    # zero-config names each package the API types reach: a long list is cut short
    if len(patterns) > 4:
        shown = f"{', '.join(patterns[:3])} and {len(patterns) - 3} more"
    else:
        shown = " and ".join([", ".join(patterns[:-1]), patterns[-1]] if patterns[1:] else patterns)
    text = f"read {shown}: {', '.join(read) or 'no package'}"
    if len(packages) != 1:
        text += (
            f"; found {total_unions} union{_s(total_unions)} and "
            f"{total_enums} enum{_s(total_enums)}"
        )
    if total_unions == 0 and total_enums == 0:
        text += (
            "; no union or enum marker there: pass the API packages' patterns "
            "(`./pkg/apis/...`) or set `inputs` in markergen.yaml"
        )
    return text
