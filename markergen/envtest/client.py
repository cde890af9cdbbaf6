"""What an API server decides about CRDs and objects, asked over HTTPS with a token.

`Client.install(crd)` creates a CRD under a group of its own (`t<N>.<group>`), so that
the CRD as the project has it and as markergen would write it can be served side by side
and each object judged by both, and waits for `Established`; the server's refusal is a
`Refused` with its message. `Installed.dry_run(obj)` asks the server to create the object
with `dryRun=All`: the whole validation and admission chain, nothing stored.
"""

from __future__ import annotations

import copy
import http.client
import itertools
import json
import socket
import ssl
import threading
import time
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


class Refused(Exception):
    """The API server refused a CRD, or it never became Established."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message


@dataclass(frozen=True)
class Cause:
    """One cause of a rejection, as the server's Status reports it."""

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
    # the object as the server would store it (defaulted, pruned), when accepted
    stored: Mapping[str, Any] | None = None

    def fields(self) -> set[str]:
        return {c.field for c in self.causes}


class Client:
    """HTTPS to one API server: a kept-alive connection per thread (a bench may dry-run
    from several threads at once)."""

    def __init__(self, host: str, token: str, context: ssl.SSLContext, server_name: str) -> None:
        self.host = host
        self._token = token
        self._ssl = context
        self._server_name = server_name
        self._local = threading.local()
        self._groups = itertools.count(1)

    def close(self) -> None:
        conn: http.client.HTTPSConnection | None = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    def _connect(self) -> http.client.HTTPSConnection:
        url = urllib.parse.urlsplit(self.host)
        conn = http.client.HTTPSConnection(url.hostname or "127.0.0.1", url.port, timeout=60)

        def connect() -> None:
            # The name the server's certificate is for (SNI), whatever address we dial.
            sock = socket.create_connection((conn.host, conn.port), timeout=60)
            conn.sock = self._ssl.wrap_socket(sock, server_hostname=self._server_name)

        conn.connect = connect  # type: ignore[method-assign]
        return conn

    def request(
        self, method: str, path: str, body: Mapping[str, Any] | None = None
    ) -> tuple[int, dict[str, Any]]:
        data = json.dumps(body).encode() if body is not None else None
        return self.request_raw(method, path, data, "application/json")

    def request_raw(
        self, method: str, path: str, data: bytes | None, content_type: str
    ) -> tuple[int, dict[str, Any]]:
        """`request` with a body as it is sent: `application/yaml` text is decoded by the
        server's own YAML reader (sigs.k8s.io/yaml)."""
        headers = {"Authorization": f"Bearer {self._token}", "Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = content_type
        raw = b""
        status = 0
        for attempt in (1, 2):
            conn: http.client.HTTPSConnection | None = getattr(self._local, "conn", None)
            if conn is None:
                conn = self._local.conn = self._connect()
            try:
                conn.request(method, path, body=data, headers=headers)
                resp = conn.getresponse()
                raw, status = resp.read(), resp.status
                break
            except (http.client.HTTPException, OSError):
                # a kept-alive connection the server closed: once more on a new one
                self.close()
                if attempt == 2:
                    raise
        try:
            payload = json.loads(raw) if raw else {}
        except ValueError:
            payload = {"message": raw.decode(errors="replace")}
        return status, payload if isinstance(payload, dict) else {"items": payload}

    def install(self, crd: Mapping[str, Any], *, timeout: float = 60.0) -> Installed:
        """Create `crd` under a group of its own and wait until it is Established."""
        found = self.install_all([crd], timeout=timeout)[0]
        if isinstance(found, Refused):
            raise found
        return found

    def install_all(
        self, crds: Sequence[Mapping[str, Any]], *, timeout: float = 60.0
    ) -> list[Installed | Refused]:
        """`install` for many CRDs: all are created first, then awaited together (the
        server's controllers take a moment to establish each; one at a time, hundreds
        wait minutes). Each result is the installation or the refusal."""
        posted = [self._post(crd) for crd in crds]
        out: list[Installed | Refused | None] = [
            p if isinstance(p, Refused) else None for p in posted
        ]
        deadline = time.monotonic() + timeout
        while True:
            for i, p in enumerate(posted):
                if out[i] is None and not isinstance(p, Refused):
                    out[i] = self._established(p, time.monotonic() > deadline, timeout)
            if all(o is not None for o in out):
                return [o for o in out if o is not None]
            time.sleep(0.05)

    def _post(self, crd: Mapping[str, Any]) -> Installed | Refused:
        own = copy.deepcopy(dict(crd))
        spec = own["spec"]
        original_group = str(spec["group"])
        group = f"t{next(self._groups)}.{original_group}"
        spec["group"] = group
        plural = str(spec["names"]["plural"])
        name = f"{plural}.{group}"
        meta = dict(own.get("metadata") or {})
        own["metadata"] = {k: v for k, v in meta.items() if k in ("annotations", "labels")}
        own["metadata"]["name"] = name
        own.pop("status", None)
        code, body = self.request(
            "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", own
        )
        if code not in (200, 201):
            return Refused(f"{plural}.{original_group}", str(body.get("message", body)))
        return Installed(self, name, original_group, group, own)

    def _established(
        self, handle: Installed, late: bool, timeout: float
    ) -> Installed | Refused | None:
        """The CRD once Established, its refusal, or None while the server works on it."""
        _, body = self.request(
            "GET", f"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{handle.name}"
        )
        status = body.get("status") or {}
        conditions = {c.get("type"): c for c in status.get("conditions") or []}
        if conditions.get("Established", {}).get("status") == "True":
            return handle
        if conditions.get("NamesAccepted", {}).get("status") == "False":
            return Refused(handle.name, str(conditions["NamesAccepted"].get("message", "")))
        if late:
            return Refused(handle.name, f"not Established after {timeout:.0f}s: {conditions}")
        return None


class Installed:
    """A CRD created on the server; objects are dry-run against it."""

    def __init__(
        self, client: Client, name: str, original_group: str, group: str, crd: dict[str, Any]
    ) -> None:
        self.client = client
        self.name = name
        self.original_group = original_group
        self.group = group
        self.crd = crd
        spec = crd["spec"]
        self.plural = str(spec["names"]["plural"])
        self.kind = str(spec["names"]["kind"])
        self.namespaced = spec.get("scope", "Namespaced") == "Namespaced"
        versions = spec.get("versions") or []
        self.served = [str(v["name"]) for v in versions if v.get("served", True)]
        self.storage = next((str(v["name"]) for v in versions if v.get("storage")), "")
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
        """The server's verdict on creating `obj`; its apiVersion's group becomes this
        installation's, its version is kept when served (else `version`, else storage)."""
        body = copy.deepcopy(dict(obj))
        api_version = str(body.get("apiVersion", ""))
        own_version = api_version.rsplit("/", 1)[-1] if "/" in api_version else None
        version = version or (own_version if own_version in self.served else self.storage)
        body["apiVersion"] = f"{self.group}/{version}"
        body["kind"] = self.kind
        meta = dict(body.get("metadata") or {})
        # The object's own name: a CRD may constrain it (openshift's cluster singletons
        # allow only their names), and a dry run stores nothing for a second one to meet.
        if not isinstance(meta.get("name"), str) or not meta["name"]:
            meta["name"] = f"o{next(self._names)}"
        for key in (
            "namespace", "generateName", "resourceVersion", "uid",
            "creationTimestamp", "generation", "managedFields",
        ):  # fmt: skip
            meta.pop(key, None)
        body["metadata"] = meta
        body.pop("status", None)
        query = f"?dryRun=All&fieldValidation={field_validation}"
        deadline = time.monotonic() + 30
        while True:
            code, reply = self.client.request("POST", self.path(version) + query, body)
            # Established can be seen a moment before the handler serves the new group
            # (a version the CRD does not serve stays 404: the server's answer).
            if code == 404 and version in self.served and time.monotonic() < deadline:
                time.sleep(0.05)
                continue
            break
        if code in (200, 201):
            return Verdict(True, code, "", (), reply)
        details = reply.get("details") or {}
        causes = tuple(
            Cause(str(c.get("field", "")), str(c.get("reason", "")), str(c.get("message", "")))
            for c in details.get("causes") or ()
        )
        return Verdict(False, code, str(reply.get("message", reply)), causes)

    def delete(self) -> None:
        self.client.request(
            "DELETE", f"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{self.name}"
        )
