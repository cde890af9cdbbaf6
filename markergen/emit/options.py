"""Options shared by the renderers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, get_args

from markergen.emit.naming import Naming
from markergen.semantics import SEMANTICS, Semantics

if TYPE_CHECKING:  # annotations only: markergen.config imports this module for --help
    from markergen.model import Union

UnionFormat = Literal["fieldMembers", "list", "both"]
UNION_FORMATS: tuple[UnionFormat, ...] = get_args(UnionFormat)


@dataclass(frozen=True)
class EmitOptions:
    # fieldMembers: the current KEP's map on the discriminator property (kep2019 and
    # undiscriminated unions always use openapi-gen's list on the struct);
    # list: every union in the list form; both: fieldMembers plus the list form.
    union_format: UnionFormat = "fieldMembers"
    naming: Naming = "openapi-gen"
    title: str = "markergen"
    version: str = "unversioned"
    # Runtime semantics overrides. Keys, most specific first: a union
    # `<type key or definition name>.<discriminator JSON name>`, a type key or
    # definition name, a dialect (`kep2019`, `kep2022`, `kep1027`, `k8s`), or `*`.
    semantics: Mapping[str, Semantics] = field(default_factory=dict)
    # structured-merge-diff's schema flag; only meaningful for smd semantics.
    deduce_invalid_discriminator: bool = False

    def __post_init__(self) -> None:
        if self.union_format not in UNION_FORMATS:
            raise ValueError(
                f"unknown union format {self.union_format!r} "
                f"(expected one of {', '.join(UNION_FORMATS)})"
            )
        for key, value in self.semantics.items():
            if value not in SEMANTICS:
                raise ValueError(f"unknown semantics {value!r} for {key!r}")

    def semantics_for(self, union: Union, def_name: str) -> Semantics:
        disc = union.discriminator.json_name if union.discriminator else ""
        keys = []
        if disc:
            keys += [f"{union.struct}.{disc}", f"{def_name}.{disc}"]
        keys += [union.struct, def_name, union.dialect, "*"]
        for key in keys:
            if key in self.semantics:
                return self.semantics[key]
        return union.semantics
