"""Configuration: `markergen.yaml` at the module root, kubebuilder defaults, flags.

Precedence (lowest first): built-in defaults, kubebuilder `PROJECT` defaults,
`markergen.yaml`, command-line flags. Every key of the file is also a flag.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

CONFIG_NAME = "markergen.yaml"

# key in markergen.yaml → attribute of Config
_KEYS = {
    "inputs": "inputs",
    "out-dir": "out_dir",
    "v2": "v2",
    "v3": "v3",
    "table-json": "table_json",
    "table-py": "table_py",
    "union-format": "union_format",
    "semantics": "semantics",
    "naming": "naming",
    "templates": "templates",
    "crd-dir": "crd_dir",
    "include-generated": "include_generated",
    "title": "title",
    "api-version": "version",
}
UNION_FORMATS = ("fieldMembers", "list", "both")
SEMANTICS = ("kep1027", "kep2019", "smd")
NAMINGS = ("openapi-gen", "go")


class ConfigError(Exception):
    """A bad configuration file or value (exit code 2)."""


@dataclass(frozen=True)
class Config:
    root: Path  # the module root (directory of go.mod), else the working directory
    inputs: tuple[str, ...] = ()
    out_dir: str = "openapi"
    v2: str | None = None
    v3: str | None = None
    table_json: str | None = None
    table_py: str | None = None
    union_format: str = "fieldMembers"
    semantics: Mapping[str, str] = field(default_factory=dict)  # type key or "*" → semantics
    naming: str = "openapi-gen"
    templates: str | None = None
    crd_dir: str | None = None
    include_generated: bool = False
    title: str = "markergen"
    version: str = "unversioned"
    source: Path | None = None  # the markergen.yaml read, if any

    def output_path(self, which: str) -> Path:
        """Absolute path of one output: v2, v3, table_json or table_py."""
        names = {
            "v2": "openapi-v2.json",
            "v3": "openapi-v3.json",
            "table_json": "unions_table.json",
            "table_py": "unions_table.py",
        }
        explicit: str | None = getattr(self, which)
        if explicit is not None:
            return (self.root / explicit).resolve()
        return (self.root / self.out_dir / names[which]).resolve()


def find_root(cwd: Path) -> Path:
    """The nearest directory at or above cwd holding go.mod (the module root), else cwd."""
    for d in (cwd, *cwd.parents):
        if (d / "go.mod").is_file():
            return d
    return cwd


def _kubebuilder_defaults(root: Path) -> dict[str, Any]:
    if not (root / "PROJECT").is_file():
        return {}
    out: dict[str, Any] = {}
    for candidate in ("api", "apis"):
        if (root / candidate).is_dir():
            out["inputs"] = (f"./{candidate}/...",)
            break
    if (root / "config" / "crd" / "bases").is_dir():
        out["crd_dir"] = "config/crd/bases"
    return out


def _validate(cfg: Config) -> Config:
    if cfg.union_format not in UNION_FORMATS:
        raise ConfigError(
            f"union-format must be one of {', '.join(UNION_FORMATS)}, not {cfg.union_format!r}"
        )
    if cfg.naming not in NAMINGS:
        raise ConfigError(f"naming must be one of {', '.join(NAMINGS)}, not {cfg.naming!r}")
    for key, value in cfg.semantics.items():
        if value not in SEMANTICS:
            raise ConfigError(
                f"semantics for {key!r} must be one of {', '.join(SEMANTICS)}, not {value!r}"
            )
    return cfg


def _from_file(path: Path) -> dict[str, Any]:
    import yaml

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: cannot read: {e}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f":{mark.line + 1}:{mark.column + 1}" if mark is not None else ""
        raise ConfigError(f"{path}{where}: not valid YAML") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of keys to values")
    out: dict[str, Any] = {}
    types = {f.name: f.type for f in fields(Config)}
    for key, value in data.items():
        attr = _KEYS.get(str(key))
        if attr is None:
            raise ConfigError(
                f"{path}: unknown key {key!r}; known keys: {', '.join(sorted(_KEYS))}"
            )
        if attr == "inputs":
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ConfigError(f"{path}: inputs must be a list of patterns")
            value = tuple(value)
        elif attr == "semantics":
            if isinstance(value, str):
                value = {"*": value}
            if not isinstance(value, dict):
                raise ConfigError(f"{path}: semantics must be a name or a mapping")
            value = {str(k): str(v) for k, v in value.items()}
        elif attr == "include_generated":
            if not isinstance(value, bool):
                raise ConfigError(f"{path}: include-generated must be true or false")
        elif value is not None and not isinstance(value, str):
            raise ConfigError(f"{path}: {key} must be a string ({types[attr]})")
        out[attr] = value
    return out


def load_config(cwd: Path, overrides: Mapping[str, Any] | None = None) -> Config:
    """The effective configuration for a run started in `cwd`.

    `overrides` holds the flags the user gave (None values are ignored).
    """
    root = find_root(cwd.resolve())
    cfg = Config(root=root)
    cfg = replace(cfg, **_kubebuilder_defaults(root))
    config_file = root / CONFIG_NAME
    if config_file.is_file():
        cfg = replace(cfg, source=config_file, **_from_file(config_file))
    if overrides:
        given = {k: v for k, v in overrides.items() if v is not None and v != ()}
        cfg = replace(cfg, **given)
    return _validate(cfg)
