"""`markergen check` in a project with CRDs: the findings that need the CRD files, from
one reading of them.

Two checks read the same CRDs: the union rules `markergen crd` would not write because
they reject an object the project keeps (MG511, from a `patch_files` run that writes
nothing) and markergen's enums and discriminator defaults against the CRDs' (MG520,
MG521, `markergen.crd.enumcheck`). The YAML of each file is parsed once and given to
both.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from markergen.crd.enumcheck import Comparison, findings
from markergen.crd.patch import sample_findings
from markergen.crd.serverproof import ServerStep
from markergen.diagnostics import Diagnostic
from markergen.model import Model
from markergen.yamlio import YamlReader


def crd_findings(
    dirs: Sequence[Path],
    model: Model,
    root: Path,
    *,
    samples_include: Sequence[str] = (),
    samples_exclude: Sequence[str] = (),
    server: ServerStep | None = None,
    reader: YamlReader | None = None,
) -> list[Diagnostic]:
    """MG511, then MG520 / MG521, over the CRD files of `dirs` (with `server`, the
    project's API server judges the rules too; `reader`: the run's reading of the YAML
    files, markergen.yamlio.YamlReader)."""
    comparison = Comparison(model, root)
    return sample_findings(
        dirs,
        model,
        root,
        samples_include=samples_include,
        samples_exclude=samples_exclude,
        each=comparison.add,
        server=server,
        reader=reader,
    ) + findings(comparison.nodes)
