"""The real Kubernetes components the tests take as judges, built from harness/ with Go.

- `build(name)` builds one program of harness/ (`apiserver`, `controller-gen`, ...) into
  the ignored `.tools/bin/` with `go build` (Go's own cache makes a rebuild cheap).
- `Server` starts `markergen-apiserver` (the CRD API server of k8s.io/apiextensions-apiserver
  on an embedded etcd, loopback, random ports) and talks to it with the privileged token
  it writes into its kubeconfig, through markergen's own client
  (`markergen.envtest.client`, the one `markergen crd --server` uses): `install(crd)`
  creates a CRD under a group of its own (so tests that install different versions of one
  CRD never meet) and waits for `Established`; the `Installed` it returns dry-runs objects
  (`dryRun=All`: the whole admission chain, nothing stored).

The versions are pinned in harness/go.mod and docs/testing.md says how they are built.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import ssl
import subprocess
import tempfile
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml

from markergen.envtest.client import Cause, Client, Installed, Refused, Verdict

# The names the tests use: a refused CRD carries the server's message.
CRDRefused = Refused
__all__ = ["CRDRefused", "Cause", "Installed", "Server", "Verdict", "build", "go"]

REPO = Path(__file__).resolve().parent.parent
HARNESS = REPO / "harness"
BIN = REPO / ".tools" / "bin"

# What each program is built from: (module directory under harness/, package to build).
PROGRAMS: dict[str, tuple[str, str]] = {
    "apiserver": (".", "./apiserver"),
    "controller-gen": ("controller-gen", "sigs.k8s.io/controller-tools/cmd/controller-gen"),
    # the real kube-apiserver and etcd, laid out as setup-envtest would (test_*envtest*)
    "kube-apiserver": ("envtest", "k8s.io/kubernetes/cmd/kube-apiserver"),
    "etcd": ("envtest", "./etcd"),
    # crdify, the CRD compatibility checker `markergen diff`'s CRD checks are compared with
    # (tests/test_apiserver_crdchecks.py, bench/bench_crdify.py); its version is pinned in
    # harness/crdify/go.mod as a `tool`, so the module's own main package is what is built
    "crdify": ("crdify", "sigs.k8s.io/crdify"),
}

NEEDS = (
    "Go 1.26 or later on PATH and the Go module proxy (the harness builds "
    "k8s.io/apiextensions-apiserver and controller-gen from it; docs/testing.md)"
)

_build_lock = threading.Lock()


class Unavailable(Exception):
    """A component cannot be had on this machine (no Go); the message says what to install."""


def go() -> str:
    """The Go that builds the harness: the `go` on PATH, else Go's own install directory.
    Debian's golang-go (Go 1.19, which hack/test-tools.sh installs for openapi-gen) may
    come first on PATH; then /usr/local/go's is taken when it is new enough."""
    candidates = [c for c in (shutil.which("go"), "/usr/local/go/bin/go") if c]
    found = [c for c in dict.fromkeys(candidates) if Path(c).exists()]
    if not found:
        raise Unavailable(f"`go` is not installed: the server-judged tests need {NEEDS}")
    versions = []
    for candidate in found:
        out = subprocess.run([candidate, "env", "GOVERSION"], capture_output=True, text=True,
                             check=False)  # fmt: skip
        version = out.stdout.strip().removeprefix("go")
        if tuple(int(p) for p in version.split(".")[:2] if p.isdigit()) >= (1, 26):
            return candidate
        versions.append(f"{candidate} is Go {version or '?'}")
    raise Unavailable(f"{'; '.join(versions)}: the server-judged tests need {NEEDS}")


def build(name: str) -> Path:
    """Build harness program `name` into .tools/bin and return its path."""
    moddir, package = PROGRAMS[name]
    out = BIN / f"markergen-{name}"
    with _build_lock:
        gobin = go()
        BIN.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, CGO_ENABLED="0", GOFLAGS="-mod=readonly -buildvcs=false")
        proc = subprocess.run(
            [gobin, "build", "-o", str(out), package],
            cwd=HARNESS / moddir,
            env=env,
            capture_output=True,
            text=True,
            check=False,
            timeout=3000,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"go build {package} failed:\n{proc.stderr}")
    return out


class Server(Client):
    """A running `markergen-apiserver`; `stop()` (or the process's stdin closing) ends it."""

    def __init__(self, binary: Path, workdir: Path) -> None:
        self._proc = subprocess.Popen(
            [str(binary), "--data-dir", str(workdir)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            err = self._proc.stderr.read() if self._proc.stderr else ""
            raise RuntimeError(f"markergen-apiserver did not start:\n{err}")
        info = json.loads(line)
        self.kubeconfig = Path(info["kubeconfig"])
        config = yaml.safe_load(self.kubeconfig.read_text())
        cluster = config["clusters"][0]["cluster"]
        # The loopback client's CA signs the certificate the server presents for its
        # loopback name only (SNI), so the handshake names it.
        super().__init__(
            str(info["host"]),
            str(config["users"][0]["user"]["token"]),
            ssl.create_default_context(
                cadata=base64.b64decode(cluster["certificate-authority-data"]).decode()
            ),
            cluster.get("tls-server-name") or "localhost",
        )

    @contextmanager
    def installed(self, crd: Mapping[str, Any]) -> Iterator[Installed]:
        """`install`, deleted when the block ends."""
        handle = self.install(crd)
        try:
            yield handle
        finally:
            handle.delete()

    @classmethod
    def start(cls) -> Server:
        binary = build("apiserver")
        workdir = Path(tempfile.mkdtemp(prefix="markergen-apiserver-"))
        server = cls(binary, workdir)
        server._workdir = workdir
        return server

    def stop(self) -> None:
        self.close()
        if self._proc.poll() is None:
            assert self._proc.stdin is not None
            self._proc.stdin.close()
            try:
                self._proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        workdir = getattr(self, "_workdir", None)
        if workdir is not None:
            shutil.rmtree(workdir, ignore_errors=True)
