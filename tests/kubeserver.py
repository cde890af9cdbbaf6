"""The real Kubernetes components the tests take as judges, built from harness/ with Go.

- `build(name)` builds one program of harness/ (`apiserver`, `controller-gen`, ...) into
  the ignored `.tools/bin/` with `go build` (Go's own cache makes a rebuild cheap).
- `Server` starts `markergen-apiserver` (the CRD API server of k8s.io/apiextensions-apiserver
  on an embedded etcd, loopback, random ports) and talks to it over HTTPS with the
  privileged token it writes into its kubeconfig: plain `urllib`, no client library.
- `Server.install(crd)` creates a CRD for real, under a group of its own (so tests that
  install different versions of one CRD never meet), waits for `Established`, and returns
  an `Installed` whose `dry_run(obj)` asks the server's verdict on an object with
  `dryRun=All` (the whole admission chain, nothing stored).

The versions are pinned in harness/go.mod and docs/testing.md says how they are built.
"""

from __future__ import annotations

import base64
import copy
import http.client
import itertools
import json
import os
import shutil
import socket
import ssl
import subprocess
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

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
}

NEEDS = (
    "Go 1.26 or later on PATH and the Go module proxy (the harness builds "
    "k8s.io/apiextensions-apiserver and controller-gen from it; docs/testing.md)"
)

_build_lock = threading.Lock()


class Unavailable(Exception):
    """A component cannot be had on this machine (no Go); the message says what to install."""


class CRDRefused(Exception):
    """The API server refused to create a CRD, or it never became Established."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message


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


@dataclass(frozen=True)
class Cause:
    """One cause of a rejection, as the API server's Status reports it."""

    field: str
    reason: str
    message: str


@dataclass(frozen=True)
class Verdict:
    """The server's answer to a dry-run create."""

    accepted: bool
    status: int
    message: str
    causes: tuple[Cause, ...]
    # The object as the server would store it (defaulted, pruned), when accepted.
    stored: Mapping[str, Any] | None = None

    def fields(self) -> set[str]:
        return {c.field for c in self.causes}


class Server:
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
        self.host: str = info["host"]
        self.kubeconfig = Path(info["kubeconfig"])
        config = yaml.safe_load(self.kubeconfig.read_text())
        cluster = config["clusters"][0]["cluster"]
        self._token: str = config["users"][0]["user"]["token"]
        self._ssl = ssl.create_default_context(
            cadata=base64.b64decode(cluster["certificate-authority-data"]).decode()
        )
        self._server_name: str = cluster.get("tls-server-name") or "localhost"
        self._conn: http.client.HTTPSConnection | None = None
        self._counter = itertools.count(1)

    @classmethod
    def start(cls) -> Server:
        binary = build("apiserver")
        workdir = Path(tempfile.mkdtemp(prefix="markergen-apiserver-"))
        server = cls(binary, workdir)
        server._workdir = workdir
        return server

    def stop(self) -> None:
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

    # --- HTTP -----------------------------------------------------------------------
    def _connect(self) -> http.client.HTTPSConnection:
        url = urllib.parse.urlsplit(self.host)
        conn = http.client.HTTPSConnection(url.hostname or "127.0.0.1", url.port, timeout=60)
        server_name = self._server_name

        def connect() -> None:
            # The loopback client's CA signs the certificate the server presents for its
            # loopback name only (SNI), so the handshake names it.
            sock = socket.create_connection((conn.host, conn.port), timeout=60)
            conn.sock = self._ssl.wrap_socket(sock, server_hostname=server_name)

        conn.connect = connect  # type: ignore[method-assign]
        return conn

    def request(
        self, method: str, path: str, body: Mapping[str, Any] | None = None
    ) -> tuple[int, dict[str, Any]]:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Authorization": f"Bearer {self._token}", "Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        for attempt in (1, 2):
            if self._conn is None:
                self._conn = self._connect()
            try:
                self._conn.request(method, path, body=data, headers=headers)
                resp = self._conn.getresponse()
                raw = resp.read()
                break
            except (http.client.HTTPException, OSError):
                # A kept-alive connection the server closed: once more on a new one.
                self._conn.close()
                self._conn = None
                if attempt == 2:
                    raise
        try:
            payload = json.loads(raw) if raw else {}
        except ValueError:
            payload = {"message": raw.decode(errors="replace")}
        return resp.status, payload

    # --- CRDs -----------------------------------------------------------------------
    def install(self, crd: Mapping[str, Any], *, timeout: float = 60.0) -> Installed:
        """Create `crd` under a group of its own and wait until it is Established."""
        own = copy.deepcopy(dict(crd))
        spec = own["spec"]
        original_group = spec["group"]
        group = f"t{next(self._counter)}.{original_group}"
        spec["group"] = group
        plural = spec["names"]["plural"]
        name = f"{plural}.{group}"
        own["metadata"] = {
            k: v
            for k, v in dict(own.get("metadata") or {}).items()
            if k in ("annotations", "labels")
        }
        own["metadata"]["name"] = name
        own.pop("status", None)
        code, body = self.request(
            "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", own
        )
        if code not in (200, 201):
            raise CRDRefused(f"{plural}.{original_group}", body.get("message", str(body)))
        deadline = time.monotonic() + timeout
        while True:
            code, body = self.request(
                "GET", f"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{name}"
            )
            conditions = {c["type"]: c for c in (body.get("status") or {}).get("conditions") or []}
            if conditions.get("Established", {}).get("status") == "True":
                break
            if conditions.get("NamesAccepted", {}).get("status") == "False":
                raise CRDRefused(name, conditions["NamesAccepted"].get("message", ""))
            if time.monotonic() > deadline:
                raise CRDRefused(name, f"not Established after {timeout}s: {conditions}")
            time.sleep(0.05)
        return Installed(self, name, original_group, group, own)

    @contextmanager
    def installed(self, crd: Mapping[str, Any]) -> Iterator[Installed]:
        handle = self.install(crd)
        try:
            yield handle
        finally:
            handle.delete()


class Installed:
    """A CRD created on the server; objects are dry-run against it."""

    def __init__(
        self, server: Server, name: str, original_group: str, group: str, crd: dict[str, Any]
    ) -> None:
        self.server = server
        self.name = name
        self.original_group = original_group
        self.group = group
        self.crd = crd
        spec = crd["spec"]
        self.plural: str = spec["names"]["plural"]
        self.kind: str = spec["names"]["kind"]
        self.namespaced = spec.get("scope", "Namespaced") == "Namespaced"
        self.served = [v["name"] for v in spec["versions"] if v.get("served", True)]
        self.storage = next(v["name"] for v in spec["versions"] if v.get("storage"))
        self._names = itertools.count(1)

    def path(self, version: str) -> str:
        base = f"/apis/{self.group}/{version}"
        if self.namespaced:
            base += "/namespaces/default"
        return f"{base}/{self.plural}"

    def dry_run(
        self,
        obj: Mapping[str, Any],
        *,
        version: str | None = None,
        field_validation: str = "Strict",
    ) -> Verdict:
        """The server's verdict on creating `obj` (its apiVersion's group is rewritten
        to this installation's; `version` defaults to the object's own, else storage)."""
        body = copy.deepcopy(dict(obj))
        api_version = str(body.get("apiVersion", ""))
        own_version = api_version.rsplit("/", 1)[-1] if "/" in api_version else None
        version = version or (own_version if own_version in self.served else self.storage)
        body["apiVersion"] = f"{self.group}/{version}"
        body["kind"] = self.kind
        meta = dict(body.get("metadata") or {})
        meta["name"] = f"o{next(self._names)}"
        meta.pop("namespace", None)
        for key in ("resourceVersion", "uid", "creationTimestamp", "generation", "managedFields"):
            meta.pop(key, None)
        body["metadata"] = meta
        body.pop("status", None)
        query = f"?dryRun=All&fieldValidation={field_validation}"
        deadline = time.monotonic() + 30
        while True:
            code, reply = self.server.request("POST", self.path(version) + query, body)
            # Established can be seen a moment before the handler serves the new group.
            if code == 404 and time.monotonic() < deadline:
                time.sleep(0.05)
                continue
            break
        if code in (200, 201):
            return Verdict(True, code, "", (), reply)
        details = reply.get("details") or {}
        causes = tuple(
            Cause(c.get("field", ""), c.get("reason", ""), c.get("message", ""))
            for c in details.get("causes") or ()
        )
        return Verdict(False, code, str(reply.get("message", reply)), causes)

    def delete(self) -> None:
        self.server.request(
            "DELETE", f"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{self.name}"
        )
