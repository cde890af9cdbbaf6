"""Issue 39 item 3: a new union whose field is not yet in the CRD (controller-gen was not
run again) is named: MG514 says the CRD is stale for that type, in `crd` and in `check`,
instead of a bare "patched nothing". Real Go, real CRD files, the real command line.
check's MG514 on its own is testdata/crdwant/mg514-bad (tests/test_crd_want.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from helpers import TESTDATA, run_cli

AUTH = """
// +enum
type AuthMode string

const (
\tAuthModeLDAP AuthMode = "LDAP"
\tAuthModeOIDC AuthMode = "OIDC"
)

type LDAPAuth struct {
\tURL string `json:"url"`
}

type OIDCAuth struct {
\tIssuer string `json:"issuer"`
}

// Auth is one way for readers to sign in.
type Auth struct {
\t// +unionDiscriminator
\t// +required
\tMode AuthMode `json:"mode"`

\t// +unionMember
\t// +optional
\tLDAP *LDAPAuth `json:"ldap,omitempty"`

\t// +unionMember
\t// +optional
\tOIDC *OIDCAuth `json:"oidc,omitempty"`
}
"""

CRD = Path("config/crd/bases/webapp.example.com_guestbooks.yaml")


def _with_auth(tmp_path: Path, field_markers: str = "") -> Path:
    root = tmp_path / "example"
    shutil.copytree(TESTDATA / "example", root)
    types = root / "api" / "v1" / "guestbook_types.go"
    text = types.read_text()
    old = '\tBackup *BackupTarget `json:"backup,omitempty"`\n}\n'
    assert old in text
    new = (
        '\tBackup *BackupTarget `json:"backup,omitempty"`\n\n'
        f"\t// auth says how readers sign in.\n{field_markers}"
        '\t// +optional\n\tAuth *Auth `json:"auth,omitempty"`\n}\n'
    )
    types.write_text(text.replace(old, new) + AUTH)
    return root


def _regenerate_auth(root: Path) -> None:
    """What controller-gen adds for the new field (the property, nothing else)."""
    path = root / CRD
    crd = yaml.safe_load(path.read_text())
    spec = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
    auth = {"type": "object", "required": ["mode"], "properties": {
        "mode": {"type": "string", "enum": ["LDAP", "OIDC"]},
        "ldap": {"type": "object", "properties": {"url": {"type": "string"}}},
        "oidc": {"type": "object", "properties": {"issuer": {"type": "string"}}},
    }}  # fmt: skip
    spec["properties"]["auth"] = auth
    path.write_text(yaml.safe_dump(crd, sort_keys=False))


def _stale_line(root: Path) -> int:
    """The line of the `spec` schema node (its `description:`, where the property is
    missing) in the CRD file."""
    lines = (root / CRD).read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip() == "spec:" and i > 30)
    return at + 2


def test_crd_says_the_crd_is_stale_for_the_new_union(tmp_path: Path) -> None:
    root = _with_auth(tmp_path)
    first = run_cli(["crd"], root)  # the example's other unions are written now
    assert first.code == 0, first.stderr
    again = run_cli(["crd"], root)
    assert again.code == 0, again.stderr
    where = f"{CRD.as_posix()}:{_stale_line(root)}:"
    for res in (first, again):
        found = [line for line in res.stderr.splitlines() if "MG514" in line]
        assert len(found) == 1, res.stderr
        assert found[0].startswith(where), found
        assert "stale for GuestbookSpec.Auth" in found[0] and "Auth.mode" in found[0]
    assert " auth:" not in (root / CRD).read_text()  # markergen never adds the property


def test_a_regenerated_crd_gets_the_rules_and_no_mg514(tmp_path: Path) -> None:
    root = _with_auth(tmp_path)
    _regenerate_auth(root)
    res = run_cli(["crd"], root)
    assert res.code == 0, res.stderr
    assert "MG514" not in res.stderr
    crd = yaml.safe_load((root / CRD).read_text())
    spec = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
    rules = [r["rule"] for r in spec["properties"]["auth"].get("x-kubernetes-validations", [])]
    assert any("ldap" in r for r in rules), rules


@pytest.mark.parametrize(
    "marker",
    ["\t// +openshift:enable:FeatureGate=ReaderAuth\n", "\t// <gateway:experimental>\n"],
)
def test_a_field_left_out_on_purpose_is_not_stale(tmp_path: Path, marker: str) -> None:
    # feature-gated (openshift) and experimental-channel (gateway-api) fields are missing
    # from some generated CRDs by design
    root = _with_auth(tmp_path, marker)
    res = run_cli(["crd"], root)
    assert res.code == 0, res.stderr
    assert "MG514" not in res.stderr
