"""`markergen generate`: check, render every output, write them all or none."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from markergen.config import Config
from markergen.model import Diagnostic, Severity

# output name (emit.outputs) → Config attribute naming its path
_OUTPUT_ATTRS = {
    "openapi-v2.json": "v2",
    "openapi-v3.json": "v3",
    "unions_table.json": "table_json",
    "unions_table.py": "table_py",
}


@dataclass(frozen=True)
class GenerateResult:
    exit_code: int
    diagnostics: tuple[Diagnostic, ...]
    stdout: str  # the unified diff of --verify
    message: str  # one line for stderr


def _relative(path: Path, cwd: Path) -> str:
    try:
        return path.relative_to(cwd.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def generate(cfg: Config, patterns: Sequence[str], cwd: Path, *, verify: bool) -> GenerateResult:
    from markergen.emit.options import EmitOptions
    from markergen.emit.outputs import render_outputs
    from markergen.emit.render import make_environment
    from markergen.emit.writer import verify_outputs, write_outputs
    from markergen.pipeline import check_model, load_model

    model = load_model(patterns, cwd, cfg.include_generated)
    diags = tuple(check_model(model))
    if any(d.severity is Severity.ERROR for d in diags):
        return GenerateResult(1, diags, "", "markergen: errors found; no output was written")
    options = EmitOptions(
        union_format=cfg.union_format,  # type: ignore[arg-type]  # validated by config
        naming=cfg.naming,  # type: ignore[arg-type]
        title=cfg.title,
        version=cfg.version,
        semantics=dict(cfg.semantics),  # type: ignore[arg-type]
    )
    template_dir = (cfg.root / cfg.templates) if cfg.templates else None
    env = make_environment(template_dir)
    texts = render_outputs(model, options, env)
    outputs = {cfg.output_path(_OUTPUT_ATTRS[name]): text for name, text in texts.items()}
    if verify:
        diffs = verify_outputs(outputs)
        if diffs:
            return GenerateResult(
                1, diags, "".join(diffs), f"markergen: {len(diffs)} output(s) are stale"
            )
        return GenerateResult(0, diags, "", "markergen: outputs are up to date")
    report = write_outputs(outputs)
    written = ", ".join(_relative(p, cwd) for p in report.written) or "nothing"
    return GenerateResult(
        0, diags, "", f"markergen: wrote {written} ({len(report.unchanged)} unchanged)"
    )
