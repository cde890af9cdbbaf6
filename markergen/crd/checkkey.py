"""What `markergen check` reads besides the Go files in a project with CRDs, as one
digest for its cache key: the CRD files (MG520, MG521), the project's sample objects
(MG511) and the Makefiles that name the CRD directories. Kept apart from the CRD
modules so that a warm `check` imports no YAML patcher, CEL engine or renderer.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path

from markergen.cache import file_digests
from markergen.project.outputs import MAKEFILES
from markergen.project.samples import sample_files


def _yaml_files(dirs: Sequence[Path]) -> list[str]:
    """The YAML files directly inside `dirs` (as `markergen.crd.patch.crd_files` reads
    them), as paths."""
    out: list[str] = []
    for d in dirs:
        if d.is_dir():
            out.extend(str(c) for c in d.iterdir() if c.is_file() and c.suffix in (".yaml", ".yml"))
        elif d.is_file():
            out.append(str(d))
    return out


def check_inputs_digest(
    root: Path,
    dirs: Sequence[Path],
    include: Sequence[str],
    exclude: Sequence[str],
    read: Callable[[Path], bytes] | None = None,
) -> str:
    """The SHA-256 over the paths and contents of the CRD files in `dirs`, the sample
    object files (`include` / `exclude` as `samples:` of markergen.yaml) and the
    Makefiles of `root`. `read`: the run's reading of the CRD and sample files
    (markergen.yamlio.YamlReader.data), so that a cold run reads each of them once."""
    yaml_paths = [*_yaml_files(dirs), *(str(p) for p in sample_files(root, include, exclude))]
    makefiles = [str(root / m) for m in MAKEFILES]
    if read is None:
        digests = file_digests([*yaml_paths, *makefiles])
    else:
        digests = tuple(sorted((*_digests(yaml_paths, read), *file_digests(makefiles))))
    digest = hashlib.sha256()
    for path, sha in digests:
        digest.update(f"{path}\0{sha}\n".encode())
    return digest.hexdigest()


def _digests(paths: Sequence[str], read: Callable[[Path], bytes]) -> list[tuple[str, str]]:
    """`file_digests` of `paths`, each read by `read`."""
    out = []
    for p in sorted(set(paths)):
        try:
            out.append((p, hashlib.sha256(read(Path(p))).hexdigest()))
        except OSError:
            out.append((p, ""))
    return out
