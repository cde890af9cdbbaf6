"""The outputs of `markergen generate`, declared once, and their rendering.

Each output has a key (its `markergen.yaml` key and `--<key>` flag, which override its
path), a default file name inside `out-dir`, and the template that renders it. The
settings (markergen.config), the writer and the cache all derive from `OUTPUTS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from markergen.emit.options import EmitOptions
from markergen.model import Model

if TYPE_CHECKING:
    import jinja2


@dataclass(frozen=True, slots=True)
class Output:
    key: str  # config key and flag name
    filename: str  # default file name; its template is `<filename>.j2`
    title: str  # how help texts name it


OUTPUTS: tuple[Output, ...] = (
    Output("v2", "openapi-v2.json", "the OpenAPI v2 document"),
    Output("v3", "openapi-v3.json", "the OpenAPI v3 document"),
    Output("table-json", "unions_table.json", "the JSON runtime table"),
    Output("table-py", "unions_table.py", "the Python runtime table"),
)
OUTPUT_NAMES: tuple[str, ...] = tuple(o.filename for o in OUTPUTS)


def render_outputs(model: Model, options: EmitOptions, env: jinja2.Environment) -> dict[str, str]:
    """The text of every output, keyed by its file name."""
    from markergen.emit.openapi import build_document
    from markergen.emit.render import render
    from markergen.emit.table import build_table

    out: dict[str, str] = {}
    for output in OUTPUTS:
        name = f"{output.filename}.j2"
        if output.filename.startswith("openapi-"):
            doc = build_document(model, options, 2 if output.key == "v2" else 3)
            out[output.filename] = render(
                env,
                name,
                schemas=doc.schemas,
                info=doc.info,
                external_references=doc.external_references,
            )
        else:
            out[output.filename] = render(env, name, table=build_table(model, options))
    return out
