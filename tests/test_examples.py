"""The example templates of docs/examples/, run by `markergen generate` on the example
kubebuilder project (testdata/example):

- json-schema/schema.json.j2: a valid JSON Schema 2020-12 that accepts the project's
  sample object and rejects objects with a union error; on every combination of
  discriminator values and members of each union type it agrees with markergen's runtime
  (`validate`), except where the OpenAPI `required` list speaks (the runtime checks
  unions and enums only);
- typescript/types.ts.j2: the real TypeScript compiler (from npm) accepts the generated
  file with a client file that uses it (and whose `@ts-expect-error` lines must fail),
  and rejects a file that sets the wrong member.

TypeScript comes from npm: `npm install --prefix .tools/typescript typescript@5`
(hack/test-tools.sh, which README's test command runs, does it; `.tools/` is ignored by
git), or `tsc` on PATH, or `$MARKERGEN_TSC`. The test skips only when node and npm are absent; with node present and no compiler, it fails
and says how to install it.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import REPO, TESTDATA, run_cli
from jsonschema import Draft202012Validator

from markergen.runtime import Table, validate

EXAMPLES = REPO / "docs" / "examples"
TSC_DIR = REPO / ".tools" / "typescript"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = tmp_path_factory.mktemp("examples") / "example"
    shutil.copytree(TESTDATA / "example", project)
    templates = project / "hack" / "templates"
    templates.mkdir(parents=True)
    shutil.copy(EXAMPLES / "json-schema" / "schema.json.j2", templates)
    shutil.copy(EXAMPLES / "typescript" / "types.ts.j2", templates)
    (project / "markergen.yaml").write_text("templates: hack/templates\n")
    res = run_cli(["generate"], project)
    assert res.code == 0, res.stderr
    return project / "openapi"


# ---------------------------------------------------------------------------------------
# JSON Schema

GUESTBOOK = "com.example.guestbook.api.v1.Guestbook"


def _schema(out: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((out / "schema.json").read_text())
    return doc


def test_json_schema_is_a_valid_2020_12_schema(generated: Path) -> None:
    doc = _schema(generated)
    assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(doc)
    assert "#/components/" not in (generated / "schema.json").read_text()


SAMPLE = """\
apiVersion: webapp.example.com/v1
kind: Guestbook
metadata:
  name: guestbook-sample
spec:
  delivery:
    method: Email
    email:
      address: entries@example.com
  storage:
    backend: S3
    s3:
      name: guestbook-entries
    cache: Memory
  frontend:
    exposure: Ingress
    ingress:
      host: guestbook.example.com
  notifications:
    - name: ops
      channel: Slack
      slack: "#ops"
  retention:
    policy: Days
    days: 30
  schedules:
    nightly:
      kind: Cron
      cron: "0 3 * * *"
  backup:
    namespace: archive
"""


def test_json_schema_accepts_the_sample_and_rejects_union_errors(generated: Path) -> None:
    validator = Draft202012Validator(_schema(generated))
    sample = yaml.safe_load(SAMPLE)
    assert list(validator.iter_errors(sample)) == []
    spec = sample["spec"]
    bad = [
        {**spec, "delivery": {"method": "Email"}},  # its member is missing
        {**spec, "delivery": {"method": "Manual", "email": {"address": "a@b"}}},  # not its value
        {**spec, "storage": {"backend": "S3", "s3": {"name": "b"}, "gcs": {"name": "c"}}},
        {**spec, "backup": {"namespace": "a", "pvc-name": "b"}},  # at most one
        {**spec, "delivery": {"method": "Carrier pigeon"}},  # not a value of the enum
    ]
    for spec_value in bad:
        errors = list(validator.iter_errors({**sample, "spec": spec_value}))
        assert errors, spec_value


def _minimal(schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    """The smallest value a schema accepts (required properties only)."""
    if "$ref" in schema:
        return _minimal(defs[schema["$ref"].rsplit("/", 1)[1]], defs)
    if "allOf" in schema:
        return _minimal(schema["allOf"][0], defs)
    if "oneOf" in schema:
        return _minimal(schema["oneOf"][0], defs)
    if "enum" in schema:
        return schema["enum"][-1]
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        return {k: _minimal(props[k], defs) for k in schema.get("required", [])}
    return {"array": [], "string": "x", "integer": 1, "number": 1, "boolean": True}.get(
        str(kind), {}
    )


def test_json_schema_agrees_with_the_runtime_on_every_union(generated: Path) -> None:
    doc = _schema(generated)
    defs = doc["$defs"]
    table = Table.load(generated / "unions_table.json")
    raw = json.loads((generated / "unions_table.json").read_text())
    compared = 0
    for name, entry in raw["types"].items():
        unions = [u for u in entry["unions"] if not u.get("at")]
        if not unions:
            continue
        own = defs[name]["allOf"][0]
        props, required = own.get("properties", {}), set(own.get("required", []))
        validator = Draft202012Validator({"$defs": defs, "$ref": f"#/$defs/{name}"})
        members = sorted({m["field"] for u in unions for m in u["members"]})
        discs = sorted({u["discriminator"] for u in unions if u["discriminator"]})
        choices = [
            [None, *sorted({v for u in unions if u["discriminator"] == d
                            for v in [*u["values"], *(m["value"] for m in u["members"])]})]
            for d in discs
        ]  # fmt: skip
        base = {k: v for k, v in _minimal(own, defs).items() if k not in members + discs}
        for values in itertools.product(*choices):
            for n in range(len(members) + 1):
                for chosen in itertools.combinations(members, n):
                    obj = dict(base)
                    obj.update({d: v for d, v in zip(discs, values, strict=True) if v is not None})
                    obj.update({f: _minimal(props[f], defs) for f in chosen})
                    if any(d not in obj for d in discs if d in required):
                        continue  # OpenAPI's `required`, which the runtime leaves alone
                    ours = validator.is_valid(obj)
                    runtime = not validate(table, name, obj)
                    assert ours == runtime, (name, obj)
                    compared += 1
    assert compared == 200  # every combination of the eight union types


# ---------------------------------------------------------------------------------------
# TypeScript

GOOD = """\
import type { Delivery, Guestbook, Storage, BackupTarget, Retention } from "./types";

export const email: Delivery = { method: "Email", email: { address: "a@example.com" } };
export const manual: Delivery = { method: "Manual" };
export const webhook: Delivery = { method: "Webhook" };  // an optional member
export const storage: Storage = {
  backend: "S3", s3: { name: "entries" }, cache: "Redis", redis: { address: "r:6379" },
};
export const noCache: Storage = { backend: "GCS", gcs: { name: "entries" } };
export const backup: BackupTarget = { namespace: "archive" };
export const retention: Retention = { policy: "Days", days: 7 };
export const book: Guestbook = {
  apiVersion: "webapp.example.com/v1", kind: "Guestbook",
  spec: { delivery: email, storage, backup },
};

// @ts-expect-error: Email needs its member
export const missing: Delivery = { method: "Email" };
// @ts-expect-error: Manual selects no member
export const extra: Delivery = { method: "Manual", email: { address: "a@example.com" } };
// @ts-expect-error: not a value of the discriminator
export const unknownValue: Delivery = { method: "Pigeon" };
// @ts-expect-error: at most one target
export const two: BackupTarget = { namespace: "a", "pvc-name": "b" };

export function describe(d: Delivery): string {
  switch (d.method) {
    case "Email":
      return d.email.address;  // narrowed: email is set
    case "Webhook":
      return d.webhook?.url ?? "default";
    case "Manual":
      return "manual";
  }
}
"""

BAD = """\
import type { Storage } from "./types";

export const wrong: Storage = { backend: "S3", gcs: { name: "entries" } };
"""


def _tsc() -> list[str]:
    given = os.environ.get("MARKERGEN_TSC")
    if given:
        return [given]
    local = TSC_DIR / "node_modules" / ".bin" / "tsc"
    if local.is_file():
        return [str(local)]
    on_path = shutil.which("tsc")
    if on_path:
        return [on_path]
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip(
            "SKIPPED LOUDLY: node and npm are not installed, so the TypeScript example "
            "cannot be compiled: install Debian's nodejs and npm, then run hack/test-tools.sh "
            "(npm install --prefix .tools/typescript typescript@5)"
        )
    pytest.fail(
        "node is installed but the TypeScript compiler is not: run `npm install --prefix "
        ".tools/typescript typescript@5` in the repository (hack/test-tools.sh does)"
    )


def _compile(tmp: Path, out: Path, client: str) -> subprocess.CompletedProcess[str]:
    shutil.copy(out / "types.ts", tmp / "types.ts")
    (tmp / "client.ts").write_text(client)
    return subprocess.run(
        [*_tsc(), "--noEmit", "--strict", "--target", "es2020", "--module", "es2020",
         "--moduleResolution", "bundler", "types.ts", "client.ts"],
        cwd=tmp, capture_output=True, text=True, timeout=240, check=False,
    )  # fmt: skip


def test_typescript_types_compile_with_a_client(generated: Path, tmp_path: Path) -> None:
    proc = _compile(tmp_path, generated, GOOD)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_typescript_rejects_the_wrong_member(generated: Path, tmp_path: Path) -> None:
    proc = _compile(tmp_path, generated, BAD)
    assert proc.returncode != 0
    assert "client.ts(3," in proc.stdout and "gcs" in proc.stdout, proc.stdout
