"""Where a kubebuilder project's envtest binaries are, found as its `make test` finds them.

controller-runtime's envtest starts `kube-apiserver` and `etcd` from the directory named
by `KUBEBUILDER_ASSETS`; a kubebuilder Makefile sets that variable from
`$(SETUP_ENVTEST) use $(ENVTEST_K8S_VERSION) --bin-dir $(LOCALBIN) -p path`, which lays
the binaries out as `<bin-dir>/k8s/<version>-<os>-<arch>/`, and without `--bin-dir`
setup-envtest keeps them in its own data directory (`$XDG_DATA_HOME/kubebuilder-envtest`
on Linux, `~/Library/Application Support/io.kubebuilder.envtest` on macOS). markergen
looks in the same places, in this order, and never downloads anything:

1. a directory given by the `server` setting;
2. `KUBEBUILDER_ASSETS`;
3. the Makefile's `ENVTEST_K8S_VERSION` under `bin/k8s/` (and `$(LOCALBIN)` when the
   Makefile names another directory), else the newest version found there;
4. setup-envtest's data directory, the Makefile's version first, else the newest.
"""

from __future__ import annotations

import os
import platform
import re
import sys
from dataclasses import dataclass
from pathlib import Path

_VERSION_VAR = re.compile(
    r"^\s*ENVTEST_K8S_VERSION\s*[:?]?=\s*([0-9][0-9A-Za-z.+-]*)\s*$", re.MULTILINE
)
_LOCALBIN = re.compile(r"^\s*LOCALBIN\s*[:?]?=\s*(\S+)\s*$", re.MULTILINE)
_DIR_NAME = re.compile(r"^(\d+)\.(\d+)\.(\d+)(?:[-+].*)?-([a-z0-9]+)-([a-z0-9]+)$")


@dataclass(frozen=True)
class Assets:
    directory: Path
    kube_apiserver: Path
    etcd: Path
    version: str  # as the directory names it, or "" when it does not
    found_by: str  # how it was found, for the line markergen prints

    def describe(self) -> str:
        version = f"Kubernetes {self.version}" if self.version else "version unknown"
        return f"envtest binaries ({version}) in {self.directory} ({self.found_by})"


def _platform() -> tuple[str, str]:
    system = sys.platform
    goos = "darwin" if system == "darwin" else "windows" if system.startswith("win") else "linux"
    machine = platform.machine().lower()
    goarch = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64"}.get(
        machine, machine
    )
    return goos, goarch


def _complete(directory: Path, found_by: str, version: str = "") -> Assets | None:
    apiserver, etcd = directory / "kube-apiserver", directory / "etcd"
    if not (apiserver.is_file() and os.access(apiserver, os.X_OK)):
        return None
    if not (etcd.is_file() and os.access(etcd, os.X_OK)):
        return None
    if not version:
        m = _DIR_NAME.match(directory.name)
        version = f"{m[1]}.{m[2]}.{m[3]}" if m else ""
    return Assets(directory, apiserver, etcd, version, found_by)


def _in_store(store: Path, wanted: str, found_by: str) -> Assets | None:
    """`<store>/k8s/<version>-<os>-<arch>/`: the wanted version, else the newest."""
    base = store / "k8s"
    if not base.is_dir():
        return None
    goos, goarch = _platform()
    if wanted:
        hit = _complete(base / f"{wanted.lstrip('v')}-{goos}-{goarch}", found_by)
        if hit is not None:
            return hit
    candidates: list[tuple[tuple[int, int, int], Path]] = []
    for entry in base.iterdir():
        m = _DIR_NAME.match(entry.name)
        if m and m[4] == goos and m[5] == goarch:
            candidates.append(((int(m[1]), int(m[2]), int(m[3])), entry))
    for _, entry in sorted(candidates, reverse=True):
        hit = _complete(entry, found_by)
        if hit is not None:
            return hit
    return None


def _setup_envtest_store() -> Path:
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "io.kubebuilder.envtest"
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "kubebuilder-envtest"


def _makefile_facts(root: Path) -> tuple[str, list[Path]]:
    """The Makefile's ENVTEST_K8S_VERSION and the bin directories it may use."""
    bins = [root / "bin"]
    try:
        text = (root / "Makefile").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "", bins
    version = m[1] if (m := _VERSION_VAR.search(text)) else ""
    local = _LOCALBIN.search(text)
    if local and "$" not in local[1]:
        bins.append((root / local[1]).resolve())
    return version, bins


def find(root: Path, given: str | None = None) -> Assets | None:
    """The envtest binaries for the project at `root`, or None. `given` is a directory
    (the `server` setting's path), which must hold them."""
    if given:
        return _complete(Path(given).expanduser(), "the server setting") or _in_store(
            Path(given).expanduser(), "", "the server setting"
        )
    env = os.environ.get("KUBEBUILDER_ASSETS")
    if env:
        hit = _complete(Path(env), "KUBEBUILDER_ASSETS")
        if hit is not None:
            return hit
    version, bins = _makefile_facts(root)
    for directory in bins:
        hit = _in_store(
            directory, version, f"{_shown(directory, root)}/k8s, as `make test` uses it"
        )
        if hit is not None:
            return hit
    return _in_store(_setup_envtest_store(), version, "setup-envtest's data directory")


def _shown(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)
