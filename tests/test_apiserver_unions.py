"""Every union of every fixture project, judged by the real API server: the objects of
`unionspace.exhaustive` (no member, each member, each pair, the discriminator with each
value and each member, nulls) are dry-run against the CRD `markergen crd` patched, and
`markergen validate`'s verdict (the runtime library the command calls, on the table
`markergen generate` wrote) must be the same, naming the same fields.

How the server names a field (docs/testing.md, "Server-judged union tests"): an
OpenAPI error (enum, required) and a CEL rule with `fieldPath` are reported at the field;
a CEL rule without `fieldPath` (the count rules of undiscriminated unions) at the
union's object, the parent of the members markergen names. A list-map item is `[0]` for
the server and `[name=x]` for markergen (`unionspace.server_path`).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import kubeserver
import pytest
import unionspace
import yaml

from markergen.runtime import FieldError

# The server's cause (no field) when an OpenAPI error (required, enum, type) kept it
# from evaluating the CEL rules (apiextensions-apiserver's hasBlockingErr).
_NOT_CHECKED = "some validation rules were not checked because the object was invalid"


@dataclass(frozen=True)
class Judged:
    site: str
    label: str
    obj: dict[str, Any]
    server: kubeserver.Verdict
    runtime: tuple[FieldError, ...]

    def disagreement(self) -> str | None:
        """What differs between the two verdicts, or None when they agree: the verdict,
        or a field the server names that markergen does not (markergen may name more: the
        server checks no CEL rule of an object with an OpenAPI error, and a rule
        `markergen crd` leaves out as implied by another is not reported by the server)."""
        if self.server.accepted != (not self.runtime):
            return "verdict"
        if self.server.accepted:
            return None
        runtime_paths = {unionspace.server_path(e.path, self.obj) for e in self.runtime}
        named = {c.field for c in self.server.causes if _NOT_CHECKED not in c.message}
        unnamed = {f for f in named if not any(_names(f, r) for r in runtime_paths)}
        if unnamed:
            return f"fields the server names and markergen does not: {sorted(unnamed)}"
        return None

    def describe(self) -> str:
        return (
            f"{self.site} [{self.label}] {self.disagreement()}\n"
            f"  object: {json.dumps(self.obj.get('spec'), sort_keys=True)}\n"
            f"  server: {'accepted' if self.server.accepted else self.server.message}\n"
            f"  markergen: {[str(e) for e in self.runtime] or 'accepted'}"
        )


# Unions where the CRD on the server enforces something else than the Go types' union
# markers, and the code markergen reports it with: the runtime follows the markers.
# "laxer": only objects the server accepts and the runtime rejects (a rule markergen
# withheld); "stricter": only objects the server rejects and the runtime accepts (a
# project's own rule); "stale": a CRD generated from other Go, differences either way.
KNOWN: dict[str, dict[str, tuple[str, str]]] = {
    # hand-written rules allow policy=Collect with no member: markergen writes no rule
    "fleetnet": {
        "Uplink/v1:spec.collector:Collector.policy": ("MG508", "laxer"),
        # the project's own test suite keeps mode=TLS without tls: rule withheld
        "Uplink/v1:spec.endpoint:Endpoint.mode": ("MG510", "laxer"),
        # the project's own rule on the discriminator (`self in ['S3', 'GCS']`) is its
        # enum; markergen reads no enum from a rule, and says nothing (no code)
        "Uplink/v1:spec.storage:Storage.type": ("", "stricter"),
    },
    # the CRD's default of `type` is Image, the Go's +kubebuilder:default is HTTP
    "enumcrd": {"Proxy/v1:spec.source:Source.type": ("MG521", "stale")},
}


def _dotted(path: str) -> str:
    """A map value's key as `.key`: the server's OpenAPI errors write `spec.m.k.f`, its
    CEL errors `spec.m[k].f`, markergen `spec.m[k].f`; list indexes stay `[0]`."""
    return re.sub(r"\[([^\]\d][^\]]*)\]", r".\1", path)


def _names(server_field: str, runtime_path: str) -> bool:
    """Whether the server's cause field names markergen's error path: the same field, or
    the union's object when the server's rule has no fieldPath."""
    server_field, runtime_path = _dotted(server_field), _dotted(runtime_path)
    if server_field == runtime_path:
        return True
    parent = runtime_path.rsplit(".", 1)[0] if "." in runtime_path else ""
    return server_field == parent


def judge(
    project: unionspace.Project, handle: kubeserver.Installed, site: unionspace.Site,
    label: str, overlay: dict[str, Any],
) -> Judged:  # fmt: skip
    obj = unionspace.build(project.table, [(site, overlay)])
    verdict = handle.dry_run(obj)
    errors = unionspace.runtime_errors(project.table, site, obj)
    return Judged(site.label(project.table), label, obj, verdict, tuple(errors))


class Prepared:
    """The fixture projects patched and their CRDs installed, each once, when first used."""

    def __init__(self, kube: kubeserver.Server, dest: Path) -> None:
        self._kube = kube
        self._dest = dest
        self._projects: dict[str, unionspace.Project] = {}
        self.handles: dict[int, kubeserver.Installed] = {}

    def __getitem__(self, name: str) -> unionspace.Project:
        if name not in self._projects:
            project = unionspace.prepare(name, self._dest)
            for crd in project.crds:
                self.handles[id(crd)] = self._kube.install(crd.value)
            self._projects[name] = project
        return self._projects[name]


@pytest.fixture(scope="module")
def prepared(
    kube: kubeserver.Server, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Prepared]:
    p = Prepared(kube, tmp_path_factory.mktemp("unions"))
    yield p
    for h in p.handles.values():
        h.delete()


@pytest.mark.parametrize("name", sorted(unionspace.PROJECTS))
def test_server_and_runtime_agree_on_every_union_object(
    name: str,
    prepared: Prepared,
) -> None:
    project = prepared[name]
    sites = unionspace.sites(project)
    assert sites, f"{name}: no union reached from its patched CRDs"
    judged: list[Judged] = []
    for site in sites:
        handle = prepared.handles[id(site.crd)]
        these = [judge(project, handle, site, label, overlay)
                 for label, overlay in unionspace.exhaustive(site, project.table)]  # fmt: skip
        # Every site has objects both sides accept and objects both reject, or its
        # objects test nothing (a base the schema refuses for another reason).
        assert any(j.server.accepted for j in these), these[0].describe()
        assert any(not j.server.accepted for j in these), these[0].describe()
        judged.extend(these)
    bad = [j for j in judged if j.disagreement() is not None]
    print(f"{name}: {len(sites)} union sites, {len(judged)} objects, {len(bad)} disagreements")
    for site, (code, kind) in KNOWN.get(name, {}).items():
        # markergen says so itself, and the exception is still needed
        assert code in project.crd_stderr + project.check_stdout, (site, code)
        mine = [j for j in bad if j.site == site]
        assert mine, f"{site}: no disagreement left: remove it from KNOWN"
        assert kind == "stale" or all(
            j.disagreement() == "verdict" and j.server.accepted == (kind == "laxer")
            for j in mine), (
            "\n".join(j.describe() for j in mine))  # fmt: skip
    bad = [j for j in bad if j.site not in KNOWN.get(name, {})]
    assert not bad, f"{len(bad)} of {len(judged)} objects:\n" + "\n".join(j.describe() for j in bad)


def test_the_command_line_gives_the_library_verdict(
    prepared: Prepared,
    tmp_path: Path,
) -> None:
    """The real `markergen validate` on a sample of the objects: the same lines as the
    library, the exit code the server's verdict implies."""
    project = prepared["example"]
    checked = 0
    for site in unionspace.sites(project):
        for label, overlay in list(unionspace.exhaustive(site, project.table))[:6]:
            j = judge(project, prepared.handles[id(site.crd)], site, label, overlay)
            path = tmp_path / f"o{checked}.yaml"
            path.write_text(yaml.safe_dump(j.obj))
            out = subprocess.run(
                [sys.executable, "-m", "markergen", "validate", "--type", site.root_type,
                 "--table", str(project.table_path), str(path)],
                cwd=project.root, capture_output=True, text=True, check=False,
            )  # fmt: skip
            assert out.returncode == (0 if j.server.accepted else 1), (out, j.describe())
            assert out.stdout.splitlines() == [str(e) for e in j.runtime], out.stderr
            checked += 1
    assert checked >= 20
