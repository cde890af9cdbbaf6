"""Settings: every option of markergen, declared once, and the configuration of a run.

Each option is one field of `Config` below, declared with `setting(...)`: its type (the
annotation), default, help text, whether `markergen.yaml` takes it (the key is its
name with dashes) and on which commands it is a flag (`--<key>`), and whether it
changes what `generate` writes. Everything else derives from that declaration:

- `markergen.yaml` loading (`load_config`): the known keys, their types and checks;
- the command line (markergen.cli adds a flag for every setting of a command);
- the cache key of `generate` (`output_settings`);
- the output paths: one `--<output>` flag and config key per output of
  `markergen.emit.outputs.OUTPUTS`, which declares the outputs themselves.

Precedence (lowest first): the defaults here, kubebuilder `PROJECT` defaults,
`markergen.yaml`, command-line flags.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Mapping
from dataclasses import MISSING, Field, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

# Only what the settings' annotations and OUTPUTS need: `markergen COMMAND --help` and a
# run served from the cache import this module, and neither reads Go nor builds a model
# (tests/test_startup.py).
from markergen.emit.naming import Naming
from markergen.emit.options import UnionFormat
from markergen.emit.outputs import OUTPUTS
from markergen.policy import Level, Policy, make_policy
from markergen.semantics import Semantics

CONFIG_NAME = "markergen.yaml"
_SPEC = "markergen.setting"

# The level of a CRD check of `diff` and the values of its options (markergen/diff/
# crdchecks.py declares the checks and options; a test holds these equal to its own).
CheckLevel = Literal["error", "warning", "off"]
CheckOption = Literal["allow", "breaking", "compatible", "disallow"]

Kind = Literal["bool", "str", "optional-str", "choice", "list", "mapping", "globs"]

# `samples:` in markergen.yaml: {include: [glob, ...], exclude: [glob, ...]}.
Globs = Mapping[str, tuple[str, ...]]
GLOB_KEYS = ("include", "exclude")


class ConfigError(Exception):
    """A bad configuration file or value (exit code 2)."""


# Compared and hashed by identity: each setting is declared once, and its default may be
# a mapping (unhashable).
@dataclass(frozen=True, slots=True, eq=False)
class Setting:
    """One option, as the user meets it."""

    key: str  # markergen.yaml key; the flag is `--<key>`
    attr: str  # attribute of Config
    help: str
    kind: Kind
    default: Any
    choices: tuple[str, ...]  # allowed values (a choice, or the values of a mapping)
    commands: tuple[str, ...]  # commands whose command line takes it as a flag
    in_file: bool  # markergen.yaml takes it
    affects_outputs: bool  # changes the bytes `generate` writes (part of its cache key)
    metavar: str | None = None  # how help names the flag's value

    @property
    def flag(self) -> str:
        return f"--{self.key}"


def setting(
    default: Any,
    *,
    help: str,
    commands: tuple[str, ...] = (),
    in_file: bool = True,
    affects_outputs: bool = False,
    metavar: str | None = None,
    key: str | None = None,
) -> Any:
    """Declare a Config field as a setting (see the module docstring)."""
    meta = {
        _SPEC: {
            "help": help,
            "commands": commands,
            "in_file": in_file,
            "affects_outputs": affects_outputs,
            "metavar": metavar,
            "key": key,
        }
    }
    if isinstance(default, dict):
        return field(default_factory=lambda: dict(default), metadata=meta)
    return field(default=default, metadata=meta)


# Commands that read Go packages.
_READERS = ("check", "generate", "crd", "dump")


@dataclass(frozen=True, slots=True)
class Config:
    root: Path  # the module root (directory of go.mod), else the working directory
    inputs: tuple[str, ...] = setting(
        (),
        help="Go package patterns read when the command line gives none (default: the "
        "packages the API types reach, those declaring +groupName and the project's "
        "packages they import, in the module and the modules below it; ./api/... in a "
        "kubebuilder project; else ./...).",
    )
    out_dir: str = setting(
        "openapi",
        help="Directory of the generated outputs, relative to the module root.",
        commands=("generate",),
        metavar="DIR",
    )
    output_paths: Mapping[str, str] = field(default_factory=dict)  # see _output_settings
    union_format: UnionFormat = setting(
        "fieldMembers",
        help="How unions appear in OpenAPI: fieldMembers (the KEP's map on the "
        "discriminator), list (openapi-gen's list on the struct) or both.",
        commands=("generate",),
        affects_outputs=True,
    )
    semantics: Mapping[str, Semantics] = setting(
        {},
        help="Runtime semantics of every union: kep1027, kep2019, smd or k8s "
        "(validation-gen's) (default: each union's own dialect). In markergen.yaml also a "
        "mapping from a type, union or dialect to a semantics.",
        commands=("generate",),
        affects_outputs=True,
    )
    naming: Naming = setting(
        "openapi-gen",
        help="Definition names: openapi-gen (io.k8s.api.apps.v1.Deployment) or go "
        "(k8s.io/api/apps/v1.Deployment).",
        commands=("generate",),
        affects_outputs=True,
    )
    crd_dir: str | None = setting(
        None,
        help="Directory of the CRD files `markergen crd` patches when given no paths.",
        commands=(),
    )
    include_generated: bool = setting(
        False,
        help="Also read Go files marked `Code generated ... DO NOT EDIT.`",
        commands=_READERS,
        affects_outputs=True,
    )
    samples: Globs = setting(
        {},
        help="YAML objects the project keeps besides config/samples, examples/, samples/, "
        "docs/, e2e data and openshift-style API test suites, that `crd` proves its rules "
        "against and `check` reports on: `include` and `exclude` lists of globs relative to "
        "the module root.",
    )
    strict: bool = setting(
        False,
        help="Exit 1 when a union rule would reject an object the project keeps (its "
        "samples, examples, docs and e2e data).",
        commands=("check", "crd"),
    )
    server: str = setting(
        "auto",
        help="The project's own API server for `crd`'s proof (and `check --server`): `auto` "
        "uses the envtest binaries its controller tests use when they are on the machine "
        "(KUBEBUILDER_ASSETS, bin/k8s/ as the Makefile's ENVTEST_K8S_VERSION names it, "
        "setup-envtest's data directory), `off` never starts a server, a directory names "
        "the kube-apiserver and etcd to use. Nothing is ever downloaded.",
        commands=("crd",),
        metavar="auto|off|DIR",
    )
    severity: Mapping[str, Level] = setting(
        {},
        help="The severity of a diagnostic code, or off to drop it: a mapping such as "
        "{MG205: off, MG302: error}. It applies to what check, generate and crd report.",
        affects_outputs=True,
    )
    warnings_as_errors: bool = setting(
        False,
        help="Treat every warning as an error (infos stay infos): check exits 1 and "
        "generate writes nothing.",
        commands=("check", "generate"),
        affects_outputs=True,
    )
    title: str = setting(
        "markergen",
        help="info.title of the OpenAPI documents.",
        commands=("generate",),
        affects_outputs=True,
    )
    version: str = setting(
        "unversioned",
        key="api-version",
        help="info.version of the OpenAPI documents.",
        commands=("generate",),
        affects_outputs=True,
    )
    templates: str | None = setting(
        None,
        help="Directory of Jinja templates, relative to the module root: each *.j2 file "
        "writes one more output into OUT_DIR, named by the file without .j2, and one named "
        "like a built-in output replaces its template; diff-report.md.j2 replaces the "
        "report of `diff --format markdown` (docs/templates.md).",
        commands=("generate", "diff"),
        affects_outputs=True,
        metavar="DIR",
    )
    fragments: bool = setting(
        False,
        help="Also write openapi-v2.fragment.json and openapi-v3.fragment.json: only "
        "markergen's x-kubernetes-unions and enum keys, as JSON Merge Patches to merge into "
        "an OpenAPI document from openapi-gen or controller-gen (docs/openapi.md).",
        commands=("generate",),
        affects_outputs=True,
    )
    crd_checks: Mapping[str, CheckLevel] = setting(
        {},
        help="The level of each CRD check of `diff` (crdify's checks: scope, "
        "existingFieldRemoval, storedVersionRemoval, enum, default, maximum, maxLength, "
        "maxItems, maxProperties, minimum, minLength, minItems, minProperties, nullable, "
        "pattern, required, type, description): error (a flagged change is breaking and "
        "counts for --fail-on), warning (reported, never fails the run) or off; `*` names "
        "every check. Default: error, description off (docs/diff.md). The flag sets every "
        "check.",
        commands=("diff",),
        metavar="LEVEL",
    )
    crd_check_options: Mapping[str, CheckOption] = setting(
        {},
        help="Options of the CRD checks of `diff`: enum-addition (allow|disallow), "
        "required-with-default (compatible|breaking), pattern-removal (allow|disallow), "
        "nullable-addition (allow|disallow), nullable-removal (allow|disallow) "
        "(docs/diff.md).",
    )
    source: Path | None = None  # the markergen.yaml read, if any
    # True when neither markergen.yaml nor a flag names the inputs: markergen picked them
    # (a zero-config run, which then says what it read; docs/configuration.md)
    inputs_picked: bool = True

    def output_path(self, key: str) -> Path:
        """Absolute path of the output declared with `key` in emit.outputs.OUTPUTS."""
        explicit = self.output_paths.get(key)
        if explicit is not None:
            return (self.root / explicit).resolve()
        spec = next(o for o in OUTPUTS if o.key == key)
        return (self.root / self.out_dir / spec.filename).resolve()

    def templates_dir(self) -> Path | None:
        """The directory of the project's templates (the `templates` setting), or None."""
        return None if self.templates is None else (self.root / self.templates).resolve()


def _kind(hint: Any) -> tuple[Kind, tuple[str, ...]]:
    """The kind of a setting and its allowed values, from its annotation."""
    if hint is bool:
        return "bool", ()
    if hint is str:
        return "str", ()
    origin = get_origin(hint)
    if origin is Literal:
        return "choice", tuple(str(a) for a in get_args(hint))
    if origin in (typing.Union, types.UnionType) and type(None) in get_args(hint):
        return "optional-str", ()
    if origin is tuple:
        return "list", ()
    if origin is Mapping:
        _, value = get_args(hint)
        if get_origin(value) is tuple:
            return "globs", GLOB_KEYS
        return "mapping", tuple(str(a) for a in get_args(value))
    raise TypeError(f"unsupported setting type {hint!r}")


@functools.cache
def settings() -> tuple[Setting, ...]:
    """Every setting, in declaration order: Config's fields, then one per output."""
    hints = typing.get_type_hints(Config)
    out: list[Setting] = []
    for f in fields(Config):
        meta = f.metadata.get(_SPEC)
        if meta is None:
            continue
        kind, choices = _kind(hints[f.name])
        out.append(
            Setting(
                key=meta["key"] or f.name.replace("_", "-"),
                attr=f.name,
                help=meta["help"],
                kind=kind,
                default=_default(f),
                choices=choices,
                commands=meta["commands"],
                in_file=meta["in_file"],
                affects_outputs=meta["affects_outputs"],
                metavar=meta["metavar"],
            )
        )
    out.extend(_output_settings())
    return tuple(out)


def _default(f: Field[Any]) -> Any:
    if f.default is not MISSING:
        return f.default
    assert f.default_factory is not MISSING
    return f.default_factory()


def _output_settings() -> list[Setting]:
    return [
        Setting(
            key=o.key,
            attr="output_paths",
            help=f"Path of {o.title} (default: OUT_DIR/{o.filename}).",
            kind="optional-str",
            default=None,
            choices=(),
            commands=("generate",),
            in_file=True,
            affects_outputs=False,
            metavar="FILE",
        )
        for o in OUTPUTS
    ]


def settings_of(command: str) -> tuple[Setting, ...]:
    """The settings a command takes as flags."""
    return tuple(s for s in settings() if command in s.commands)


def policy(cfg: Config) -> Policy:
    """What the configuration says about diagnostics (markergen.policy). `strict` is a
    severity: a union rule that would reject an object the project keeps (MG511) is an
    error, unless `severity:` says otherwise."""
    given = {code.upper(): level for code, level in cfg.severity.items()}
    severity = {"MG511": "error", **given} if cfg.strict else given
    return make_policy(severity=severity, warnings_as_errors=cfg.warnings_as_errors)


def output_settings(cfg: Config) -> dict[str, object]:
    """Every setting that changes what `generate` writes, by key (its cache key)."""
    out: dict[str, object] = {}
    for s in settings():
        if s.affects_outputs:
            value = getattr(cfg, s.attr)
            out[s.key] = dict(value) if isinstance(value, Mapping) else value
    return out


def settings_markdown() -> str:
    """The reference table of every setting, for docs/configuration.md."""
    rows = [
        "| key (markergen.yaml) | flag | default | commands | what it does |",
        "|---|---|---|---|---|",
    ]
    for s in settings():
        flag = f"`{s.flag}`" if s.commands else "(file only)"
        default = (
            "" if s.default in (None, (), {}) else f"`{s.default}`".replace("`False`", "`false`")
        )
        commands = ", ".join(s.commands) if s.commands else ""
        values = f" One of: {', '.join(s.choices)}." if s.choices and s.kind != "globs" else ""
        rows.append(f"| `{s.key}` | {flag} | {default} | {commands} | {s.help}{values} |")
    return "\n".join(rows)


def find_root(cwd: Path) -> Path:
    """The nearest directory at or above cwd holding go.mod (the module root), else cwd."""
    for d in (cwd, *cwd.parents):
        if (d / "go.mod").is_file():
            return d
    return cwd


def _kubebuilder_defaults(root: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if (root / "PROJECT").is_file():
        for candidate in ("api", "apis"):
            if (root / candidate).is_dir():
                out["inputs"] = (f"./{candidate}/...",)
                return out
    # The packages the API types reach (those declaring `+groupName=` and the packages
    # of the project's modules they import): the same set from a repository's top and
    # from its module's directory, shared API types included, internal code not.
    from markergen.golang.packages import api_reach_patterns, nested_api_patterns

    reach = api_reach_patterns(root)
    if reach:
        out["inputs"] = reach
        return out
    # API packages in modules of their own below the root (`api/go.mod`): `./...` stops
    # at a nested go.mod, as the go command does, so they are named as well.

    nested = nested_api_patterns(root)
    if nested:
        # `./...` too when the root is a module; a repository whose only modules sit
        # below it (go/go.mod) has no Go files for `./...` to match
        own = ("./...",) if (root / "go.mod").is_file() else ()
        out["inputs"] = (*own, *nested)
    # No crd-dir default: `markergen crd` finds the CRDs where the Makefile's
    # controller-gen runs write them, else in config/crd/bases (markergen.project.outputs).
    return out


def coerce(s: Setting, value: Any, where: str) -> Any:
    """A value from markergen.yaml or a flag, checked and converted to the setting's type.

    A flag's value is a string (a bool flag gives True); a file's is whatever YAML read.
    """
    if s.kind == "bool":
        if not isinstance(value, bool):
            raise ConfigError(f"{where}{s.key} must be true or false")
        return value
    if s.kind == "list":
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{where}{s.key} must be a list of strings")
        return tuple(value)
    if s.kind == "globs":
        if not isinstance(value, dict) or not set(map(str, value)) <= set(GLOB_KEYS):
            raise ConfigError(f"{where}{s.key} must be a mapping with {' and/or '.join(GLOB_KEYS)}")
        globs: dict[str, tuple[str, ...]] = {}
        for k, v in value.items():
            items = [v] if isinstance(v, str) else v
            if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
                raise ConfigError(f"{where}{s.key}.{k} must be a list of globs")
            globs[str(k)] = tuple(items)
        return globs
    if s.kind == "mapping":
        if isinstance(value, str):
            value = {"*": value}
        if not isinstance(value, dict):
            raise ConfigError(f"{where}{s.key} must be a name or a mapping")
        # YAML 1.1 reads a bare `off` as false; `MG205: off` means the level "off".
        mapping = {
            str(k): "off" if v is False and "off" in s.choices else str(v) for k, v in value.items()
        }
        for k, v in mapping.items():
            if s.choices and v not in s.choices:
                raise ConfigError(
                    f"{where}{s.key} for {k!r} must be one of {', '.join(s.choices)}, not {v!r}"
                )
        return mapping
    if value is None and s.kind == "optional-str":
        return None
    if not isinstance(value, str):
        raise ConfigError(f"{where}{s.key} must be a string")
    if s.kind == "choice" and value not in s.choices:
        raise ConfigError(f"{where}{s.key} must be one of {', '.join(s.choices)}, not {value!r}")
    return value


def _apply(cfg: Config, values: Mapping[Setting, Any]) -> Config:
    direct = {s.attr: v for s, v in values.items() if s.attr != "output_paths"}
    paths = {s.key: v for s, v in values.items() if s.attr == "output_paths" and v is not None}
    if paths:
        direct["output_paths"] = {**cfg.output_paths, **paths}
    return replace(cfg, **direct)


def _from_file(path: Path) -> dict[Setting, Any]:
    from markergen.yamlread import YamlError, load_value

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: cannot read: {e}") from None
    try:
        data = load_value(text)
    except YamlError as e:
        raise ConfigError(f"{path}:{e.line}:{e.column}: not valid YAML: {e.message}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of keys to values")
    known = {s.key: s for s in settings() if s.in_file}
    out: dict[Setting, Any] = {}
    for key, value in data.items():
        s = known.get(str(key))
        if s is None:
            raise ConfigError(
                f"{path}: unknown key {key!r}; known keys: {', '.join(sorted(known))}"
            )
        out[s] = coerce(s, value, f"{path}: ")
    return out


def _names_inputs(values: Mapping[Setting, Any]) -> bool:
    return any(s.attr == "inputs" for s in values)


def load_config(cwd: Path, flags: Mapping[str, Any] | None = None) -> Config:
    """The effective configuration for a run started in `cwd`.

    `flags` maps setting keys (as in markergen.yaml) to the values given on the command
    line; None means "not given".
    """
    root = find_root(cwd.resolve())
    cfg = replace(Config(root=root), **_kubebuilder_defaults(root))
    config_file = root / CONFIG_NAME
    if config_file.is_file():
        values = _from_file(config_file)
        cfg = replace(
            _apply(cfg, values), source=config_file, inputs_picked=not _names_inputs(values)
        )
    if flags:
        by_key = {s.key: s for s in settings()}
        given: dict[Setting, Any] = {}
        for key, value in flags.items():
            if value is None or value is False or value == ():
                continue
            given[by_key[key]] = coerce(by_key[key], value, "--")
        picked = cfg.inputs_picked and not _names_inputs(given)
        cfg = replace(_apply(cfg, given), inputs_picked=picked)
    return cfg
