"""crdify (kubernetes-sigs/crdify, pinned in harness/crdify/go.mod) run as a peer of
`markergen diff`: one CRD file against another, its JSON report read into findings.

Used by tests/test_apiserver_crdchecks.py and bench/bench_crdify.py.
"""

from __future__ import annotations

import json
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True, slots=True)
class PeerFinding:
    """One error or warning of crdify."""

    check: str  # crdify's validation name ("enum", "unhandled", ...)
    version: str  # "" for a whole-CRD check; "v1" within a version; "v1 -> v2" across
    property: str  # crdify's path ("^.spec.size"); "" for a whole-CRD check
    level: str  # "error" or "warning"
    message: str

    @property
    def across(self) -> bool:
        return "->" in self.version


@dataclass(frozen=True, slots=True)
class PeerRun:
    findings: tuple[PeerFinding, ...]
    exit_code: int
    seconds: float

    def checks(self) -> set[str]:
        return {f.check for f in self.findings}


def _results(rows: list[dict[str, Any]] | None, version: str, prop: str) -> list[PeerFinding]:
    out = []
    for r in rows or ():
        for level, key in (("error", "errors"), ("warning", "warnings")):
            for msg in r.get(key) or ():
                out.append(PeerFinding(str(r["name"]), version, prop, level, str(msg)))
    return out


def parse(report: dict[str, Any]) -> tuple[PeerFinding, ...]:
    """crdify v0.5.0's `-o json` report as findings: `crdValidation` a list of results,
    the version validations a map of version (or `v1 -> v2`) to property to results."""
    out = _results(report.get("crdValidation"), "", "")
    for key in ("sameVersionValidation", "servedVersionValidation"):
        for version, props in (report.get(key) or {}).items():
            for prop, rows in (props or {}).items():
                out += _results(rows, str(version), str(prop))
    return tuple(out)


def run(binary: Path, base: Path, head: Path, config: Path | None = None) -> PeerRun:
    """crdify BASE HEAD; its exit code is 1 when it found an error."""
    args = [str(binary), f"file://{base.resolve()}", f"file://{head.resolve()}", "-o", "json"]
    if config is not None:
        args += ["--config", str(config)]
    start = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True, check=False, timeout=600)
    seconds = time.perf_counter() - start
    if proc.returncode not in (0, 1) or not proc.stdout.strip():
        raise RuntimeError(f"crdify failed ({proc.returncode}): {proc.stderr.strip()}")
    return PeerRun(parse(json.loads(proc.stdout)), proc.returncode, seconds)
