"""The ten-member union of testdata/diff/manymembers and the changes a reviewer meets on
it (issue 37, item 4): `spec.program`'s `type` names which of ten programs is set, one
rule per member ties it to its value; `spec.runtime` takes exactly one of its members
through minProperties/maxProperties."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

CRD = (
    Path(__file__).parent.parent / "testdata" / "diff" / "manymembers" / "example.com_programs-handwritten.yaml"
)
Edit = Callable[[dict[str, Any]], None]


def node(doc: dict[str, Any], name: str) -> dict[str, Any]:
    spec = doc["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
    return spec["properties"][name]  # type: ignore[no-any-return]


def member_removed(d: dict[str, Any]) -> None:
    """elixir is gone: its property, its value and its rule."""
    p = node(d, "program")
    del p["properties"]["elixir"]
    p["properties"]["type"]["enum"].remove("Elixir")
    p["x-kubernetes-validations"] = [
        r for r in p["x-kubernetes-validations"] if "elixir" not in r["rule"]
    ]


def value_renamed(d: dict[str, Any]) -> None:
    """The value Golang is spelt Go; the member keeps its field `golang`."""
    p = node(d, "program")
    values = p["properties"]["type"]["enum"]
    values[values.index("Golang")] = "Go"
    for r in p["x-kubernetes-validations"]:
        r["rule"] = r["rule"].replace("'Golang'", "'Go'")


def discriminator_required(d: dict[str, Any]) -> None:
    node(d, "program")["required"] = ["type"]


def new_required_field(d: dict[str, Any]) -> None:
    p = node(d, "program")
    p["properties"]["name"] = {"type": "string"}
    p["required"] = ["name"]


def exactly_one_dropped(d: dict[str, Any]) -> None:
    r = node(d, "runtime")
    del r["minProperties"]
    del r["maxProperties"]


EDITS: dict[str, Edit] = {
    "member-removed": member_removed,
    "value-renamed": value_renamed,
    "discriminator-required": discriminator_required,
    "new-required-field": new_required_field,
    "exactly-one-dropped": exactly_one_dropped,
}


def head(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = yaml.safe_load(CRD.read_text(encoding="utf-8"))
    EDITS[name](doc)
    return doc
