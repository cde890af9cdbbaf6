"""The output cache of `markergen generate` (docs/performance.md, "Cache"): content-hash
keyed, safe to delete, ignored when corrupt, never stale. Real files on disk, real runs."""

from __future__ import annotations

import shutil
from pathlib import Path
from unittest import mock

import pytest

from markergen.cache import CACHE_DIR_NAME, ENV_CACHE_DIR, OutputCache, cache_dir
from markergen.config import Config, load_config
from markergen.generate import GenerateResult, generate

UNION_GO = """package v1

// +enum
type UnionType string

const (
\t// FieldA selects fieldA.
\tFieldA UnionType = "FieldA"
\t// FieldB selects fieldB.
\tFieldB UnionType = "FieldB"
)

// Union is a the current KEP union.
type Union struct {
\t// +unionDiscriminator
\t// +required
\tType UnionType `json:"type"`
\t// +unionMember
\t// +optional
\tFieldA *string `json:"fieldA,omitempty"`
\t// +unionMember
\t// +optional
\tFieldB *int32 `json:"fieldB,omitempty"`
}
"""


@pytest.fixture
def module(tmp_path: Path) -> Path:
    (tmp_path / "go.mod").write_text("module example.com/cached\n")
    api = tmp_path / "api" / "v1"
    api.mkdir(parents=True)
    (api / "types.go").write_text(UNION_GO)
    return tmp_path


def run(root: Path, **kw: object) -> tuple[int, dict[str, str]]:
    cfg = load_config(root)
    result = generate(cfg, ["./api/..."], root, verify=False, **kw)  # type: ignore[arg-type]
    outputs = {p.name: p.read_text() for p in sorted((root / "openapi").glob("*"))}
    return result.exit_code, outputs


class _Miss(Exception):
    pass


def _no_model(*args: object, **kw: object) -> None:
    raise _Miss


def generate_cached(
    cfg: Config, patterns: list[str], cwd: Path, *, verify: bool, cache_dir: Path | None = None
) -> GenerateResult | None:
    """`generate` when the cache holds this run's results, else None: a run that would
    read the Go packages is stopped before it does (nothing written, nothing stored)."""
    with mock.patch("markergen.pipeline.load_model", _no_model):
        try:
            return generate(cfg, patterns, cwd, verify=verify, cache_dir=cache_dir)
        except _Miss:
            return None


def cache_files(root: Path) -> list[Path]:
    return sorted((root / CACHE_DIR_NAME).glob("generate-*.cache"))


def test_second_run_is_served_from_the_cache_with_identical_output(module: Path) -> None:
    cfg = load_config(module)
    assert generate_cached(cfg, ["./api/..."], module, verify=False) is None  # cold: miss
    code, first = run(module)
    assert code == 0 and len(cache_files(module)) == 1
    (module / "openapi" / "openapi-v2.json").unlink()  # the hit must rewrite it
    hit = generate_cached(cfg, ["./api/..."], module, verify=False)
    assert hit is not None and hit.exit_code == 0
    again = {p.name: p.read_text() for p in sorted((module / "openapi").glob("*"))}
    assert again == first
    assert '"FieldA"' in first["openapi-v2.json"]
    # The cache directory ignores itself in git.
    assert (module / CACHE_DIR_NAME / ".gitignore").read_text().splitlines()[-1] == "*"


def test_editing_one_go_file_is_never_served_stale(module: Path) -> None:
    _, before = run(module)
    types = module / "api" / "v1" / "types.go"
    # A new enum value that selects no member (valid; the current KEP's empty member).
    types.write_text(types.read_text().replace(")\n", '\tFieldC UnionType = "FieldC"\n)\n', 1))
    cfg = load_config(module)
    assert generate_cached(cfg, ["./api/..."], module, verify=False) is None
    code, after = run(module)
    assert code == 0
    assert '"FieldC"' in after["unions_table.json"]
    assert '"FieldC"' not in before["unions_table.json"]


def test_adding_a_file_and_changing_options_are_misses(module: Path) -> None:
    run(module)
    cfg = load_config(module)
    assert generate_cached(cfg, ["./api/..."], module, verify=False) is not None
    other = load_config(module, {"title": "another title"})
    assert generate_cached(other, ["./api/..."], module, verify=False) is None
    (module / "api" / "v1" / "more.go").write_text("package v1\n\ntype Extra struct{}\n")
    assert generate_cached(cfg, ["./api/..."], module, verify=False) is None
    _, outputs = run(module)
    assert "com.example.cached.api.v1.Extra" in outputs["openapi-v2.json"]


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b"",
        lambda b: b"not json\n" + b[:100],
        lambda b: b[: len(b) // 2],  # truncated body: checksum mismatch
        lambda b: b.replace(b'"format": 2', b'"format": "x"'),
        lambda b: b[:-10] + b"0123456789",  # same length, different body
        lambda b: (
            b.split(b"\n", 1)[0].replace(b'"outputs": [', b'"outputs": [[1, 2], ')
            + b"\n"
            + b.split(b"\n", 1)[1]
        ),
        lambda b: bytes([0xFF, 0xFE]) + b,
    ],
)
def test_corrupt_cache_is_a_miss_and_is_rewritten(module: Path, damage: object) -> None:
    _, good = run(module)
    (entry,) = cache_files(module)
    entry.write_bytes(damage(entry.read_bytes()))  # type: ignore[operator]
    cfg = load_config(module)
    assert generate_cached(cfg, ["./api/..."], module, verify=False) is None
    shutil.rmtree(module / "openapi")
    code, outputs = run(module)
    assert code == 0 and outputs == good
    assert generate_cached(cfg, ["./api/..."], module, verify=False) is not None


def test_cache_is_safe_to_delete_and_can_be_turned_off(module: Path) -> None:
    _, first = run(module)
    shutil.rmtree(module / CACHE_DIR_NAME)
    code, second = run(module)
    assert code == 0 and second == first
    shutil.rmtree(module / CACHE_DIR_NAME)
    code, third = run(module, use_cache=False)
    assert code == 0 and third == first
    assert not (module / CACHE_DIR_NAME).exists()


def test_cache_dir_from_environment_and_argument(module: Path, tmp_path: Path) -> None:
    assert cache_dir(module, {}) == module / CACHE_DIR_NAME
    assert cache_dir(module, {ENV_CACHE_DIR: str(tmp_path / "elsewhere")}) == tmp_path / "elsewhere"
    run(module, cache_dir=tmp_path / "elsewhere")
    assert list((tmp_path / "elsewhere").glob("generate-*.cache"))
    assert not (module / CACHE_DIR_NAME).exists()


def test_unwritable_cache_only_costs_speed(module: Path) -> None:
    blocker = module / "blocker"
    blocker.write_text("a file where the cache directory should be")
    code, outputs = run(module, cache_dir=blocker / "cache")
    assert code == 0 and "openapi-v3.json" in outputs


def test_errors_are_not_cached(tmp_path: Path) -> None:
    (tmp_path / "go.mod").write_text("module example.com/bad\n")
    api = tmp_path / "api"
    api.mkdir()
    # MG101: +enum on a non-scalar type is an error: nothing written, nothing cached.
    (api / "t.go").write_text("package api\n\n// +enum\ntype Bad []string\n")
    code, outputs = run(tmp_path)
    assert code == 1 and outputs == {}
    assert cache_files(tmp_path) == []


def test_diagnostics_survive_the_cache(module: Path) -> None:
    # An enum with no constants: warning MG102, which a hit must report again.
    (module / "api" / "v1" / "extra.go").write_text("package v1\n\n// +enum\ntype Lonely string\n")
    cfg = load_config(module)
    cold = generate(cfg, ["./api/..."], module, verify=False)
    assert cold.exit_code == 0
    warm = generate_cached(cfg, ["./api/..."], module, verify=False)
    assert warm is not None
    assert any(d.code == "MG102" for d in cold.diagnostics)
    assert warm.diagnostics == cold.diagnostics


def test_missing_pattern_gives_no_cache_slot(module: Path) -> None:
    assert OutputCache.open(module / ".c", ["./nope/..."], module, {}) is None


def test_an_edit_in_an_imported_package_is_a_miss(tmp_path: Path) -> None:
    """The enum's values come from a package the patterns do not name: the cache must
    still notice when that package changes (issue 18: the key covers every file read)."""
    (tmp_path / "go.mod").write_text("module example.com/imp\n")
    (tmp_path / "consts").mkdir()
    consts = tmp_path / "consts" / "c.go"
    consts.write_text('package consts\n\nconst TCP = "TCP"\n')
    (tmp_path / "api").mkdir()
    (tmp_path / "api" / "t.go").write_text(
        'package v1\n\nimport "example.com/imp/consts"\n\n// +enum\ntype Protocol string\n\n'
        "const (\n\tProtocolTCP Protocol = Protocol(consts.TCP)\n)\n\n"
        'type Port struct {\n\tProtocol Protocol `json:"protocol"`\n}\n'
    )
    cfg = load_config(tmp_path)
    first = generate(cfg, ["./api/..."], tmp_path, verify=False, cache_dir=tmp_path / "c")
    assert first.exit_code == 0
    v3 = (tmp_path / "openapi" / "openapi-v3.json").read_text()
    assert '"TCP"' in v3
    assert generate_cached(cfg, ["./api/..."], tmp_path, verify=False, cache_dir=tmp_path / "c")
    consts.write_text('package consts\n\nconst TCP = "tcp"\n')
    hit = generate_cached(cfg, ["./api/..."], tmp_path, verify=False, cache_dir=tmp_path / "c")
    assert hit is None
    generate(cfg, ["./api/..."], tmp_path, verify=False, cache_dir=tmp_path / "c")
    assert '"tcp"' in (tmp_path / "openapi" / "openapi-v3.json").read_text()
