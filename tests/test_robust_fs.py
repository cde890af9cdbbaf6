"""Robustness of reading the file system and of very large input.

Issue "Robustness ...": symlink loops under `./...`, unreadable directories and files, a
50 MB Go file, a struct with 100,000 fields, type nesting 10,000 deep (no RecursionError),
non-UTF-8 file names.: "Syntax errors never stop the run"; MG002 for a
file that cannot be read.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from helpers import as_nobody

from markergen.config import load_config
from markergen.diagnostics import Diagnostic
from markergen.generate import generate
from markergen.golang.parser import MAX_TYPE_DEPTH
from markergen.model import Model
from markergen.pipeline import check_model, load_model

UNION = """package v1

// +enum
type Kind string

const (
\tKindA Kind = "A"
)

type U struct {
\t// +unionDiscriminator
\tKind Kind `json:"kind"`
\t// +unionMember
\t// +optional
\tA *string `json:"a,omitempty"`
}
"""


def _module(root: Path) -> None:
    (root / "go.mod").write_text("module example.com/fs\n")


def _load(root: Path, pattern: str = "./...") -> tuple[Model, list[Diagnostic]]:
    model = load_model([pattern], root)
    return model, check_model(model)


def test_symlink_loops_under_dots(tmp_path: Path) -> None:
    _module(tmp_path)
    api = tmp_path / "api" / "v1"
    api.mkdir(parents=True)
    (api / "types.go").write_text(UNION)
    (api / "loop").symlink_to(tmp_path / "api")  # api/v1/loop -> api: a cycle
    (api / "self").symlink_to(api)
    (tmp_path / "api" / "dangling").symlink_to(tmp_path / "missing")
    (api / "broken.go").symlink_to(tmp_path / "missing.go")
    model, diags = _load(tmp_path)
    assert [p.import_path for p in model.packages] == ["example.com/fs/api/v1"]
    assert "example.com/fs/api/v1.U" in model.structs
    # The dangling .go link is a file that cannot be read: MG002 naming it.
    mg002 = [d for d in diags if d.code == "MG002"]
    assert [d.pos.file for d in mg002] == ["api/v1/broken.go"]


def test_non_utf8_file_and_directory_names(tmp_path: Path) -> None:
    _module(tmp_path)
    base = os.fsencode(tmp_path)
    os.makedirs(base + b"/api/v\xff1")
    with open(base + b"/api/v\xff1/t\xfe.go", "wb") as f:
        f.write(UNION.encode())
    model, diags = _load(tmp_path)
    (pkg,) = model.packages
    assert len(model.structs) == 1 and len(model.enums) == 1
    assert not [d for d in diags if d.severity.value == "error"]
    # A surrogate-escaped name is still a str the reports can print.
    assert pkg.dir.startswith("api/v")


def _as_nobody(fn_root: Path, pattern: str) -> str:
    """load+check in a forked child that dropped root; returns the diagnostic lines."""

    def work() -> str:
        _, diags = _load(fn_root, pattern)
        return "\n".join(f"{d.code} {d.pos.file}: {d.message}" for d in diags)

    return as_nobody(work)


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to drop to another user")
def test_unreadable_directory_and_file() -> None:
    base = Path(tempfile.mkdtemp(prefix="mg-robust-fs-"))
    try:
        base.chmod(0o755)
        _module(base)
        for sub in ("a", "b", "c"):
            (base / sub).mkdir()
            (base / sub / "types.go").write_text(UNION.replace("package v1", f"package {sub}"))
        (base / "b").chmod(0o000)  # unreadable directory: skipped under ./...
        (base / "c" / "types.go").chmod(0o000)  # unreadable file: MG002
        out = _as_nobody(base, "./...")
        assert not out.startswith("EXC"), out
        assert "MG002 c/types.go: cannot read file: Permission denied" in out, out
        # Naming the unreadable directory directly is a clear pattern error, not a crash.
        out_b = _as_nobody(base, "./b")
        assert out_b.startswith("EXC InputError: ./b: "), out_b
    finally:
        (base / "b").chmod(0o755)
        shutil.rmtree(base)


@pytest.mark.parametrize(
    "type_text",
    [
        "*" * 10_000 + "string",
        "[]" * 10_000 + "string",
        "map[string]" * 10_000 + "string",
        "(" * 10_000 + "string" + ")" * 10_000,
        "struct { X " * 10_000 + "string" + " }" * 10_000,
    ],
    ids=["pointers", "slices", "maps", "parens", "structs"],
)
def test_type_nesting_ten_thousand_deep(tmp_path: Path, type_text: str) -> None:
    _module(tmp_path)
    (tmp_path / "v1").mkdir()
    src = UNION + f"\ntype Deep struct {{\n\tF {type_text} `json:\"f\"`\n}}\n"
    (tmp_path / "v1" / "types.go").write_text(src)
    model, diags = _load(tmp_path)
    deep = [d for d in diags if d.code == "MG001" and "nested more than" in d.message]
    assert deep and deep[0].pos.line == src.count("\n", 0, src.index("\tF ")) + 1
    assert f"{MAX_TYPE_DEPTH} levels" in deep[0].message
    # The rest of the file is still read.
    assert "example.com/fs/v1.U" in model.structs and "example.com/fs/v1.Deep" in model.structs


def test_named_type_chains_ten_thousand_deep_generate(tmp_path: Path) -> None:
    """Chains of declarations rather than of syntax: pointer fields, named types, and
    inlined embedded structs (merged to a bounded depth) all generate."""
    n = 10_000
    _module(tmp_path)
    (tmp_path / "v1").mkdir()
    parts = [UNION]
    parts += [f"type P{i} struct {{\n\tN *P{i + 1} `json:\"n,omitempty\"`\n}}\n" for i in range(n)]
    parts.append(f"type P{n} struct{{}}\n")
    parts.append("// +enum\ntype E0 E1\n")
    parts += [f"type E{i} E{i + 1}\n" for i in range(1, n)]
    parts.append(f'type E{n} string\n\nconst EV E0 = "v"\n')
    m = 2_000
    parts += [f"type I{i} struct {{\n\tI{i + 1} `json:\",inline\"`\n}}\n" for i in range(m)]
    parts.append(f'type I{m} struct {{\n\tX string `json:"x"`\n}}\n')
    (tmp_path / "v1" / "types.go").write_text("\n".join(parts))
    out = tmp_path / "out"
    cfg = load_config(tmp_path, {"out-dir": str(out)})
    result = generate(cfg, ["./..."], tmp_path, verify=False)
    assert result.exit_code == 0, [str(d) for d in result.diagnostics][:5]
    assert sorted(p.name for p in out.iterdir()) == [
        "openapi-v2.json", "openapi-v3.json", "unions_table.json", "unions_table.py"
    ]


def test_struct_with_100000_fields(tmp_path: Path) -> None:
    _module(tmp_path)
    (tmp_path / "v1").mkdir()
    fields = "".join(f"\tF{i} string `json:\"f{i}\"`\n" for i in range(100_000))
    (tmp_path / "v1" / "types.go").write_text(UNION + f"\ntype Wide struct {{\n{fields}}}\n")
    model, diags = _load(tmp_path)
    wide = model.structs["example.com/fs/v1.Wide"]
    assert len(wide.fields) == 100_000
    assert wide.fields[-1].json_name == "f99999"
    assert not [d for d in diags if d.severity.value == "error"]


def test_fifty_megabyte_go_file(tmp_path: Path) -> None:
    _module(tmp_path)
    (tmp_path / "v1").mkdir()
    # Mostly one giant comment plus many small types: the size of a vendored blob.
    block = "// " + "x" * 1000 + "\n"
    filler = block * 49_500  # ~49.7 MB of comment
    types = "".join(
        f"type T{i} struct {{\n\tA string `json:\"a\"`\n}}\n\n" for i in range(20_000)
    )  # ~1 MB of declarations
    text = UNION + filler + types
    assert len(text) > 50_000_000
    (tmp_path / "v1" / "big.go").write_text(text)
    model, diags = _load(tmp_path)
    assert len(model.structs) == 20_001
    assert not [d for d in diags if d.severity.value == "error"]
