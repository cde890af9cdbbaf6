"""A kubebuilder project whose Provider is a discriminated union in the Go
(`+unionDiscriminator` on `type`, `+unionMember` on `aws` and `gcp`) and hand-written CEL
rules in the CRD (testdata/diff/crdproject with the union markers added), committed as the
base, and the head revisions of issue 37's merged-entry cases: the `gcp` member removed
(Go field, CRD property and its rule; the enum value kept), and removed with its enum
value."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

PROJECT = Path(__file__).parent.parent / "testdata" / "diff" / "crdproject"
GO = "api/v1/widget_types.go"
CRD = "config/crd/bases/example.com_widgets.yaml"
Edits = tuple[tuple[str, str, str], ...]  # (file, old, new)

UNION_MARKERS: Edits = (
    (
        GO,
        "\t// +kubebuilder:default=AWS\n",
        "\t// +unionDiscriminator\n\t// +kubebuilder:default=AWS\n",
    ),
    (GO, "\t// +optional\n\tAWS *AWS", "\t// +unionMember\n\t// +optional\n\tAWS *AWS"),
    (GO, "\t// +optional\n\tGCP *GCP", "\t// +unionMember\n\t// +optional\n\tGCP *GCP"),
)
DROP_GCP: Edits = (
    (GO, '\t// +unionMember\n\t// +optional\n\tGCP *GCP `json:"gcp,omitempty"`\n', ""),
    (
        GO,
        '// +kubebuilder:validation:XValidation:rule="has(self.gcp) ? self.type == '
        '\'GCP\' : true",message="gcp is allowed only when type is GCP"\n',
        "",
    ),
    # what controller-gen writes for the head's Go: the property and its rule gone
    (
        CRD,
        "                  gcp:\n"
        "                    description: GCP configures the GCP provider.\n"
        "                    properties:\n"
        "                      project:\n                        type: string\n"
        "                    type: object\n",
        "",
    ),
    (
        CRD,
        "                - message: gcp is allowed only when type is GCP\n"
        "                  rule: 'has(self.gcp) ? self.type == ''GCP'' : true'\n",
        "",
    ),
)
DROP_GCP_VALUE: Edits = (
    (GO, "Enum=AWS;GCP", "Enum=AWS"),
    (CRD, "                    - AWS\n                    - GCP\n", "                    - AWS\n"),
)


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def show(cwd: Path, spec: str) -> str:
    """`git show REV:PATH`."""
    out = subprocess.run(
        ["git", "-C", str(cwd), "show", spec], check=True, capture_output=True, text=True
    )
    return out.stdout


def apply(root: Path, edits: Edits) -> None:
    for rel, old, new in edits:
        path = root / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, (rel, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")


def project(tmp_path: Path, head: Edits) -> Path:
    """The repository: base commit, then `head` committed on top (HEAD~1..HEAD)."""
    root = tmp_path / "widgets"
    shutil.copytree(PROJECT, root)
    apply(root, UNION_MARKERS)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    apply(root, head)
    git(root, "commit", "-qam", "head")
    return root


def line_of(path: Path, text: str, after: str = "") -> int:
    """The 1-based line of the first line holding `text` (after the line holding `after`)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if after in line) if after else 0
    return next(i for i in range(start, len(lines)) if text in lines[i]) + 1
