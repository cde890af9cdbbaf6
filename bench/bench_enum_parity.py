"""Enum values, openapi-gen against markergen, on the kubernetes/api packages.

Usage: python bench/bench_enum_parity.py API_DIR APIMACHINERY_DIR [--gocode DIR]

Runs openapi-gen (GOPATH mode, as bench_openapigen.py does) on every types.go package
of API_DIR but core/v1, reads the `Enum: []interface{}{...}` lists of each generated
`schema_*` function, and compares them, definition by definition (as a sorted list of
sorted value lists), with the `enum` lists anywhere in markergen's openapi-v2.json
definition of the same type. Prints the definitions compared, the enum lists found by
each tool and every definition where they differ. Nothing is fetched.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_openapigen import find_packages, run_openapi_gen

FUNC = re.compile(r"^func (schema_\w+)\(", re.MULTILINE)
ENUM = re.compile(r"Enum:\s*\[\]interface\{\}\{([^}]*)\}")


def _key(name: str) -> str:
    return re.sub(r"[^0-9A-Za-z]", "", name).lower()


def theirs(generated: str) -> dict[str, list[list[Any]]]:
    out: dict[str, list[list[Any]]] = {}
    starts = [(m.start(), m.group(1)) for m in FUNC.finditer(generated)]
    for (start, name), (end, _) in zip(starts, [*starts[1:], (len(generated), "")], strict=True):
        body = generated[start:end]
        # Deduplicated: the 2021 openapi-gen repeats a value per constant holding it
        # (docs/parity.md, "Version differences"); current openapi-gen does not.
        lists = [sorted(set(json.loads(f"[{m.group(1)}]")), key=json.dumps)
                 for m in ENUM.finditer(body)]
        if lists:
            out[_key(name[len("schema_"):])] = sorted(lists, key=json.dumps)
    return out


def _enums(schema: Any, found: list[list[Any]]) -> None:
    if isinstance(schema, dict):
        if isinstance(schema.get("enum"), list):
            found.append(sorted(schema["enum"], key=json.dumps))
        for v in schema.values():
            _enums(v, found)
    elif isinstance(schema, list):
        for v in schema:
            _enums(v, found)


def ours(api: Path, packages: list[str]) -> dict[str, list[list[Any]]]:
    from markergen.emit.options import EmitOptions
    from markergen.emit.outputs import render_outputs
    from markergen.pipeline import load_model

    model = load_model([f"./{p}" for p in packages], api.resolve())
    defs = json.loads(render_outputs(model, EmitOptions())["openapi-v2.json"])["definitions"]
    out: dict[str, list[list[Any]]] = {}
    for name, schema in defs.items():
        found: list[list[Any]] = []
        _enums(schema, found)
        parts = name.split(".")
        # io.k8s.api.discovery.v1.EndpointSlice -> k8s.io/api/discovery/v1.EndpointSlice
        go_name = ".".join(reversed(parts[:2])) + "/" + "/".join(parts[2:-1]) + "." + parts[-1]
        if found:
            out[_key(go_name)] = sorted(found, key=json.dumps)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("api", type=Path)
    ap.add_argument("apimachinery", type=Path)
    ap.add_argument("--gocode", type=Path, default=Path("/usr/share/gocode"))
    args = ap.parse_args(argv)
    packages = find_packages(args.api)
    with tempfile.TemporaryDirectory(prefix="bench-enums-") as tmp:
        run_openapi_gen(args.api, args.apimachinery, args.gocode, packages, Path(tmp))
        generated = Path(tmp) / "gopath/src/k8s.io/zz_bench/openapi/openapi_generated.go"
        og = theirs(generated.read_text())
    mg = ours(args.api, packages)
    print(f"packages: {len(packages)}")
    print(f"definitions with enums: openapi-gen {len(og)}, markergen {len(mg)}; "
          f"enum lists: openapi-gen {sum(map(len, og.values()))}, "
          f"markergen {sum(map(len, mg.values()))}")
    # Every enum openapi-gen lists must be in markergen's definition with the same
    # values; markergen may list more (enums the 2021 openapi-gen does not follow).
    differ = sorted(k for k in og if any(v not in mg.get(k, []) for v in og[k]))
    extra = sorted(k for k in mg if mg[k] != og.get(k))
    for k in differ:
        print(f"DIFFERENT {k}:\n  openapi-gen {og[k]}\n  markergen   {mg.get(k)}")
    for k in extra:
        print(f"MORE IN MARKERGEN {k}: {mg[k]} (openapi-gen: {og.get(k, [])})")
    for k in sorted(k for k in og if "endpointslice" in k):
        print(f"{k}: openapi-gen {og[k]}, markergen {mg.get(k)}")
    print(f"definitions where an openapi-gen enum differs: {len(differ)}; "
          f"with more enums in markergen: {len(extra)}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
