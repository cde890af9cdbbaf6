"""The outputs of `markergen generate`, declared once, and their rendering.

Each output has a key (its `markergen.yaml` key and `--<key>` flag, which override its
path), a default file name inside `out-dir`, and the template of markergen/templates/
that writes its text (docs/templates.md), streamed piece by piece. The settings
(markergen.config), the writer and the cache all derive from `OUTPUTS`.

A project's `templates` directory adds outputs (`user_output`) and may replace the
template of any output: `Inputs.chunks` decides which runs.

Every text is deterministic: keys sorted, two-space JSON indentation, one trailing
newline, so that regenerated outputs diff cleanly in a pull request.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from markergen.emit.options import EmitOptions

if TYPE_CHECKING:  # annotations only: markergen.config imports OUTPUTS for --help
    from markergen.emit.schemapass import Part, Reader, SchemaPass
    from markergen.emit.templating import Templates
    from markergen.model import Model


@dataclass(frozen=True, slots=True)
class Output:
    key: str  # config key and flag name
    filename: str  # default file name inside out-dir
    title: str  # how help texts name it
    # The text in pieces, in order: the writer streams them to disk, so that no output
    # is ever held whole (at 10,000 types the four texts are 92 MB).
    chunks: Callable[[Inputs], Iterator[str]]
    # The boolean setting that turns the output on; "" for an output always written.
    switch: str = ""

    def render(self, inputs: Inputs) -> str:
        return "".join(inputs.chunks(self))


class Inputs:
    """What the outputs are written from; the runtime table is built once for every
    output that needs it, the user templates' context only when one is rendered."""

    def __init__(
        self, model: Model, options: EmitOptions, templates: Templates | None = None
    ) -> None:
        self.model = model
        self.options = options
        self._templates = templates
        self._pass: SchemaPass | None = None

    @functools.cached_property
    def table(self) -> dict[str, Any]:
        from markergen.emit.table import build_table

        return build_table(self.model, self.options)

    def schema_reader(self, part: Part) -> Reader:
        """A reader of the pass over the definitions that builds each schema once for
        every OpenAPI output (markergen.emit.schemapass): the current pass while it has
        not started, else a new one."""
        from markergen.emit.schemapass import SchemaPass

        if self._pass is None or self._pass.started:
            self._pass = SchemaPass(self.model, self.options)
        return self._pass.reader(part)

    @property
    def templates(self) -> Templates:
        if self._templates is None:
            from markergen.emit.templating import Templates

            self._templates = Templates()
        return self._templates

    @functools.cached_property
    def context(self) -> dict[str, Any]:
        """The documented context of a project's templates (markergen.emit.context)."""
        from markergen.emit.context import build_context

        return build_context(self.model, self.options, self.table)

    def chunks(self, output: Output) -> Iterator[str]:
        """The output's text in pieces: from the project's template of its name when
        there is one, else as the output declares."""
        name = output.filename + ".j2"
        if self._templates is not None and self._templates.is_user(name):
            return self._templates.stream(name, self.context)
        return output.chunks(self)


def _template(name: str, context: Callable[[Inputs], dict[str, Any]]) -> Callable[[Inputs], Iterator[str]]:
    """An output rendered from the built-in template `name`, with `context`."""

    def chunks(inputs: Inputs) -> Iterator[str]:
        return inputs.templates.stream(name, context(inputs))

    return chunks


def user_output(template: Path) -> Output:
    """The output of one of a project's templates (`schema.json.j2` writes `schema.json`)."""
    from markergen.emit.templating import output_name

    name = output_name(template)

    def chunks(inputs: Inputs) -> Iterator[str]:
        return inputs.templates.stream(template.name, inputs.context)

    # written into out-dir; never a flag (OUTPUTS alone declares those)
    return Output(name, name, f"the output of template {template.name}", chunks)


def _openapi(inputs: Inputs, version: Literal[2, 3]) -> dict[str, Any]:
    schemas = inputs.schema_reader("v2" if version == 2 else "v3")
    return {
        "schemas": schemas,
        "info": {"title": inputs.options.title, "version": inputs.options.version},
        # called by the template after the last schema: building them fills the list
        "external": schemas.external,
    }


def _openapi_v2(inputs: Inputs) -> dict[str, Any]:
    return _openapi(inputs, 2)


def _openapi_v3(inputs: Inputs) -> dict[str, Any]:
    return _openapi(inputs, 3)


def _table_context(inputs: Inputs) -> dict[str, Any]:
    return {"table": inputs.table}


def _fragment(inputs: Inputs, version: Literal[2, 3]) -> dict[str, Any]:
    return {"fragment": inputs.schema_reader("v2-fragment" if version == 2 else "v3-fragment")}


def _fragment_v2(inputs: Inputs) -> dict[str, Any]:
    return _fragment(inputs, 2)


def _fragment_v3(inputs: Inputs) -> dict[str, Any]:
    return _fragment(inputs, 3)


OUTPUTS: tuple[Output, ...] = (
    Output(
        "v2",
        "openapi-v2.json",
        "the OpenAPI v2 document",
        _template("openapi-v2.json.j2", _openapi_v2),
    ),
    Output(
        "v3",
        "openapi-v3.json",
        "the OpenAPI v3 document",
        _template("openapi-v3.json.j2", _openapi_v3),
    ),
    Output(
        "table-json",
        "unions_table.json",
        "the JSON runtime table",
        _template("unions_table.json.j2", _table_context),
    ),
    Output(
        "table-py",
        "unions_table.py",
        "the Python runtime table",
        _template("unions_table.py.j2", _table_context),
    ),
    Output(
        "v2-fragment",
        "openapi-v2.fragment.json",
        "the OpenAPI v2 fragment (a merge patch of markergen's union and enum keys)",
        _template("openapi-v2.fragment.json.j2", _fragment_v2),
        switch="fragments",
    ),
    Output(
        "v3-fragment",
        "openapi-v3.fragment.json",
        "the OpenAPI v3 fragment (a merge patch of markergen's union and enum keys)",
        _template("openapi-v3.fragment.json.j2", _fragment_v3),
        switch="fragments",
    ),
)
OUTPUT_NAMES: tuple[str, ...] = tuple(o.filename for o in OUTPUTS)


def render_outputs(
    model: Model, options: EmitOptions, switches: frozenset[str] = frozenset()
) -> dict[str, str]:
    """The text of every output that is on (those without a switch, and those whose
    switch is in `switches`), keyed by its file name (`generate` streams them instead:
    `Output.chunks`)."""
    inputs = Inputs(model, options)
    return {o.filename: o.render(inputs) for o in OUTPUTS if not o.switch or o.switch in switches}
