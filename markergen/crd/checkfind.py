"""`markergen check` in a project with CRDs: the findings that need the CRD files, from
one reading of them.

Two checks read the same CRDs: the plan `markergen crd` would make (`markergen.crd.run`,
applied to nothing), whose findings check reports in its own words from their reasons
(`markergen.crd.reasons`: a rule withheld for a kept object is MG511 here), and
markergen's enums and discriminator defaults against the CRDs' (MG520, MG521,
`markergen.crd.enumcheck`). The YAML of each file is parsed once and given to both.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from markergen.crd.enumcheck import Comparison, findings
from markergen.crd.files import crd_files
from markergen.crd.reasons import silence
from markergen.crd.run import plan_files
from markergen.crd.serverproof import ServerStep
from markergen.diagnostics import Diagnostic
from markergen.model import Model
from markergen.policy import silenced, unused_crd
from markergen.yamlio import YamlReader


def crd_findings(
    paths: Sequence[Path],
    model: Model,
    root: Path,
    *,
    samples_include: Sequence[str] = (),
    samples_exclude: Sequence[str] = (),
    check_errors: Sequence[Diagnostic] | None = None,
    server: ServerStep | None = None,
    reader: YamlReader | None = None,
    enums: bool = True,
) -> list[Diagnostic]:
    """What check reports of the plan `markergen crd` makes for the CRDs under `paths`:
    the union rules it would not write because they reject an object the project keeps
    (MG511), the hand-written CRD rules that disagree with a union (MG508), the unions it
    writes no rules for (MG506; the API server then enforces only the project's own
    rules, and `markergen validate` the markers: a user of `check` alone must hear of it),
    the CRDs older than the Go types (MG514), what the project's API server refused
    (MG515), and the CRD and object files it cannot read (MG504, MG513). A union blocked
    by one of `check_errors` is not among them: check reports that error itself. Then,
    with `enums`, MG520 / MG521 from the same reading of the files. With `server`, the
    project's API server judges the rules too; `reader`: the run's reading of the YAML
    files (markergen.yamlio.YamlReader). Nothing is written, no diff is made.

    A finding an ignore comment silences at its Go place (markergen.crd.reasons.silence)
    is left out. One that only crd reports counts too (a comment that silences crd's
    MG509 is used), and MG010 is added for each CRD finding's code a comment names that
    silenced nothing (markergen.policy.unused_crd)."""
    comparison = Comparison(model, root)
    _, found = plan_files(
        crd_files(paths),
        model,
        root=root,
        samples_include=samples_include,
        samples_exclude=samples_exclude,
        check_errors=check_errors,
        each=comparison.add if enums else None,
        server=server,
        apply=False,
        reader=reader,
    )
    kept, used = silence(found, model.ignores)
    # MG520 / MG521 are at their Go markers: covered as a rule's diagnostics are
    enum_findings, enum_used = silenced(findings(comparison.nodes), model.ignores)
    said = [d for d in (f.for_check() for f in kept) if d is not None]
    return said + enum_findings + unused_crd(model.ignores, used | enum_used)
