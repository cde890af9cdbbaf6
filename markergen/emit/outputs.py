"""Render every generated output of `markergen generate` (DESIGN section 10)."""

from __future__ import annotations

import jinja2

from markergen.emit.openapi import build_document
from markergen.emit.options import EmitOptions
from markergen.emit.render import render
from markergen.emit.table import build_table
from markergen.model import Model

OPENAPI_V2 = "openapi-v2.json"
OPENAPI_V3 = "openapi-v3.json"
TABLE_JSON = "unions_table.json"
TABLE_PY = "unions_table.py"
OUTPUT_NAMES: tuple[str, ...] = (OPENAPI_V2, OPENAPI_V3, TABLE_JSON, TABLE_PY)


def render_outputs(model: Model, options: EmitOptions, env: jinja2.Environment) -> dict[str, str]:
    """The four texts keyed by their default file names."""
    out: dict[str, str] = {}
    for name, version in ((OPENAPI_V2, 2), (OPENAPI_V3, 3)):
        doc = build_document(model, options, 2 if version == 2 else 3)
        out[name] = render(
            env,
            f"{name}.j2",
            schemas=doc.schemas,
            info=doc.info,
            external_references=doc.external_references,
        )
    table = build_table(model, options)
    out[TABLE_JSON] = render(env, f"{TABLE_JSON}.j2", table=table)
    out[TABLE_PY] = render(env, f"{TABLE_PY}.j2", table=table)
    return out
