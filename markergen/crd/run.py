"""Running the CRD plan over files: each file read once, every document planned
(`markergen.crd.patch`) and applied (`markergen.crd.apply`), with the run's memo and the
project's kept objects; the findings of all files, each once, in crd's order. With the
project's API server, the files are planned again with what it said.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from markergen.accept.celeval import CelEvaluator
from markergen.crd.apply import apply_plan
from markergen.crd.edit import LineEdits
from markergen.crd.helm import mask_templates, templated
from markergen.crd.patch import PatchContext, RunMemo, Withheld, plan_document
from markergen.crd.reasons import Placed, Reason
from markergen.crd.serverproof import ServerStep, ServerVerdicts
from markergen.diagnostics import Diagnostic, Severity
from markergen.golang.syntax import Position
from markergen.model import Model
from markergen.project.samples import load_samples
from markergen.yamlio import Document, YamlError, YamlReader, indented_values, split_lines

# a CRD's `spec.group` line (indented by two spaces: yamlio.indented_values), to pick the
# sample files worth parsing before parsing any
_GROUP = re.compile(r"group: ['\"]?([A-Za-z0-9.-]+)")


def patch_text(model: Model, text: str, file: str) -> tuple[str, list[Diagnostic]]:
    """One CRD file's text patched, with crd's diagnostics, and no kept objects; raises
    YamlError for a file that is not YAML. The result differs from `text` only by
    inserted lines (and by the lines of rules markergen wrote earlier that are now stale);
    unchanged when there is nothing to do."""
    context = PatchContext()
    new, found = _plan_text(model, text, file, CelEvaluator(), context, RunMemo(), None, None)
    return new if new is not None else text, [f.for_crd() for f in found]


def _plan_text(
    model: Model,
    text: str,
    file: str,
    evaluator: CelEvaluator,
    context: PatchContext,
    memo: RunMemo,
    path: Path | None,
    each: Callable[[list[Document]], None] | None,
    apply: bool = True,
) -> tuple[str | None, list[Placed]]:
    """The file's plan: its findings and, with `apply`, its new text (None: unchanged or
    not asked for). Raises YamlError for a file that is not YAML."""
    masked = mask_templates(text)
    if masked.inside_line:
        where = Position(file, masked.inside_line, 1)
        return None, [
            Placed(
                Reason.TEMPLATED, where, "templating inside a YAML document; the file is left alone"
            )
        ]
    try:
        docs = context.reader.documents(masked.text)
    except YamlError as e:
        if not templated(text):
            raise
        # a Helm template that is YAML only once Helm renders it: a note, never an error
        return None, [
            Placed(
                Reason.TEMPLATED,
                Position(file, e.line, e.column),
                f"Helm templating that is not YAML until rendered ({e.message}); the file is left alone",
            )
        ]
    if each is not None:
        each(docs)
    lines = split_lines(text)
    edits = LineEdits()
    found: list[Placed] = []
    for doc in docs:
        plan = plan_document(model, doc, file, evaluator, context, memo, path)
        found.extend(plan.findings)
        if apply and plan.writes:
            apply_plan(doc, lines, edits, plan.wanted, plan.enums)
    return (edits.apply(lines) if edits else None), found


def _display(path: Path) -> str:
    try:
        return path.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return path.as_posix()


def plan_files(
    files: Sequence[Path],
    model: Model,
    *,
    root: Path | None = None,
    samples_include: Sequence[str] = (),
    samples_exclude: Sequence[str] = (),
    strict: bool = False,
    check_errors: Sequence[Diagnostic] | None = None,
    each: Callable[[Path, list[Document]], None] | None = None,
    withheld: Callable[[Withheld], None] | None = None,
    server: ServerStep | None = None,
    apply: bool = True,
    reader: YamlReader | None = None,
) -> tuple[dict[Path, str], list[Placed]]:
    """The plan of every file: with `apply`, the new text of every file that changes; and
    the findings, each once, sorted. Writes nothing.

    `check_errors` are the errors `markergen check` reports for the model (after the
    project's ignore comments and severities): a union with one gets no rules. None: the
    model's errors under its ignore comments (no severity settings).
    `each` is given every file's documents as they are read, in order;
    `withheld` every rule not written because it rejects a kept object (MG510).
    With `server`, the changed CRDs and the project's objects go to the project's API
    server (markergen.crd.serverproof), and the files are planned again with what it
    said, until it has nothing more to say (three passes at most); the texts are made
    then, whatever `apply` says. `reader`: the run's one reading of the YAML files."""
    found: list[Placed] = []
    reader = reader if reader is not None else YamlReader()
    texts = _read(files, found, reader)
    evaluator = CelEvaluator()

    def refused(shown: str, e: YamlError) -> None:
        found.append(Placed(Reason.OBJECT_NOT_YAML, Position(shown, e.line, e.column), e.message))

    if check_errors is None:
        from markergen.pipeline import check_model

        check_errors = [d for d in check_model(model) if d.severity is Severity.ERROR]
    groups = sorted({g for text in texts.values() for g in indented_values(_GROUP, text, "  ")})
    samples = (
        load_samples(root, groups, samples_include, samples_exclude, files, refused, reader)
        if root is not None and groups
        else []
    )
    context = PatchContext(
        samples=tuple(samples),
        check_errors=tuple(check_errors),
        strict=strict,
        withheld=withheld,
        reader=reader,
    )
    apply = apply or server is not None
    outputs, planned = _plan_texts(model, texts, evaluator, context, each, apply)
    if server is not None:
        verdicts = ServerVerdicts(server=server.name)
        for _ in range(3):
            said = server.judge(outputs, texts, _display, context.samples)
            new = [k for k in said.refused if k not in verdicts.refused] + [
                k for k in said.rejects if k not in verdicts.rejects
            ]
            verdicts = verdicts.merged(said)
            if not new:
                break
            context = replace(context, server=verdicts)
            outputs, planned = _plan_texts(model, texts, evaluator, context, None, apply)
        server.verdicts = verdicts
    outputs = {path: _line_ends_of(reader.data(path), text) for path, text in outputs.items()}
    return outputs, _distinct(found + planned)


def _line_ends_of(original: bytes, text: str) -> str:
    """`text` (read with universal newlines, so "\n" ends every line) with the line ends
    of the file it replaces: a CRD checked out with CRLF (git's autocrlf on Windows)
    stays CRLF, so the patch adds lines and changes none."""
    first = original.split(b"\n", 1)[0]
    return text.replace("\n", "\r\n") if first.endswith(b"\r") else text


def _distinct(found: Sequence[Placed]) -> list[Placed]:
    """Each finding once (a CRD kept in two places says the same twice), in the order of
    crd's diagnostics."""
    first: dict[Diagnostic, Placed] = {}
    for f in found:
        first.setdefault(f.for_crd(), f)
    return [f for _, f in sorted(first.items(), key=lambda item: item[0].sort_key())]


def _plan_texts(
    model: Model,
    texts: Mapping[Path, str],
    evaluator: CelEvaluator,
    context: PatchContext,
    each: Callable[[Path, list[Document]], None] | None,
    apply: bool,
) -> tuple[dict[Path, str], list[Placed]]:
    found: list[Placed] = []
    outputs: dict[Path, str] = {}
    memo = RunMemo()
    for path, text in texts.items():
        shown = _display(path)
        try:
            seen = None if each is None else functools.partial(each, path)
            new, planned = _plan_text(
                model, text, shown, evaluator, context, memo, path, seen, apply
            )
        except YamlError as e:
            where = Position(shown, e.line, e.column)
            found.append(Placed(Reason.NOT_READABLE, where, f"not valid YAML: {e.message}"))
            continue
        found.extend(planned)
        refused = context.server.refused if context.server else {}
        if new is not None and new != text and shown not in refused:
            outputs[path] = new
    return outputs, found


def _read(files: Sequence[Path], found: list[Placed], reader: YamlReader) -> dict[Path, str]:
    """The files' texts; one that cannot be read is an MG504 in `found`."""
    texts: dict[Path, str] = {}
    for path in files:
        try:
            texts[path] = reader.text(path)
        except (OSError, UnicodeDecodeError) as e:
            where = Position(_display(path), 1, 1)
            found.append(Placed(Reason.NOT_READABLE, where, f"cannot read: {e}"))
    return texts
