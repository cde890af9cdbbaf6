"""The Jinja2 environment every output is rendered with.

Values never reach the text raw: templates pass each one through `tojson` (JSON text)
or `pyliteral` (a Python literal), so a description holding quotes, braces or newlines
cannot break the document or inject code into the generated module.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import jinja2

import markergen
from markergen.emit.fastjson import dumps_indented


class RenderError(Exception):
    """A template could not be found or rendered; `template` names it."""

    def __init__(self, template: str, message: str, line: int | None = None) -> None:
        self.template = template
        self.message = message
        self.line = line
        where = f"{template}:{line}" if line is not None else template
        super().__init__(f"{where}: {message}")


def builtin_templates_dir() -> Path:
    """The shipped templates: inside the package in a wheel, else the repo's top level."""
    package_dir = Path(markergen.__file__).resolve().parent
    installed = package_dir / "templates"
    if installed.is_dir():
        return installed
    return package_dir.parent / "templates"


def tojson(value: Any, indent: int | None = None, level: int = 0) -> str:
    """Deterministic JSON text.

    With `indent`, nested output is shifted by `level` indents so a value placed inside a
    template's own object keeps a uniform two-space layout. JSON strings never hold a raw
    newline (they are escaped), so re-indenting on newlines cannot alter a value.
    """
    if indent is not None:
        return dumps_indented(value, indent, level)
    return json.dumps(
        value, sort_keys=True, ensure_ascii=False, separators=(", ", ": "), allow_nan=False
    )


def pyliteral(value: Any, indent: int = 4, level: int = 0) -> str:
    """A Python literal that `ast.literal_eval` reads back to an equal value.

    Dict keys are sorted so the text is deterministic; tuples become lists so the
    literal mirrors the JSON table exactly.
    """
    return _py(value, indent, level)


def _py(value: Any, indent: int, level: int) -> str:
    # bool before int: bool is a subclass of int
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"pyliteral: {value!r} has no Python literal")
        return repr(value)
    if isinstance(value, str):
        # repr escapes quotes, backslashes, newlines and non-printable characters
        # (U+2028 included), so the literal is always one well-formed token.
        return repr(value)
    pad = " " * (indent * (level + 1))
    end = " " * (indent * level)
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        keys = list(value)
        for k in keys:
            if not isinstance(k, str):
                raise TypeError(f"pyliteral: dict key {k!r} is not a string")
        items = [f"{pad}{k!r}: {_py(value[k], indent, level + 1)}," for k in sorted(keys)]
        return "{\n" + "\n".join(items) + "\n" + end + "}"
    if isinstance(value, Sequence):
        if not value:
            return "[]"
        items = [f"{pad}{_py(v, indent, level + 1)}," for v in value]
        return "[\n" + "\n".join(items) + "\n" + end + "]"
    raise TypeError(f"pyliteral: {type(value).__name__} has no Python literal")


def make_environment(override_dir: Path | None = None) -> jinja2.Environment:
    """The environment: override directory first, then the built-in templates."""
    search: list[Path] = []
    if override_dir is not None:
        if not override_dir.is_dir():
            raise RenderError(str(override_dir), "template directory does not exist")
        search.append(override_dir)
    search.append(builtin_templates_dir())
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(p) for p in search]),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        auto_reload=False,
    )
    env.filters["tojson"] = _strict(tojson)
    env.filters["pyliteral"] = _strict(pyliteral)
    return env


def _strict(fn: Callable[..., str]) -> Callable[..., str]:
    """Filters get Undefined objects without any error; make them fail loudly."""

    def wrapped(value: Any, *args: Any, **kwargs: Any) -> str:
        if isinstance(value, jinja2.Undefined):
            str(value)  # StrictUndefined raises UndefinedError naming the variable
        return fn(value, *args, **kwargs)

    return wrapped


def render(env: jinja2.Environment, template: str, **context: Any) -> str:
    """Render one template; every Jinja2 failure becomes a RenderError naming it."""
    try:
        return env.get_template(template).render(**context)
    except jinja2.TemplateSyntaxError as e:
        raise RenderError(e.filename or template, e.message or str(e), e.lineno) from e
    except jinja2.TemplateNotFound as e:
        raise RenderError(template, f"template not found: {e.name}") from e
    except jinja2.TemplateError as e:
        raise RenderError(template, str(e)) from e
    except (TypeError, ValueError) as e:
        raise RenderError(template, str(e)) from e
