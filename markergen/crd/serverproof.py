"""The proof by the project's own API server (`markergen crd --server`, `check --server`).

After the patcher has made the new text of each CRD file, every CRD it changed is created
on the envtest control plane twice, as the project has it and as markergen would write it
(each under a group of its own, `markergen.envtest.client`), and every object the project
keeps of that kind is dry-run against both. What the server says comes back to the
patcher as a `ServerVerdicts`, which it applies on a second pass:

- a CRD the server refuses is not written; each union of that file is reported at its
  marker with the server's message (MG515);
- a kept object that the project's CRD accepts and markergen's rejects names the rule in
  the server's message (markergen's messages end with `(union Struct.field)`): that rule
  is withheld, reported as MG510 with the server's words, as the CEL reproduction does;
- a kept object the project's own CRD already rejects is no evidence against a rule: it
  is counted, not reported.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markergen.envtest.assets import Assets
from markergen.envtest.client import Client, Installed, Refused
from markergen.envtest.controlplane import ControlPlane, StartError
from markergen.project.samples import SampleObject, values_at
from markergen.yamlio import YamlError, YamlReader

# markergen's rule messages end with the union's label; the server quotes the message
_RULE_MESSAGE = re.compile(r"[^:\n]*? \(union [^()]*\)")


@dataclass(frozen=True)
class ServerVerdicts:
    """What the server decided, keyed the way the patcher can ask."""

    server: str = "the API server"  # how messages name it
    # the CRD file (as diagnostics show it) -> the server's refusal of a CRD in it
    refused: Mapping[str, str] = field(default_factory=dict)
    # one of markergen's rule messages -> (the object, "Kind at file:line"; the server's words)
    rejects: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    objects: int = 0  # objects dry-run
    own_rejections: int = 0  # kept objects the project's own CRD rejects too
    own_refusals: int = 0  # CRDs the server refuses as the project has them
    crds: int = 0  # CRDs created

    def merged(self, other: ServerVerdicts) -> ServerVerdicts:
        return ServerVerdicts(
            server=self.server,
            refused={**self.refused, **other.refused},
            rejects={**self.rejects, **other.rejects},
            objects=self.objects + other.objects,
            own_rejections=self.own_rejections + other.own_rejections,
            own_refusals=self.own_refusals + other.own_refusals,
            crds=self.crds + other.crds,
        )

    @property
    def empty(self) -> bool:
        return not self.refused and not self.rejects


def _crds(text: str, reader: YamlReader) -> dict[str, dict[str, Any]]:
    """The CRDs of a file's text by name."""
    out: dict[str, dict[str, Any]] = {}
    try:
        docs = reader.documents(text)
    except YamlError:
        return out
    for doc in docs:
        value = doc.value
        if (
            isinstance(value, dict)
            and value.get("kind") == "CustomResourceDefinition"
            and isinstance(value.get("spec"), dict)
        ):
            meta = value.get("metadata") or {}
            out[str(meta.get("name", ""))] = value
    return out


_CHILDREN = ("properties", "items", "additionalProperties")


def _changed_nodes(old: Any, new: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The schema nodes (paths below openAPIV3Schema) whose own keys differ between the
    project's CRD version and markergen's: where markergen added rules or an enum."""
    if not isinstance(new, dict):
        return []
    old = old if isinstance(old, dict) else {}
    own = {k: v for k, v in new.items() if k not in _CHILDREN}
    before = {k: v for k, v in old.items() if k not in _CHILDREN}
    out = [path] if own != before else []
    props = new.get("properties")
    if isinstance(props, dict):
        for name, node in props.items():
            out += _changed_nodes(
                (old.get("properties") or {}).get(name), node, (*path, "properties", str(name))
            )
    for key in ("items", "additionalProperties"):
        if isinstance(new.get(key), dict):
            out += _changed_nodes(old.get(key), new[key], (*path, key))
    return out


def _reached(
    crd: Mapping[str, Any], old: Mapping[str, Any] | None
) -> dict[str, list[tuple[str, ...]]]:
    """Per version name, the changed nodes (all of a version the project's CRD lacks)."""

    def schemas(doc: Mapping[str, Any] | None) -> dict[str, Any]:
        versions = ((doc or {}).get("spec") or {}).get("versions") or []
        return {
            str(v.get("name")): ((v.get("schema") or {}).get("openAPIV3Schema"))
            for v in versions
            if isinstance(v, dict)
        }

    before = schemas(old)
    return {
        name: [()] if name not in before else _changed_nodes(before[name], schema)
        for name, schema in schemas(crd).items()
    }


def _touches(obj: Mapping[str, Any], nodes: Sequence[tuple[str, ...]]) -> bool:
    """Whether the object has a part at one of the nodes: only there can a rule or an
    enum markergen adds reject it, so only such an object is worth a round trip."""
    return any(next(values_at(obj, node), None) is not None for node in nodes)


def judge(
    client: Client,
    changed: Mapping[Path, str],
    originals: Mapping[Path, str],
    display: Callable[[Path], str],
    samples: Sequence[SampleObject],
    reader: YamlReader | None = None,
) -> ServerVerdicts:
    """Create each changed CRD as the project has it (`originals`, the texts the patcher
    read) and as markergen would write it, and dry-run the project's objects of its kind
    against both. `reader`: the run's reading of the YAML, which has the originals."""
    reader = reader if reader is not None else YamlReader()
    refused: dict[str, str] = {}
    rejects: dict[str, tuple[str, str]] = {}
    objects = own = crds = own_refused = 0
    by_kind: dict[tuple[str, str], list[SampleObject]] = {}
    for o in samples:
        by_kind.setdefault((o.group, o.kind), []).append(o)
    # Copies of one CRD (a chart's, openshift's payload manifests) and repeated objects
    # (test suites) are judged once: the same pair of CRDs, the same object, the same answer.
    seen_pairs: set[str] = set()
    for path, new_text in changed.items():
        old = _crds(originals.get(path, ""), reader)
        for name, crd in _crds(new_text, reader).items():
            pair = json.dumps([crd, old.get(name)], sort_keys=True, default=str)
            if pair in seen_pairs:
                continue
            seen_pairs.add(pair)
            seen_objects: set[str] = set()
            spec = crd["spec"]
            kind = str((spec.get("names") or {}).get("kind", ""))
            try:
                ours = client.install(crd)
            except Refused as e:
                if name in old and _refuses(client, old[name]):
                    own_refused += 1  # the server refuses the project's CRD as it is
                else:
                    refused.setdefault(display(path), e.message)
                continue
            crds += 1
            theirs: Installed | None = None
            changed_at = _reached(crd, old.get(name))
            try:
                for obj in by_kind.get((str(spec.get("group", "")), kind), []):
                    api_version = str(obj.value.get("apiVersion", ""))
                    version = api_version.rsplit("/", 1)[-1]
                    nodes = changed_at.get(version, [()])
                    if not _touches(obj.value, nodes):
                        continue
                    shape = json.dumps(obj.value, sort_keys=True, default=str)
                    if shape in seen_objects:
                        continue
                    seen_objects.add(shape)
                    objects += 1
                    verdict = ours.dry_run(obj.value)
                    if verdict.accepted:
                        continue
                    if theirs is None and name in old:
                        try:
                            theirs = client.install(old[name])
                            crds += 1
                        except Refused:
                            old.pop(name)
                    if theirs is not None and not theirs.dry_run(obj.value).accepted:
                        own += 1
                        continue
                    where = f"{obj.kind} at {obj.file}:{obj.line}"
                    for message in _RULE_MESSAGE.findall(verdict.message):
                        rejects.setdefault(message.strip(), (where, verdict.message))
            finally:
                ours.delete()
                if theirs is not None:
                    theirs.delete()
    return ServerVerdicts(
        refused=refused,
        rejects=rejects,
        objects=objects,
        own_rejections=own,
        own_refusals=own_refused,
        crds=crds,
    )


def _refuses(client: Client, crd: Mapping[str, Any]) -> bool:
    try:
        client.install(crd).delete()
    except Refused:
        return True
    return False


@dataclass
class ServerStep:
    """The project's API server for `patch_files`: its name for messages, how to ask it,
    and, after the run, everything it said."""

    name: str
    # (the new texts, the texts as read, how a file is shown, the kept objects)
    judge: Callable[
        [
            Mapping[Path, str],
            Mapping[Path, str],
            Callable[[Path], str],
            Sequence[SampleObject],
        ],
        ServerVerdicts,
    ]
    verdicts: ServerVerdicts | None = None


class ProjectServer:
    """The project's envtest control plane for one run: started when the first CRD is to
    be judged (a run with nothing to patch starts nothing), stopped by `close()`."""

    def __init__(self, assets: Assets, reader: YamlReader | None = None) -> None:
        self.assets = assets
        self.reader = reader
        self.seconds = 0.0
        self._plane: ControlPlane | None = None
        self.step = ServerStep(f"the API server of {assets.describe()}", self._judge)

    def _judge(
        self,
        changed: Mapping[Path, str],
        originals: Mapping[Path, str],
        display: Callable[[Path], str],
        samples: Sequence[SampleObject],
    ) -> ServerVerdicts:
        start = time.monotonic()
        try:
            if not changed:
                return ServerVerdicts()
            if self._plane is None:
                try:
                    self._plane = ControlPlane(self.assets)
                except StartError as e:
                    raise ServerUnavailable(f"{self.assets.describe()} did not start: {e}") from e
            return judge(self._plane.client, changed, originals, display, samples, self.reader)
        finally:
            self.seconds += time.monotonic() - start

    def close(self) -> None:
        if self._plane is not None:
            self._plane.stop()
            self._plane = None

    def summary(self) -> str:
        said = self.step.verdicts
        if said is None or (self._plane is None and not said.crds):
            return f"{self.assets.describe()}: nothing to prove"
        parts = [
            f"{said.crds} CRD(s) created",
            f"{said.objects} kept object(s) dry-run",
        ]
        if said.own_rejections:
            parts.append(f"{said.own_rejections} rejected by the project's own CRD too")
        if said.own_refusals:
            parts.append(f"{said.own_refusals} CRD(s) the server refuses as the project has them")
        return f"{self.assets.describe()}: {', '.join(parts)} in {self.seconds:.1f} s"


class ServerUnavailable(Exception):
    """The envtest binaries were found but did not start."""
