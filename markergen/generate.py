"""`markergen generate`: check, render every output, write them all or none."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from markergen.config import Config, output_settings, policy
from markergen.diagnostics import Diagnostic, Severity
from markergen.emit.outputs import OUTPUTS, Inputs, Output

if TYPE_CHECKING:
    from markergen.cache import OutputCache
    from markergen.emit.templating import Templates
    from markergen.model import Model  # a run served from the cache builds none
    from markergen.progress import Progress

# The outputs of a run, each with its path: the built-in ones that are on, then the
# project's templates (markergen.emit.outputs.user_output).
Plan = tuple[tuple[Output, Path], ...]


@dataclass(frozen=True)
class GenerateResult:
    exit_code: int
    diagnostics: tuple[Diagnostic, ...]
    stdout: str  # the unified diff of --verify
    message: str  # one line for stderr
    read: str = ""  # what the run read and found (pipeline.inputs_summary)


def _relative(path: Path, cwd: Path) -> str:
    try:
        return path.relative_to(cwd.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def run_and_report(
    cfg: Config,
    patterns: Sequence[str],
    cwd: Path,
    *,
    verify: bool,
    use_cache: bool,
    out: TextIO,
    err: TextIO,
    quiet: bool = False,
    announce: bool = False,
) -> int:
    """`markergen generate` as the command line runs it: a progress line on a terminal,
    the run, then diagnostics and the summary on `err`, a --verify diff on `out`. With
    `announce` (markergen picked the inputs), what it read and found first. Returns the
    exit code; raises what generate raises (input, configuration and output errors)."""
    from markergen.progress import Progress

    progress = Progress(err, hidden=quiet)
    try:
        result = generate(cfg, patterns, cwd, verify=verify, use_cache=use_cache, progress=progress)
    finally:
        progress.finish()
    if announce and result.read and not quiet:
        err.write(f"markergen: {result.read}\n")
    if result.diagnostics:
        from markergen.report import render

        err.write(render(result.diagnostics, "text", cwd))
    if result.stdout:
        out.write(result.stdout)
    # --quiet: a run that succeeded says nothing more (`make generate` with nothing to do
    # is silent); a failure still says why.
    if result.message and not (quiet and result.exit_code == 0):
        err.write(result.message + "\n")
    return result.exit_code


def generate(
    cfg: Config,
    patterns: Sequence[str],
    cwd: Path,
    *,
    verify: bool,
    cache_dir: Path | None = None,
    use_cache: bool = True,
    progress: Progress | None = None,
) -> GenerateResult:
    """Run `markergen generate`. With `use_cache` (the default), a run whose inputs are
    unchanged reuses the last run's results from `cache_dir` (default: `cache.cache_dir`:
    `$MARKERGEN_CACHE_DIR` or `.markergen-cache/` at the module root). `progress` shows
    each phase of the run (see markergen.progress), and is erased when the run ends."""
    try:
        result = _generate(cfg, patterns, cwd, verify, cache_dir, use_cache, progress)
    finally:
        if progress is not None:
            progress.finish()
    return result


def _generate(
    cfg: Config,
    patterns: Sequence[str],
    cwd: Path,
    verify: bool,
    cache_dir: Path | None,
    use_cache: bool,
    progress: Progress | None,
) -> GenerateResult:
    from markergen.cache import cache_dir as default_cache_dir
    from markergen.cache import open_run

    # Jinja's compiled templates, beside the cached runs (markergen.emit.templating)
    bytecode_dir = (cache_dir or default_cache_dir(cfg.root)) / "jinja" if use_cache else None
    templates, plan = _plan(cfg, bytecode_dir)
    user_dir = cfg.templates_dir()
    # The project's templates (partials too) shape the outputs as much as the settings do.
    read = [p for p in user_dir.rglob("*") if p.is_file()] if user_dir and user_dir.is_dir() else []
    cache, cached = open_run(
        cfg.root, "generate", patterns, cwd, output_settings(cfg), use_cache, read, cache_dir
    )
    if cached is not None:
        return _write(
            plan, cwd, verify, cached.diagnostics, cached.outputs, None, None, cached.summary
        )
    from markergen.gcpause import gc_paused

    # Rendering happens while the outputs are written (streamed), with the collector
    # paused as for loading (markergen.gcpause says why).
    with gc_paused():
        if templates is None:
            from markergen.emit.templating import Templates

            templates = Templates(None, bytecode_dir)
        computed = _compute(cfg, patterns, cwd, progress, templates, cache_dir, use_cache)
        if isinstance(computed, GenerateResult):
            return computed
        diags, inputs, extra, summary = computed
        del computed
        if verify:
            texts = {o.filename: o.render(inputs) for o, _ in plan}
            result = _write(plan, cwd, verify, diags, texts, cache, extra, summary)
        else:
            result = _write(plan, cwd, verify, diags, inputs, cache, extra, summary, progress)
        # Freed before the collector is back: its first pass would otherwise scan the
        # whole model (0.3-0.7 s at 10,000 types), all of it garbage a moment later.
        del inputs
    return result


def _plan(cfg: Config, bytecode_dir: Path | None = None) -> tuple[Templates | None, Plan]:
    """The project's templates (None without a `templates` setting) and every output of
    the run with its path; `bytecode_dir` keeps their compiled code. A template named like a built-in output replaces that
    output's template (the output is written when it is on); any other writes one more
    output into out-dir."""
    plan = [
        (o, cfg.output_path(o.key))
        for o in OUTPUTS
        if not o.switch or getattr(cfg, o.switch.replace("-", "_"))
    ]
    user_dir = cfg.templates_dir()
    if user_dir is None:
        return None, tuple(plan)
    from markergen.emit.outputs import user_output
    from markergen.emit.templating import Templates, builtin_names, output_name, user_templates

    builtin = {o.filename for o in OUTPUTS}
    others = set(builtin_names())  # diff-report.md.j2 replaces diff's, not an output
    for template in user_templates(user_dir):
        if output_name(template) not in builtin and template.name not in others:
            output = user_output(template)
            plan.append((output, (cfg.root / cfg.out_dir / output.filename).resolve()))
    return Templates(user_dir, bytecode_dir), tuple(plan)


def _write(
    plan: Plan,
    cwd: Path,
    verify: bool,
    diags: tuple[Diagnostic, ...],
    texts: Mapping[str, str] | Inputs,
    cache: OutputCache | None,
    extra: Sequence[str] | None,
    summary: str = "",
    progress: Progress | None = None,
) -> GenerateResult:
    """Write (or --verify) the outputs: `texts` by output name, or the `Inputs` they
    are rendered from, streamed into the files; then store a computed run (`cache`)."""
    from markergen.emit.writer import Content, verify_outputs, write_outputs

    outputs: dict[Path, Content]
    if isinstance(texts, Mapping):
        outputs = {path: texts[o.filename] for o, path in plan if o.filename in texts}
    else:
        outputs = {
            path: functools.partial(_shown, functools.partial(texts.chunks, o), progress)
            for o, path in plan
        }
        if progress is not None:
            progress.stage("rendering and writing outputs", len(outputs))
    if verify:
        diffs = verify_outputs(outputs)
        if diffs:
            result = GenerateResult(
                1, diags, "".join(diffs), f"markergen: {_stale(len(diffs))}", summary
            )
        else:
            result = GenerateResult(0, diags, "", "markergen: outputs are up to date", summary)
    else:
        report = write_outputs(outputs, digests=cache is not None and extra is not None)
        written = ", ".join(_relative(p, cwd) for p in report.written) or "nothing"
        result = GenerateResult(
            0, diags, "", f"markergen: wrote {written} ({len(report.unchanged)} unchanged)", summary
        )
    # Stored only once the run has succeeded: a run that fails (full disk, interrupt)
    # leaves the project exactly as it found it, cache included.
    if cache is not None and extra is not None:
        from markergen.cache import INPUTS_SUMMARY, CachedRun, read_beyond

        read = read_beyond(extra)
        if isinstance(texts, Mapping):
            cache.store(CachedRun(diags, {**texts, INPUTS_SUMMARY: summary}, read))
        else:
            files = {o.filename: (path, *report.digests[path]) for o, path in plan}
            cache.store_files(diags, files, read, {INPUTS_SUMMARY: summary})
    return result


def _stale(n: int) -> str:
    from markergen.report import count

    return f"{count(n, 'output')} {'is' if n == 1 else 'are'} stale"


def _shown(chunks: Callable[[], Iterable[str]], progress: Progress | None) -> Iterator[str]:
    """An output's pieces, rendered while they are written; counted when done (the
    progress line of a run over a second names the output stage). Asked for at once,
    not at the first piece: the OpenAPI outputs join their shared pass over the model
    when asked (markergen.emit.schemapass), and the writer asks for every output's
    pieces before it reads any."""
    return _counted(chunks(), progress)


def _counted(pieces: Iterable[str], progress: Progress | None) -> Iterator[str]:
    yield from pieces
    if progress is not None:
        progress.advance()


def _compute(
    cfg: Config,
    patterns: Sequence[str],
    cwd: Path,
    progress: Progress | None,
    templates: Templates | None,
    cache_dir: Path | None = None,
    use_cache: bool = False,
) -> tuple[tuple[Diagnostic, ...], Inputs, Sequence[str], str] | GenerateResult:
    """Diagnostics, what the outputs are rendered from, the files the model read
    (cache.read_beyond picks the imports) and what was read and found
    (pipeline.inputs_summary), or the failed result when there are errors."""
    from markergen.cache import syntax_store
    from markergen.pipeline import check_model, inputs_summary, load_model

    records = syntax_store(cfg.root, use_cache, cache_dir)
    try:
        model = load_model(patterns, cwd, cfg.include_generated, progress, records=records)
    finally:
        if progress is not None:
            progress.stage("checking")
    diags = tuple(check_model(model, policy(cfg)))
    summary = inputs_summary(model, patterns)
    if any(d.severity is Severity.ERROR for d in diags):
        return GenerateResult(
            1, diags, "", "markergen: errors found; no output was written", summary
        )
    return diags, _inputs(cfg, model, templates), model.files_read, summary


def _inputs(cfg: Config, model: Model, templates: Templates | None) -> Inputs:
    from markergen.emit.options import EmitOptions

    options = EmitOptions(
        union_format=cfg.union_format,
        naming=cfg.naming,
        title=cfg.title,
        version=cfg.version,
        semantics=dict(cfg.semantics),
    )
    return Inputs(model, options, templates)
