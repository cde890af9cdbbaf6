"""A content-keyed cache of whole `markergen crd` runs, for `make generate`.

controller-gen writes fresh CRDs on every run; when they, the Go sources, the sample
objects, the Makefile and markergen itself are byte-identical to an earlier run, the
patched texts and diagnostics of that run are reused and no YAML is parsed. Entries live
in markergen's cache directory (`markergen.cache.cache_dir`), one JSON file per key.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from markergen.cache import cache_dir, code_fingerprint, write_atomically
from markergen.diagnostics import Diagnostic

_SKIP = frozenset({"vendor", "node_modules", "testdata"})
SUBDIR = "crd"


def _go_files(root: Path) -> Iterable[Path]:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in _SKIP)
        for name in sorted(filenames):
            if name.endswith(".go") or name in ("go.mod", "markergen.yaml"):
                yield Path(dirpath) / name


def run_key(
    root: Path,
    crd_files: Sequence[Path],
    other_files: Sequence[Path],
    options: Any,
    read: Callable[[Path], bytes] = Path.read_bytes,
) -> str:
    """The hash of everything a run reads: markergen's code, the options, every Go file of
    the project (a superset of the packages read), the CRDs and the other inputs (`read`:
    the run's reading of a CRD or object file, which the run reads again only from it)."""
    digest = hashlib.sha256()
    digest.update(code_fingerprint().encode())
    digest.update(json.dumps(options, sort_keys=True, default=str).encode())
    groups = ((_go_files(root), Path.read_bytes), (crd_files, read), (other_files, read))
    for group, reading in groups:
        digest.update(b"\1")
        for path in list(group):
            digest.update(str(path).encode() + b"\0")
            try:
                digest.update(hashlib.sha256(reading(path)).digest())
            except OSError:
                digest.update(b"\2missing")
    return digest.hexdigest()


def _entry(root: Path, key: str) -> Path:
    return cache_dir(root) / SUBDIR / f"{key}.json"


def load(root: Path, key: str) -> tuple[dict[Path, str], list[Diagnostic], str] | None:
    """(patched texts, diagnostics, the run's inputs summary) of an earlier run."""
    try:
        raw = json.loads(_entry(root, key).read_text(encoding="utf-8"))
        outputs = {Path(p): str(t) for p, t in raw["outputs"].items()}
        diagnostics = [Diagnostic.from_record(d) for d in raw["diagnostics"]]
        summary = str(raw["summary"])
    except (OSError, ValueError, KeyError, TypeError):
        return None  # absent or damaged: recompute
    return outputs, diagnostics, summary


def store(
    root: Path,
    key: str,
    outputs: dict[Path, str],
    diagnostics: Sequence[Diagnostic],
    summary: str = "",
) -> None:
    data = {
        "outputs": {str(p): t for p, t in outputs.items()},
        "diagnostics": [d.to_record() for d in diagnostics],
        "summary": summary,
    }
    # A read-only cache directory only costs speed.
    write_atomically(_entry(root, key), json.dumps(data, ensure_ascii=False).encode("utf-8"))
