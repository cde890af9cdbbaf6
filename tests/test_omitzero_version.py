"""Issue 39 item 3: MG301's and MG302's hints and the module's Go version.

encoding/json leaves a field tagged `omitzero` out only from Go 1.24; a module whose
go.mod says `go 1.22` may be built by a Go that writes `"ldap":{"url":""}`, which the
union's rule then rejects. So hints propose a pointer first and `omitzero` only when the
go.mod's `go` line is 1.24 or later, and MG302 reports an `omitzero` member that such a
module relies on. Real grammar on real files in a module of its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from markergen.diagnostics import Diagnostic
from markergen.pipeline import check_model, load_model

TYPES = """package v1

// +enum
type Mode string

const (
\tModeLDAP Mode = "LDAP"
\tModeOIDC Mode = "OIDC"
)

type LDAP struct {
\tURL string `json:"url"`
}

type Auth struct {
\t// +unionDiscriminator
\t// +required
\tMode Mode `json:"mode"`

\t// +unionMember
\t%s

\t// +unionMember
\t// +optional
\tOIDC *LDAP `json:"oidc,omitempty"`
}
"""

REQUIRED_STRUCT = 'LDAP LDAP `json:"ldap"`'
OPTIONAL_STRUCT = '// +optional\n\tLDAP LDAP `json:"ldap,omitempty"`'
OMITZERO_STRUCT = '// +optional\n\tLDAP LDAP `json:"ldap,omitzero"`'
OMITZERO_STRING = '// +optional\n\tLDAP string `json:"ldap,omitzero"`'
POINTER = '// +optional\n\tLDAP *LDAP `json:"ldap,omitempty"`'


def _check(tmp_path: Path, member: str, go_line: str | None) -> list[Diagnostic]:
    gomod = "module example.com/auth\n" + (f"\n{go_line}\n" if go_line else "")
    (tmp_path / "go.mod").write_text(gomod)
    (tmp_path / "v1").mkdir()
    (tmp_path / "v1" / "types.go").write_text(TYPES % member)
    return [d for d in check_model(load_model(["./..."], tmp_path)) if d.code in ("MG301", "MG302")]


def _hint(diags: list[Diagnostic], code: str) -> str:
    found = [d for d in diags if d.code == code]
    assert len(found) == 1, diags
    return found[0].hint or ""


@pytest.mark.parametrize("go_line", ["go 1.22", "go 1.23.4", None])
def test_before_go_1_24_hints_propose_a_pointer_and_never_omitzero(
    tmp_path: Path, go_line: str | None
) -> None:
    diags = _check(tmp_path, REQUIRED_STRUCT, go_line)
    mg301, mg302 = _hint(diags, "MG301"), _hint(diags, "MG302")
    assert mg301.startswith("make it a pointer, `*LDAP`"), mg301
    assert mg302.startswith("make it a pointer, `*LDAP`"), mg302
    assert "omitzero" not in mg301 and "omitzero" not in mg302


@pytest.mark.parametrize("go_line", ["go 1.24", "go 1.25.0", "go 1.26rc1"])
def test_from_go_1_24_omitzero_is_the_alternative_to_the_pointer(
    tmp_path: Path, go_line: str
) -> None:
    diags = _check(tmp_path, REQUIRED_STRUCT, go_line)
    for code in ("MG301", "MG302"):
        hint = _hint(diags, code)
        assert hint.startswith("make it a pointer, `*LDAP`"), hint
        assert "(or " in hint and "omitzero" in hint.split("(or ", 1)[1], hint


def test_following_mg301s_hint_leaves_no_mg302(tmp_path: Path) -> None:
    # the pointer, +optional and omitempty that MG301 asks for are MG302's fix too
    assert _check(tmp_path, POINTER, "go 1.22") == []


@pytest.mark.parametrize("member", [OMITZERO_STRUCT, OMITZERO_STRING])
def test_mg302_reports_omitzero_in_a_go_1_22_module(tmp_path: Path, member: str) -> None:
    diags = _check(tmp_path, member, "go 1.22")
    assert [d.code for d in diags] == ["MG302"], diags
    assert "go 1.22" in diags[0].message and "omitzero" in diags[0].message
    assert diags[0].hint is not None and diags[0].hint.startswith("make it a pointer")


@pytest.mark.parametrize("member", [OMITZERO_STRUCT, OMITZERO_STRING])
def test_omitzero_is_enough_in_a_go_1_24_module(tmp_path: Path, member: str) -> None:
    assert _check(tmp_path, member, "go 1.24") == []


def test_a_struct_value_with_omitempty_still_needs_the_pointer(tmp_path: Path) -> None:
    diags = _check(tmp_path, OPTIONAL_STRUCT, "go 1.22")
    assert "omitzero" not in _hint(diags, "MG302")
