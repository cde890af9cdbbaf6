"""`markergen check`: the rules on the model, and in a project with CRDs the findings of
the CRD plan `markergen crd` would make (markergen.crd.checkfind), served from the cache
when nothing it read changed.

The rules run once: their errors, under the project's ignore comments and severities,
are the ones that keep `crd` from writing a union's rules, so check and crd agree on
which unions those are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from markergen.config import Config, output_settings, policy
from markergen.diagnostics import Diagnostic, Severity

if TYPE_CHECKING:
    from markergen.envtest.assets import Assets
    from markergen.model import Model  # a run served from the cache builds none
    from markergen.policy import Policy
    from markergen.yamlio import YamlReader


@dataclass(frozen=True)
class CheckRun:
    diagnostics: tuple[Diagnostic, ...]
    summary: str  # what the run read and found (pipeline.inputs_summary)


def run_check(
    cfg: Config,
    patterns: Sequence[str],
    cwd: Path,
    *,
    use_cache: bool,
    server: bool = False,
    note: Callable[[str], None] = lambda line: None,
) -> CheckRun:
    """Check `patterns` (relative to `cwd`). With `server` (`check --server`) and CRDs,
    the project's own API server judges the CRD rules too; `note` is told what it did.
    Raises CrdError when it cannot (no envtest binaries, a server that does not start),
    and what loading the model raises."""
    from markergen.yamlio import YamlReader

    # one reading of the CRD and sample files: to find the CRDs, for the key, the findings
    reader = YamlReader()
    crd_dirs = _crd_dirs(cfg, reader)
    options: dict[str, Any] = {**output_settings(cfg), "strict": cfg.strict}
    assets = None
    if server and crd_dirs:
        from markergen.crd.files import CrdError
        from markergen.crd.project import server_assets

        assets = server_assets(cfg.root, "auto" if cfg.server == "off" else cfg.server)
        if assets is None:
            raise CrdError(
                "check --server: no envtest binaries found (KUBEBUILDER_ASSETS, bin/k8s/, "
                "setup-envtest's data directory); run the project's `make setup-envtest` or "
                "`setup-envtest use`, or name them with `server: DIR` in markergen.yaml"
            )
        options["server"] = [str(assets.directory), assets.version]
    # With CRDs, the findings also depend on the CRD files (MG520, MG521), the YAML
    # objects the project keeps (MG511) and the Makefiles that locate them: extra files
    # of the one cache key, so a new, edited or removed CRD or sample is never served stale.
    from markergen.cache import open_run, store_run, syntax_store
    from markergen.project.inputs import crd_inputs

    include, exclude = cfg.samples.get("include", ()), cfg.samples.get("exclude", ())
    read = crd_inputs(cfg.root, crd_dirs, include, exclude) if crd_dirs and use_cache else []
    cache, cached = open_run(
        cfg.root, "check", patterns, cwd, options, use_cache, read, read=reader.data
    )
    if cached is not None:
        return CheckRun(tuple(cached.diagnostics), cached.summary)
    from markergen.pipeline import check_model, inputs_summary, with_model

    def check(model: Model) -> CheckRun:
        rules = policy(cfg)
        found = check_model(model, rules)
        found += _crd_findings(cfg, crd_dirs, model, rules, found, assets, note, reader)
        summary = inputs_summary(model, patterns)
        if cache is not None:
            store_run(cache, found, {}, model.files_read, summary)
        return CheckRun(tuple(found), summary)

    # the rules run with the collector still paused, as generate's do (with_model)
    records = syntax_store(cfg.root, use_cache)
    return with_model(patterns, cwd, cfg.include_generated, check, records)


def _crd_dirs(cfg: Config, reader: YamlReader) -> list[Path]:
    """The existing CRD directories of the project (the Makefile's controller-gen runs)."""
    from markergen.project.outputs import find_crd_outputs

    dirs = [cfg.root / d for d in find_crd_outputs(cfg.root, reader.data).dirs]
    return [d for d in dirs if d.is_dir()]


def _crd_findings(
    cfg: Config,
    dirs: list[Path],
    model: Model,
    rules: Policy,
    found: Sequence[Diagnostic],
    assets: Assets | None,
    note: Callable[[str], None],
    reader: YamlReader,
) -> list[Diagnostic]:
    """In a project whose CRDs markergen patches: what check reports of `crd`'s plan
    (markergen.crd.checkfind) given check's own findings `found`, under `rules`. With
    `assets` (`check --server`), the project's own API server judges the rules too
    (MG511, MG515). Without CRDs, MG010 for each ignore comment's CRD finding code:
    there is no finding for it to silence."""
    from markergen.policy import apply_policy, unused_crd

    if not dirs:
        return apply_policy(unused_crd(model.ignores, set()), rules)
    from markergen.crd.checkfind import crd_findings
    from markergen.crd.files import CrdError
    from markergen.crd.serverproof import ProjectServer, ServerUnavailable

    judge = ProjectServer(assets, reader) if assets is not None else None
    try:
        return apply_policy(
            crd_findings(
                dirs,
                model,
                cfg.root,
                samples_include=cfg.samples.get("include", ()),
                samples_exclude=cfg.samples.get("exclude", ()),
                check_errors=[d for d in found if d.severity is Severity.ERROR],
                server=judge.step if judge is not None else None,
                reader=reader,
            ),
            rules,
        )
    except ServerUnavailable as e:
        raise CrdError(str(e)) from e
    finally:
        reader.release()  # while the collector is still paused (with_model)
        if judge is not None:
            judge.close()
            note(judge.summary())
