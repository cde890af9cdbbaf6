"""etcd and kube-apiserver from the envtest binaries, on loopback, for one run.

Started as controller-runtime's envtest starts them for a project's controller tests:
etcd on two free loopback ports with its data in a temporary directory, kube-apiserver
beside it with a self-signed serving certificate in that directory. markergen
authenticates with a random token from a token file (user `markergen`, group
`system:masters`), so no client certificate is needed. Both processes are stopped, and
the directory removed, by `stop()` (or the `with` block's end), also after an error.
"""

from __future__ import annotations

import contextlib
import secrets
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

from markergen.envtest.assets import Assets
from markergen.envtest.client import Client
from markergen.envtest.keys import ec_private_key_pem


class StartError(Exception):
    """The control plane did not start; the message has the last lines it printed."""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _tail(path: Path, lines: int = 8) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


class ControlPlane:
    def __init__(self, assets: Assets, *, timeout: float = 120.0) -> None:
        self.assets = assets
        self.dir = Path(tempfile.mkdtemp(prefix="markergen-envtest-"))
        self._procs: list[subprocess.Popen[bytes]] = []
        try:
            self.client = self._start(timeout)
        except BaseException:
            self.stop()
            raise

    def __enter__(self) -> ControlPlane:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def _spawn(self, name: str, argv: list[str]) -> subprocess.Popen[bytes]:
        log = (self.dir / f"{name}.log").open("wb")
        proc = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, cwd=self.dir
        )
        log.close()
        self._procs.append(proc)
        return proc

    def _start(self, timeout: float) -> Client:
        client_port, peer_port, secure_port = _free_port(), _free_port(), _free_port()
        etcd_url = f"http://127.0.0.1:{client_port}"
        etcd = self._spawn(
            "etcd",
            [
                str(self.assets.etcd),
                f"--data-dir={self.dir / 'etcd'}",
                f"--listen-client-urls={etcd_url}",
                f"--advertise-client-urls={etcd_url}",
                f"--listen-peer-urls=http://127.0.0.1:{peer_port}",
                "--unsafe-no-fsync=true",
                "--log-level=error",
            ],
        )
        token = secrets.token_hex(24)
        (self.dir / "tokens.csv").write_text(f'{token},markergen,markergen,"system:masters"\n')
        key = self.dir / "service-account.key"
        key.write_text(ec_private_key_pem())
        certs = self.dir / "certs"
        apiserver = self._spawn(
            "kube-apiserver",
            [
                str(self.assets.kube_apiserver),
                f"--etcd-servers={etcd_url}",
                f"--secure-port={secure_port}",
                "--bind-address=127.0.0.1",
                "--advertise-address=127.0.0.1",
                f"--cert-dir={certs}",
                "--service-cluster-ip-range=10.0.0.0/24",
                f"--service-account-issuer=https://127.0.0.1:{secure_port}",
                f"--service-account-key-file={key}",
                f"--service-account-signing-key-file={key}",
                f"--token-auth-file={self.dir / 'tokens.csv'}",
                "--authorization-mode=RBAC",
                "--disable-admission-plugins=ServiceAccount",
                "--enable-priority-and-fairness=false",
                # no Service `kubernetes` to keep pointing at a loopback address
                "--endpoint-reconciler-type=none",
            ],
        )
        deadline = time.monotonic() + timeout
        client: Client | None = None
        while time.monotonic() < deadline:
            for name, proc in (("etcd", etcd), ("kube-apiserver", apiserver)):
                if proc.poll() is not None:
                    raise StartError(
                        f"{name} exited with status {proc.returncode}:\n"
                        + _tail(self.dir / f"{name}.log")
                    )
            if client is None and (certs / "apiserver.crt").exists():
                context = ssl.create_default_context(cafile=str(certs / "apiserver.crt"))
                # The self-signed certificate kube-apiserver makes names its advertise
                # address; verified against itself, not against the machine's CAs.
                context.check_hostname = False
                client = Client(f"https://127.0.0.1:{secure_port}", token, context, "localhost")
            if client is not None:
                with contextlib.suppress(OSError, ssl.SSLError):
                    code, _ = client.request("GET", "/readyz")
                    if code == 200:
                        return client
                client.close()
            time.sleep(0.2)
        raise StartError(
            f"kube-apiserver was not ready after {timeout:.0f}s:\n"
            + _tail(self.dir / "kube-apiserver.log")
        )

    def stop(self) -> None:
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        # Killed, not asked to stop: nothing they hold is kept, and kube-apiserver's
        # graceful shutdown alone takes longer than the whole proof.
        for proc in reversed(self._procs):
            if proc.poll() is None:
                proc.kill()
            proc.wait()
        self._procs.clear()
        shutil.rmtree(self.dir, ignore_errors=True)
