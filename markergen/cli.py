"""The `markergen` command line: parse arguments, call the library, print, exit.

A typer app built from declarations (markergen.cliargs.build_app): the commands below,
and for every command the settings markergen.config declares for it. click, under typer,
parses, prints help and usage errors, and answers shell completion requests from
typer's scripts (`markergen completion SHELL`). typer and click are imported only when
a command line is parsed; `markergen --version` alone is answered before.

Streams, one rule: stdout carries the command's result (check's report, dump's model,
diff's report, --verify's diff, ...); everything else (diagnostics of generate and crd,
summaries, progress, messages, usage errors) goes to stderr.
Exit codes: 0 success; 1 error diagnostics, stale outputs, an invalid object or a
matched `--fail-on`; 2 usage, configuration or I/O error; 130 interrupted (Ctrl-C).
A user error never prints a traceback; `--debug` shows one for bugs.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from markergen.cliargs import (
    SHELLS,
    Arg,
    Args,
    Command,
    Interrupted,
    PipeClosed,
    build_app,
    command_args,
    completion_script,
    setting_dest,
)
from markergen.interrupts import INTERRUPTED, caused_by_interrupt

if TYPE_CHECKING:
    import click

    from markergen.config import Config
    from markergen.model import Model

PROG = "markergen"
DESCRIPTION = (
    "Check the union and enum markers of Kubernetes Go API types and generate OpenAPI "
    "documents, runtime tables, CRD validation rules and compatibility reports from them."
)
# Set by typer's completion scripts when the shell asks markergen for completions.
COMPLETE_VAR = "_MARKERGEN_COMPLETE"

PATTERNS = Arg(
    ("PATTERNS",),
    "Go package patterns such as ./api/... (default: the config's inputs, else ./... of "
    "the module, or ./api/... in a kubebuilder project).",
    "patterns",
    action="positionals",
    complete="dir",
)


def _config(args: Args, command: str) -> Config:
    from markergen.config import load_config, settings_of

    flags = {s.key: getattr(args, setting_dest(s), None) for s in settings_of(command)}
    return load_config(Path.cwd(), flags)


def _patterns(given: Sequence[str], cfg: Config) -> list[str]:
    """Patterns from the command line (relative to cwd), else the config's inputs
    (relative to the module root; without config the whole module), expressed relative
    to cwd so that reported paths are too."""
    if given:
        return list(given)
    return [_move_pattern(p, cfg.root, Path.cwd()) for p in cfg.inputs or ("./...",)]


def _move_pattern(pattern: str, base: Path, to: Path) -> str:
    """A Go package pattern written relative to `base`, rewritten relative to `to`."""
    tail = "/..." if pattern == "..." or pattern.endswith("/...") else ""
    path = (pattern[: -len("...")].rstrip("/") or ".") if tail else pattern
    rel = os.path.relpath(base / path, to)
    if rel == ".":
        return "./..." if tail else "."  # not `././...`, which messages would show
    return ("./" + rel if not rel.startswith(("..", "/")) else rel) + tail


def _summary(diags: Sequence[Any]) -> str:
    from markergen.report import count

    errors = sum(1 for d in diags if d.severity.value == "error")
    warnings = sum(1 for d in diags if d.severity.value == "warning")
    return f"{count(errors, 'error')}, {count(warnings, 'warning')}"


def use_color(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Colour on a terminal. As Python itself decides (3.13's _colorize): `NO_COLOR`
    set to anything (https://no-color.org) turns it off, then `FORCE_COLOR` turns it on
    even in a pipe (https://force-color.org), then `TERM=dumb` turns it off."""
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR"):
        return True
    if env.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# ---- command bodies ------------------------------------------------------------------


def _run_dump(args: Args) -> int:
    cfg = _config(args, "dump")
    patterns = _patterns(args.patterns, cfg)
    options: dict[str, Any] = {"include-generated": cfg.include_generated}
    from markergen.cache import open_run, store_run, syntax_store

    use = not args.no_cache
    cache, cached = open_run(cfg.root, "dump", patterns, Path.cwd(), options, use)
    if cached is not None and "dump" in cached.outputs:
        _announce(args, cfg, cached.summary)
        sys.stdout.write(cached.outputs["dump"])
        return 0
    from markergen.dump import model_to_json
    from markergen.pipeline import inputs_summary, with_model

    def dump(model: Model) -> tuple[str, str]:
        text, summary = model_to_json(model), inputs_summary(model, patterns)
        if cache is not None:
            store_run(cache, (), {"dump": text}, model.files_read, summary)
        return text, summary

    records = syntax_store(cfg.root, use)
    text, summary = with_model(patterns, Path.cwd(), cfg.include_generated, dump, records)
    _announce(args, cfg, summary)
    sys.stdout.write(text)
    return 0


def _announce(args: Args, cfg: Config, summary: str) -> None:
    """A run that picked its own inputs (no patterns, no `inputs` setting) says on stderr
    what it read and what it found there (pipeline.inputs_summary)."""
    if summary and not args.patterns and cfg.inputs_picked and not args.quiet:
        sys.stderr.write(f"markergen: {summary}\n")


def _run_check(args: Args) -> int:
    from markergen.check import run_check
    from markergen.report import render

    cfg = _config(args, "check")

    def note(line: str) -> None:
        if not args.quiet:
            sys.stderr.write(f"markergen: {line}\n")

    run = run_check(
        cfg,
        _patterns(args.patterns, cfg),
        Path.cwd(),
        use_cache=not args.no_cache,
        server=bool(args.server),
        note=note,
    )
    diags = list(run.diagnostics)
    _announce(args, cfg, run.summary)
    color = args.format == "text" and use_color(sys.stdout)
    sys.stdout.write(render(diags, args.format, Path.cwd(), color=color))
    if args.format == "text" and diags and not args.quiet:
        sys.stderr.write(_summary(diags) + "\n")
    return 1 if any(d.severity.value == "error" for d in diags) else 0


def _run_generate(args: Args) -> int:
    from markergen.generate import run_and_report

    cfg = _config(args, "generate")
    return run_and_report(
        cfg,
        _patterns(args.patterns, cfg),
        Path.cwd(),
        verify=args.verify,
        use_cache=not args.no_cache,
        out=sys.stdout,
        err=sys.stderr,
        quiet=args.quiet,
        announce=not args.patterns and cfg.inputs_picked,
    )


def _run_crd(args: Args) -> int:
    from markergen.config import policy
    from markergen.crd.project import run_project
    from markergen.report import render

    cfg = _config(args, "crd")
    paths = [Path(p).resolve() for p in args.paths]
    if not paths and cfg.crd_dir:
        paths = [cfg.root / cfg.crd_dir]
    types = [_move_pattern(p, Path.cwd(), cfg.root) for p in args.types] or list(cfg.inputs)
    run = run_project(
        cfg.root,
        paths=paths,
        types=types,
        verify=args.verify,
        include_generated=cfg.include_generated,
        samples_include=cfg.samples.get("include", ()),
        samples_exclude=cfg.samples.get("exclude", ()),
        strict=cfg.strict,
        use_cache=not args.no_cache,
        server=cfg.server,
        policy=policy(cfg),
    )
    if run.server and not args.quiet:
        sys.stderr.write(f"markergen: {run.server}\n")
    if not args.types and cfg.inputs_picked and not args.quiet:
        # the Go packages it picked, their modules and the unions and enums of each
        sys.stderr.write(f"markergen: {run.summary or 'read ' + ' and '.join(run.types[:4])}\n")
    if not args.paths and not cfg.crd_dir and not args.quiet:
        for out in run.targets.outputs:
            where = os.path.relpath(cfg.root / out.directory, Path.cwd())
            how = "" if out.how == "controller-gen" else f": {out.how}"
            sys.stderr.write(f"markergen: using {where} (from {out.source}{how})\n")
        for note in run.targets.notes:
            sys.stderr.write(f"markergen: note: {note}\n")
    result = run.result
    if result.diagnostics:
        sys.stderr.write(render(list(result.diagnostics), "text", Path.cwd()))
    if args.verify:
        sys.stdout.write("".join(result.diffs))
        from markergen.report import count

        stale = len(result.changed)
        if stale:
            verb = "is" if stale == 1 else "are"
            sys.stderr.write(f"markergen: {count(stale, 'CRD file')} {verb} stale\n")
        elif not args.quiet:
            sys.stderr.write("markergen: CRDs are up to date\n")
        return 1 if result.has_errors or stale else 0
    if not args.quiet:
        changed = ", ".join(os.path.relpath(p, Path.cwd()) for p in result.changed) or "nothing"
        sys.stderr.write(f"markergen: patched {changed}\n")
    return 1 if result.has_errors else 0


def _runtime_inputs(args: Args, obj: str | None) -> tuple[Any, str, Any, Any]:
    """(table, definition name, the object as loaded (None when `obj` is None), the old
    object's value or None). The name is `--type`'s, or the object's own apiVersion and
    kind's (for validate, which reads its documents itself, resolved per document)."""
    from markergen.config import load_config
    from markergen.objects import load_object, object_type, resolve_type
    from markergen.runtime import Table

    path = args.table or str(load_config(Path.cwd()).output_path("table-json"))
    loaded = Table.load(path, semantics=args.semantics)
    names = sorted(loaded.types)
    if args.type and not any(n == args.type or n.endswith("." + args.type) for n in names):
        resolve_type(names, args.type)  # an unknown type is the first thing to say
    new = load_object(obj) if obj is not None else None
    name = "" if new is None else object_type(names, new.value, args.type, obj or "-")
    old = load_object(args.old).value if args.old else None
    return loaded, name, new, old


def _kind_note(value: Any, name: str, table: Any, shown: str) -> None:
    """On stderr: the object's own kind is another type than the one it is checked as."""
    from markergen.objects import kind_note

    note = kind_note(value, name, sorted(table.types), shown)
    if note is not None:
        sys.stderr.write(f"markergen: note: {note}\n")


def _run_normalize(args: Args) -> int:
    from markergen.objects import dump_object
    from markergen.runtime import UnionError
    from markergen.runtime import normalize as run_normalize

    table, name, new, old = _runtime_inputs(args, args.new)
    _kind_note(new.value, name, table, f"{args.new}:{new.line}")
    try:
        result = run_normalize(table, name, old, new.value)
    except UnionError as e:
        sys.stdout.write("".join(f"{err}\n" for err in e.errors))
        return 1
    sys.stdout.write(dump_object(result, new.was_json))
    return 0


def _run_validate(args: Args) -> int:
    from markergen.objects import load_objects, object_type
    from markergen.runtime import validate as run_validate

    table, _, _, old = _runtime_inputs(args, None)
    docs = load_objects(args.object)
    invalid = False
    records: list[dict[str, object]] = []
    names = sorted(table.types)
    for doc in docs:
        where = f"{args.object}:{doc.line}" if len(docs) > 1 else args.object
        name = object_type(names, doc.value, args.type, where)
        errors = run_validate(table, name, doc.value, old=old, options=frozenset(args.option))
        invalid = invalid or bool(errors)
        _kind_note(doc.value, name, table, f"{args.object}:{doc.line}")
        if args.format == "json":
            records.extend({"document": doc.line, **e.to_record()} for e in errors)
            continue
        # Several documents (a YAML stream, as kubectl applies it): each error says which.
        prefix = f"{where}: " if len(docs) > 1 else ""
        sys.stdout.write("".join(f"{prefix}{err}\n" for err in errors))
    if args.format == "json":
        import json

        sys.stdout.write(json.dumps(records, indent=2, ensure_ascii=False) + "\n")
    return 1 if invalid else 0


def _is_pattern(arg: str) -> bool:
    """Whether diff's second positional is a package pattern rather than HEAD."""
    if "..." in arg:
        return True
    path = Path(arg)
    if path.is_file() or ":" in arg:
        return False
    if path.is_dir():
        from markergen.diff.sources import is_side_directory

        return not is_side_directory(path)
    return arg.startswith(("./", "../"))


def _run_diff(args: Args) -> int:
    from markergen.config import ConfigError
    from markergen.diff import run_diff
    from markergen.diff.crdchecks import CrdChecksError, crd_checks

    rest = list(args.rest)
    head = rest.pop(0) if rest and not _is_pattern(rest[0]) else None
    cfg = _config(args, "diff")
    # the project's diff-report.md.j2 (the `templates` setting) replaces the built-in
    templates = cfg.templates_dir() if args.format == "markdown" else None
    try:
        checks = crd_checks(cfg.crd_checks, cfg.crd_check_options)
    except CrdChecksError as e:
        raise ConfigError(f"{cfg.source or 'markergen.yaml'}: {e}") from None
    result = run_diff(
        args.base,
        head,
        Path.cwd(),
        args.format,
        patterns=rest,
        templates_dir=templates,
        checks=checks,
        cache=not args.no_cache,
    )
    sys.stdout.write(result.text)
    return 1 if result.fails(args.fail_on) else 0


def _run_explain(args: Args) -> int:
    from markergen.explain import explain, to_plain_text

    text = explain(args.code)
    sys.stdout.write(text if args.format == "markdown" else to_plain_text(text))
    return 0


def _run_completion(args: Args) -> int:
    sys.stdout.write(completion_script(PROG, args.shell))
    return 0


# ---- declarations ------------------------------------------------------------------

_VERIFY = Arg(
    ("--verify",),
    "Write nothing; print a diff of what would change and exit 1 if anything is stale.",
    "verify",
    action="store_true",
)
_TYPE = Arg(
    ("--type",),
    "The object's type: a definition name of the table, or a unique suffix such as "
    "Deployment (default: the type the object's apiVersion and kind name).",
    "type",
    metavar="TYPE",
)
_OLD = Arg(("--old",), "The stored object, for an update.", "old", metavar="FILE", complete="file")
_TABLE = Arg(
    ("--table",),
    "The runtime table, unions_table.json (default: the configured table-json path).",
    "table",
    metavar="FILE",
    complete="file",
)
_RUNTIME_SEMANTICS = Arg(
    ("--semantics",),
    "Apply one semantics to every union instead of each union's own.",
    "semantics",
    choices_from="markergen.semantics:SEMANTICS",
    complete="choice",
)

_NO_CACHE = Arg(
    ("--no-cache",),
    "Recompute everything; do not read or write the cache.",
    "no_cache",
    action="store_true",
)

# What validate and normalize share: the type, the stored object, the table, a semantics.
_RUNTIME_ARGS = (_TYPE, _OLD, _TABLE, _RUNTIME_SEMANTICS)

COMMANDS: tuple[Command, ...] = (
    Command(
        "check",
        "Check the union and enum markers; exit 1 when there is an error.",
        "Read the Go packages, check their union and enum markers and print one "
        "diagnostic per problem (file:line:col, severity, code, message and a hint). "
        "`markergen explain CODE` prints a code's documentation.",
        (
            PATTERNS,
            Arg(
                ("--format", "-f"),
                "Output format: text (compiler style), json, github (workflow "
                "annotations) or sarif (code scanning).",
                "format",
                choices=("text", "json", "github", "sarif"),
                default="text",
                complete="choice",
            ),
            Arg(
                ("--server",),
                "Also prove the union rules on the project's own API server (its envtest "
                "kube-apiserver and etcd, as the `server` setting finds them), as `markergen "
                "crd` does, writing nothing: for CI.",
                "server",
                action="store_true",
                default=False,
            ),
            _NO_CACHE,
        ),
        _run_check,
    ),
    Command(
        "generate",
        "Check, then write the OpenAPI documents and the runtime tables.",
        "Check the markers and, when there is no error, write openapi-v2.json, "
        "openapi-v3.json, unions_table.json and unions_table.py (all or none). A run "
        "whose inputs did not change reuses the previous results (.markergen-cache/).",
        (
            PATTERNS,
            _VERIFY,
            _NO_CACHE,
        ),
        _run_generate,
    ),
    Command(
        "crd",
        "Add union CEL rules and discriminator enums to controller-gen CRDs, in place.",
        "Patch controller-gen CustomResourceDefinition YAML so that the API server "
        "enforces the unions of the Go types: x-kubernetes-validations rules and the "
        "discriminators' enums. A second run changes nothing.",
        (
            Arg(
                ("PATHS",),
                "CRD files or directories (default: the config's crd-dir, else every "
                "directory the Makefile's controller-gen runs write CRDs to, else "
                "config/crd/bases).",
                "paths",
                action="positionals",
                complete="file",
            ),
            Arg(
                ("--types",),
                "A Go package pattern of the API types (repeatable; default: the config's "
                "inputs, else the Makefile's controller-gen paths=, else ./api/...).",
                "types",
                metavar="PATTERN",
                action="append",
                default=[],
                complete="dir",
            ),
            _VERIFY,
            _NO_CACHE,
        ),
        _run_crd,
    ),
    Command(
        "validate",
        "Validate an object's unions; print one Kubernetes-style error per line.",
        "Validate an object (YAML or JSON) against the unions and enums of a generated "
        "runtime table, as the API server would; exit 1 when it is invalid.",
        (
            Arg(
                ("OBJECT",),
                "The object: a YAML or JSON file, or - for standard input. A YAML file of "
                "several documents is validated document by document.",
                "object",
                action="positional",
                complete="file",
            ),
            *_RUNTIME_ARGS,
            Arg(
                ("--option",),
                "Enable option (feature gate) NAME for unions wrapped in "
                "+k8s:ifEnabled(NAME) / +k8s:ifDisabled(NAME); repeatable. Without it, "
                "validation as with no option enabled.",
                "option",
                metavar="NAME",
                action="append",
                default=[],
            ),
            Arg(
                ("--format", "-f"),
                "Output format: text (one Kubernetes-style error per line) or json (a list "
                "of errors with path, type, detail, and validation-gen's origin and stage).",
                "format",
                choices=("text", "json"),
                default="text",
                complete="choice",
            ),
        ),
        _run_validate,
        settings=False,
    ),
    Command(
        "normalize",
        "Normalize an object's unions as the API server would on create or update.",
        "Print the object with its unions normalized (members the discriminator does not "
        "select cleared), as the API server would store it; exit 1 with the errors when "
        "it cannot be normalized.",
        (
            Arg(
                ("NEW",),
                "The new object: a YAML or JSON file, or - for standard input.",
                "new",
                action="positional",
                complete="file",
            ),
            *_RUNTIME_ARGS,
        ),
        _run_normalize,
        settings=False,
    ),
    Command(
        "diff",
        "Compare the unions and enums of two versions; classify each change.",
        "Compare two versions of an API and classify every union and enum change as "
        "compatible or breaking, by the Kubernetes API change conventions. Each change "
        "names its Go file and line, type and field, API stage and feature gate.\n\n"
        "A side is a git revision, a directory of Go packages, a generated OpenAPI or "
        "table JSON file, a CRD YAML file, a directory of CRDs, or REV:PATH (such a file "
        "or directory as it is in a git revision: main:config/crd/bases). In a "
        "kubebuilder project, a revision or the working tree brings the project's CRDs "
        "too, found as `crd` finds them. A CRD side is compared with a side that has "
        "CRDs (docs/diff.md).\n\n"
        "The second argument is HEAD when it is a git revision, a file, REV:PATH or a "
        "directory holding go.mod, markergen.yaml or CRDs; otherwise it is the first pattern "
        "(anything with `...` always is). A base that is a git revision is kept in the "
        "cache directory, keyed by its commit (--no-cache: read it again). Patterns narrow the Go sides as `check` takes "
        "them; a pattern that names nothing on one side makes everything it names on the "
        "other side added or removed.",
        (
            Arg(
                ("BASE",),
                "Base side: a git revision, a directory (Go or CRDs), a generated JSON "
                "file, a CRD file, or REV:PATH.",
                "base",
                action="positional",
                complete="gitref",
            ),
            Arg(
                ("HEAD_OR_PATTERNS",),
                "[HEAD] [PATTERNS...]: the head side (default: the working tree), then Go "
                "package patterns such as ./api/...",
                "rest",
                action="positionals",
                complete="gitref",
            ),
            Arg(
                ("--format", "-f"),
                "Output format: text, markdown (a PR comment), json, or github (workflow "
                "annotations on the changed lines).",
                "format",
                choices_from="markergen.diff.choices:FORMATS",
                default="text",
                complete="choice",
            ),
            Arg(
                ("--fail-on",),
                "Exit 1 on: breaking (a breaking change of a GA version that no feature "
                "gate hides), breaking-any-stage, any, or none.",
                "fail_on",
                choices_from="markergen.diff.choices:FAIL_ON",
                default="none",
                complete="choice",
            ),
            _NO_CACHE,
        ),
        _run_diff,
    ),
    Command(
        "dump",
        "Print the parsed model (packages, structs, enums, unions) as JSON.",
        "Print the model markergen builds from the Go packages, as JSON.",
        (PATTERNS, _NO_CACHE),
        _run_dump,
    ),
    Command(
        "explain",
        "Print the documentation of one checker code.",
        "Print what a diagnostic code means, with a bad and a good example.",
        (
            Arg(
                ("CODE",),
                "A diagnostic code such as MG303.",
                "code",
                action="positional",
                complete="code",
            ),
            Arg(
                ("--format", "-f"),
                "plain text, or the markdown source.",
                "format",
                choices=("text", "markdown"),
                default="text",
                complete="choice",
            ),
        ),
        _run_explain,
        settings=False,
    ),
    Command(
        "completion",
        "Print a shell completion script for bash, zsh, fish or PowerShell.",
        "Print a completion script for markergen's commands, options and values (diagnostic "
        "codes, formats, choices, git revisions). The script asks markergen itself for the "
        "completions, so they always match the installed version.",
        (
            Arg(
                ("SHELL",),
                "The shell: bash, zsh, fish, powershell (Windows PowerShell) or pwsh.",
                "shell",
                action="positional",
                choices=SHELLS,
                complete="choice",
            ),
        ),
        _run_completion,
        settings=False,
        # bash's line needs no bash-completion package and no directory that may not
        # exist (tests/test_completion.py runs each line in a new HOME).
        epilog="Install (then start a new shell):\n\n"
        "  bash  markergen completion bash > ~/.markergen.bash, and in ~/.bashrc:\n"
        "        source ~/.markergen.bash\n"
        "  zsh   markergen completion zsh > ~/.markergen.zsh, and in ~/.zshrc after compinit:\n"
        "        source ~/.markergen.zsh\n"
        "  fish  mkdir -p ~/.config/fish/completions && "
        "markergen completion fish > ~/.config/fish/completions/markergen.fish\n"
        "  pwsh  markergen completion pwsh >> $PROFILE",
    ),
)


# Options of `markergen` alone.
GLOBAL_ARGS: tuple[Arg, ...] = (
    Arg(("--version",), "Print the version and exit.", "version", action="store_true"),
)
# Options every command takes as well, so they work anywhere on the line.
EVERYWHERE_ARGS: tuple[Arg, ...] = (
    Arg(("--debug",), "Show a traceback for internal errors.", "debug", action="store_true"),
    Arg(
        ("--quiet", "-q"),
        "Print only results, diagnostics and errors: no progress and no summary of a "
        "successful run (a generate that changes nothing prints nothing).",
        "quiet",
        action="store_true",
    ),
)


def build(only: str | None = None) -> click.Command:
    """The command line as a click command (a typer app built from COMMANDS and the
    settings registry). With `only`, the other commands have no arguments yet (see
    cliargs.build_app). No command's help imports the model, the Go reader or yaml
    (tests/test_startup.py)."""
    from markergen import __version__

    return build_app(
        prog=PROG,
        description=DESCRIPTION,
        epilog="Run `markergen COMMAND --help` for a command's options. "
        "Exit codes: 0 ok, 1 problems found, 2 usage or input error, 130 interrupted.",
        commands=COMMANDS,
        top_args=GLOBAL_ARGS,
        everywhere=EVERYWHERE_ARGS,
        version=__version__,
        only=only,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run markergen with `argv` (default: the process's arguments); return the exit code."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args_list
    previous = _interrupt_once()
    swallowed: list[BaseException] = []
    hook = sys.unraisablehook
    sys.unraisablehook = _keep_interrupts(swallowed, hook)
    try:
        code = _main(args_list, debug)
    finally:
        sys.unraisablehook = hook
        if previous is not None:
            import signal

            signal.signal(signal.SIGINT, previous)
    if swallowed and code != 130:
        # The Ctrl-C landed where Python cannot raise it (a callback of the import
        # machinery) and the run went on to its end: every output is written, and the
        # user still learns that the interrupt was seen.
        sys.stderr.write(INTERRUPTED + "\n")
        return 130
    return code


def _keep_interrupts(seen: list[BaseException], hook: Any) -> Any:
    """An unraisable-exception hook that keeps a KeyboardInterrupt in `seen` instead of
    printing "Exception ignored in ... Traceback" (Python's report when a Ctrl-C lands in
    a weakref callback, such as the import machinery's module-lock clean-up); anything
    else goes to `hook`."""

    def keep(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            seen.append(unraisable.exc_value)
        else:
            hook(unraisable)

    return keep


def _interrupt_once() -> Any:
    """The first Ctrl-C interrupts the run; the ones an impatient user adds are ignored,
    so they cannot land in the middle of the clean-up (or of the interpreter's own
    machinery) and turn the one-line message into a traceback. Returns the handler to
    restore, or None where signals cannot be handled (another thread)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None

    def first(signum: int, frame: Any) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        raise KeyboardInterrupt

    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.SIG_IGN:
        return None  # started with SIGINT ignored (nohup, a background job): keep it
    signal.signal(signal.SIGINT, first)
    return previous


def _main(args_list: list[str], debug: bool) -> int:
    from markergen.errors import user_message

    try:
        return _parse_and_run(args_list)
    except (KeyboardInterrupt, Interrupted):
        # An impatient user presses Ctrl-C again: that must not turn this message into a
        # traceback. Every writer is all-or-nothing: whatever was interrupted left each
        # output either as it was or completely rewritten.
        import signal

        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            sys.stderr.write(INTERRUPTED + "\n")
        finally:
            signal.signal(signal.SIGINT, previous)
        return 130
    except (BrokenPipeError, PipeClosed):
        # `markergen dump | head`: the reader left; nothing to report.
        _silence_stdout()
        return 0
    except Exception as e:
        if caused_by_interrupt(e):
            # A Ctrl-C inside the interpreter's machinery (a class being created at import)
            # reaches us wrapped in another exception: it is still the user's interrupt.
            sys.stderr.write(INTERRUPTED + "\n")
            return 130
        message = user_message(e)
        if message is not None:
            sys.stderr.write(f"markergen: error: {message}\n")
            return 2
        if debug:
            raise
        sys.stderr.write(
            f"markergen: error: internal error: {type(e).__name__}: {e} (run with --debug "
            "for a traceback, and please report it)\n"
        )
        return 2


def _parse_and_run(args_list: list[str]) -> int:
    """Parse with click (help, usage errors, completion requests) and run the command."""
    if args_list == ["--version"] and not os.environ.get(COMPLETE_VAR):
        # What scripts and `make` ask most: answered before typer and click are imported
        # (the same text as the option's callback in cliargs.build_app).
        from markergen import __version__

        sys.stdout.write(f"{PROG} {__version__}\n")
        return 0
    import click

    names = {c.name for c in COMMANDS}
    words = args_list
    if os.environ.get(COMPLETE_VAR):
        # A completion request: the line being completed is in the environment (bash's
        # COMP_WORDS, typer's _TYPER_COMPLETE_ARGS for the other shells).
        line = " ".join(os.environ.get(v, "") for v in ("COMP_WORDS", "_TYPER_COMPLETE_ARGS"))
        words = line.split()[1:]
    command = build(next((a for a in words if a in names), ""))
    try:
        code = command.main(args_list, prog_name=PROG, standalone_mode=False)
    except click.exceptions.Abort:  # a Ctrl-C while click itself ran
        raise KeyboardInterrupt from None
    except click.ClickException as e:  # a usage error: usage, the message, exit 2
        e.show()
        return e.exit_code
    except SystemExit as e:  # a completion request, answered
        return e.code if isinstance(e.code, int) else 0
    return code if isinstance(code, int) else 0


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def run() -> None:
    """The console script."""
    import signal

    try:
        code = main()
    except KeyboardInterrupt:
        # Between main's own handler and here (main restoring the previous handler, after
        # the command's last line): every output is written, and the user still sees
        # the one line an interrupt gets.
        sys.stderr.write(INTERRUPTED + "\n")
        code = 130
    # The work is done (every output is written or untouched): a Ctrl-C that lands while
    # the interpreter shuts down must not print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.exit(code)


__all__ = ["COMMANDS", "Arg", "Command", "build", "command_args", "main", "run", "use_color"]
