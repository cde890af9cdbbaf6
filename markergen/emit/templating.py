"""Jinja templates: every text output that is code or a document a person reads is
rendered from a template of markergen/templates/ (docs/templates.md).

One environment for all of them, set up so that a template cannot produce surprising
text: `StrictUndefined` (a misspelt name is an error, never an empty string), no
autoescaping (the outputs are JSON, Python and Markdown, not HTML; values reach the text
through the `tojson` / `pyliteral` filters, which quote them), `keep_trailing_newline`,
and block tags that take their line with them (`trim_blocks`, `lstrip_blocks`), so a
template reads like the file it writes.

A project's `templates` directory comes first on the search path: a file there with the
name of a built-in template replaces it. With a cache directory (a `generate` run without
`--no-cache`), Jinja's own bytecode cache keeps each compiled template there, so that a
later run does not lex, parse and generate its Python again. Any error of a template, when it is read or
while it renders, is a `TemplateError` naming the template's file and line: the command
line prints it as one line and exits 2, never with a traceback.
"""

from __future__ import annotations

import contextlib
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

    def __init__(self, user_dir: Path | None = None, bytecode_dir: Path | None = None) -> None:
        self.user_dir = user_dir
        self.bytecode_dir = bytecode_dir

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
        if self.bytecode_dir is not None:
            env.bytecode_cache = _bytecode_cache(jinja2, env, self.bytecode_dir)
        env.filters.update(
            tojson=tojson, json_object=json_object, pyliteral=pyliteral,
            pyliteral_dict=pyliteral_dict, pyrepr=repr, jsonstr=_jsonstr, mdcell=_mdcell,
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
            message = (
                str(e)
                if isinstance(e, (_TemplateFailure, jinja2.TemplateError))
                else (f"{type(e).__name__}: {e}")
            )
            raise TemplateError(_shown(path) if path else self.path(name), line, message) from None

    def render(self, name: str, context: Mapping[str, Any]) -> str:
        return "".join(self.stream(name, context))


def _bytecode_cache(jinja2: Any, env: Any, directory: Path) -> Any:
    """Jinja's `FileSystemBytecodeCache` in `directory`. Jinja checks each entry against
    the template's text; the file names also carry Jinja's version and the environment's
    settings that shape the compiled code, so that neither an upgrade nor a change of
    the settings here can load code compiled for another. A directory that cannot be
    written (a read-only checkout) only costs the speed-up."""
    settings = (
        jinja2.__version__, env.block_start_string, env.block_end_string,
        env.variable_start_string, env.variable_end_string, env.comment_start_string,
        env.comment_end_string, env.line_statement_prefix, env.line_comment_prefix,
        env.trim_blocks, env.lstrip_blocks, env.newline_sequence, env.keep_trailing_newline,
        env.autoescape, env.optimized, sorted(env.extensions),
    )  # fmt: skip
    tag = hashlib.sha256(repr(settings).encode("utf-8")).hexdigest()[:16]

    class BytecodeCache(jinja2.FileSystemBytecodeCache):  # type: ignore[misc]
        def load_bytecode(self, bucket: Any) -> None:
            # no entry to read (or none can be): the template is compiled from its text
            with contextlib.suppress(OSError):
                super().load_bytecode(bucket)

        def dump_bytecode(self, bucket: Any) -> None:
            with contextlib.suppress(OSError):
                _make_dirs(directory)
                super().dump_bytecode(bucket)

    return BytecodeCache(str(directory), f"{tag}-%s.cache")


def _make_dirs(directory: Path) -> None:
    """`directory` and its parents; the top-most one made gets a `.gitignore` of `*`,
    as the output cache's directories do (a cache is never committed)."""
    missing = [d for d in (directory, *directory.parents) if not d.exists()]
    directory.mkdir(parents=True, exist_ok=True)
    if missing:
        (missing[-1] / ".gitignore").write_text(
            "# Created by markergen: this cache is safe to delete.\n*\n", encoding="utf-8"
        )


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
