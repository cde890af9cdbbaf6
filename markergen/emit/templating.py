"""Jinja templates: every text output that is code or a document a person reads is
rendered from a template of markergen/templates/ (docs/templates.md).

One environment for all of them, set up so that a template cannot produce surprising
text: `StrictUndefined` (a misspelt name is an error, never an empty string), no
autoescaping (the outputs are JSON, Python and Markdown, not HTML; values reach the text
through the `tojson` / `pyliteral` filters, which quote them), `keep_trailing_newline`,
and block tags that take their line with them (`trim_blocks`, `lstrip_blocks`), so a
template reads like the file it writes.

A project's `templates` directory comes first on the search path: a file there with the
name of a built-in template replaces it. Any error of a template, when it is read or
while it renders, is a `TemplateError` naming the template's file and line: the command
line prints it as one line and exits 2, never with a traceback.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, NoReturn

from markergen.emit.render import json_object, pyliteral, pyliteral_dict, tojson

_encode_string: Callable[[str], str] = getattr(json.encoder, "encode_basestring")  # noqa: B009

BUILTIN_DIR = Path(__file__).resolve().parent.parent / "templates"
SUFFIX = ".j2"


class TemplateError(Exception):
    """A template that cannot be read or rendered: its file, its line, what is wrong."""

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path = path
        self.line = line
        self.message = message
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: template error: {message}")


def builtin_names() -> tuple[str, ...]:
    """The names of the built-in templates (`unions_table.py.j2`, ...)."""
    return tuple(sorted(p.name for p in BUILTIN_DIR.glob(f"*{SUFFIX}")))


def user_templates(directory: Path | None) -> tuple[Path, ...]:
    """The templates of a project's `templates` directory that render an output: every
    `*.j2` file, except partials (a name starting with `_`, for `{% include %}` and
    `{% import %}`). Sorted by name; none when there is no directory."""
    if directory is None:
        return ()
    if not directory.is_dir():
        raise TemplateError(str(directory), None, "the templates directory does not exist")
    return tuple(
        sorted(
            (p for p in directory.glob(f"*{SUFFIX}") if p.is_file() and not p.name.startswith("_")),
            key=lambda p: p.name,
        )
    )


def output_name(template: Path | str) -> str:
    """The output a template writes: its file name without `.j2`."""
    name = template.name if isinstance(template, Path) else template
    return name[: -len(SUFFIX)]


def _fail(message: str) -> NoReturn:
    """`{{ fail("...") }}`: a template stops the run with its own message (and line)."""
    raise _TemplateFailure(message)


class _TemplateFailure(Exception):
    pass


def _pyrepr(value: Any) -> str:
    return repr(value)


def _jsonstr(value: Any) -> str:
    """A value as one JSON token (strings quoted and escaped), for JSON and TypeScript."""
    if type(value) is str:
        return _encode_string(value)  # json.dumps's own text, without its set-up per call
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _mdcell(text: Any) -> str:
    # A pipe ends a table cell and a newline ends the row, whatever the backticks say.
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _mdcode(text: Any) -> str:
    s = str(text)
    return f"`{s}`" if "`" not in s else _mdcell(s)


class Templates:
    """The templates of one run: the built-in ones, and a project's directory before them."""

    def __init__(self, user_dir: Path | None = None) -> None:
        self.user_dir = user_dir

    @functools.cached_property
    def _env(self) -> Any:
        # Built on first use: a run served from the cache never imports Jinja.
        import jinja2

        class _Environment(jinja2.Environment):
            def getattr(self, obj: Any, attribute: str) -> Any:
                # `union.values` is the union's `values` key, not dict.values: templates
                # read plain data, whose keys must win over the methods of dict.
                if type(obj) is dict and attribute in obj:
                    return obj[attribute]
                return super().getattr(obj, attribute)

        user_dir = self.user_dir
        search = [str(BUILTIN_DIR)] if user_dir is None else [str(user_dir), str(BUILTIN_DIR)]
        env = _Environment(
            loader=jinja2.FileSystemLoader(search, encoding="utf-8"),
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            keep_trailing_newline=True,
            trim_blocks=True,
            lstrip_blocks=True,
            auto_reload=False,
        )
        env.bytecode_cache = _precompiled_cache(jinja2)
        env.filters.update(
            tojson=tojson, json_object=json_object, pyliteral=pyliteral,
            pyliteral_dict=pyliteral_dict, pyrepr=_pyrepr, jsonstr=_jsonstr, mdcell=_mdcell,
            mdcode=_mdcode,
        )  # fmt: skip
        env.globals["fail"] = _fail
        return env

    def is_user(self, name: str) -> bool:
        """Whether `name` comes from the project's directory (replacing a built-in one)."""
        return self.user_dir is not None and (self.user_dir / name).is_file()

    def path(self, name: str) -> str:
        base = self.user_dir if self.user_dir is not None and self.is_user(name) else BUILTIN_DIR
        return _shown(str(base / name))

    def compiled(self, name: str) -> Any:
        """The compiled template (compiled once per environment: once a run)."""
        return self._env.get_template(name)

    def stream(self, name: str, context: Mapping[str, Any]) -> Iterator[str]:
        """The text of template `name` in pieces (for the streamed writer)."""
        import jinja2

        try:
            template = self._env.get_template(name)
            yield from template.generate(dict(context))
        except jinja2.TemplateSyntaxError as e:
            where = _shown(e.filename) if e.filename else self.path(name)
            raise TemplateError(where, e.lineno, e.message or str(e)) from None
        except jinja2.TemplateNotFound:
            raise TemplateError(self.path(name), None, "no such template") from None
        except TemplateError:
            raise
        except Exception as e:  # an expression of the template failed: its fault, its line
            path, line = _template_frame(e.__traceback__)
            message = str(e) if isinstance(e, (_TemplateFailure, jinja2.TemplateError)) else (
                f"{type(e).__name__}: {e}"
            )
            raise TemplateError(_shown(path) if path else self.path(name), line, message) from None

    def render(self, name: str, context: Mapping[str, Any]) -> str:
        return "".join(self.stream(name, context))


def _precompiled_cache(jinja2: Any) -> Any:
    """A bytecode cache that gives the built-in templates their code from
    markergen.emit.precompiled (Jinja's Python text of each, written by
    `precompiled_module`), so that a run does not lex, parse and generate them (about
    3 ms a template, 6 templates a `generate`). A template is taken from there only when
    it is read from the built-in directory (not a project's file of the same name) and
    its text and the Jinja version are those it was compiled from; anything else is
    compiled as usual, and nothing is ever stored."""

    class Precompiled(jinja2.BytecodeCache):  # type: ignore[misc]
        def get_bucket(self, environment: Any, name: str, filename: str | None, source: str) -> Any:
            bucket = jinja2.bccache.Bucket(environment, name, "")
            if filename is not None and Path(filename).parent == BUILTIN_DIR:
                from markergen.emit import precompiled

                entry = precompiled.TEMPLATES.get(name)
                if (
                    entry is not None
                    and jinja2.__version__ == precompiled.JINJA
                    and entry[0] == hashlib.sha256(source.encode("utf-8")).hexdigest()
                ):
                    bucket.code = compile(entry[1], filename, "exec")
            return bucket

        def set_bucket(self, bucket: Any) -> None:
            pass  # a template compiled here (a project's, or a stale entry) is not kept

    return Precompiled()


def precompiled_module() -> str:
    """The text of markergen/emit/precompiled.py: every built-in template as Jinja
    compiles it in the environment of `Templates` (tests/test_precompiled_templates.py
    checks it is current and writes it with MARKERGEN_UPDATE_GOLDEN=1)."""
    import jinja2

    env = Templates()._env
    lines = [
        '"""The built-in templates (markergen/templates/) as Jinja compiles them: the Python',
        "text of each, with the SHA-256 of the template it was compiled from. Written by",
        "`markergen.emit.templating.precompiled_module`; do not edit. Regenerate with",
        "`MARKERGEN_UPDATE_GOLDEN=1 pytest tests/test_precompiled_templates.py`.",
        '"""',
        "",
        f"JINJA = {jinja2.__version__!r}",
        "",
        "TEMPLATES: dict[str, tuple[str, str]] = {",
    ]
    for name in builtin_names():
        source = (BUILTIN_DIR / name).read_text(encoding="utf-8")
        digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
        code = env.compile(source, name, str(BUILTIN_DIR / name), raw=True)
        lines.append(f"    {name!r}: (")
        lines.append(f"        {digest!r},")
        lines.append(f"        {code!r},")
        lines.append("    ),")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _shown(path: str) -> str:
    """A template's path as messages give it: relative to the working directory when
    below it (a project's templates), else as it is (the built-in ones)."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def _template_frame(tb: TracebackType | None) -> tuple[str | None, int | None]:
    """The file and line of the innermost template frame of a traceback: Jinja rewrites
    the frames of compiled templates to the template's file and line."""
    found: tuple[str | None, int | None] = (None, None)
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith(SUFFIX):
            found = (filename, tb.tb_lineno)
        tb = tb.tb_next
    return found
