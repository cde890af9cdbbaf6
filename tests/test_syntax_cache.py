"""The per-file syntax cache (markergen/golang/records.py, `markergen.cache.SyntaxStore`):
a Go file whose bytes were read before is not parsed again, and every run gives what a
run without the cache gives, byte for byte. Real grammar on real Go text, real files on
disk (testdata/syntaxcache, edited in a seeded random order)."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest
from helpers import TESTDATA, run_main

from markergen.golang.parser import GoParser
from markergen.golang.records import decode, encode
from markergen.golang.source import DecodeError, prepare

PROJECT = TESTDATA / "syntaxcache"


def _go_files() -> list[Path]:
    return sorted(p for p in TESTDATA.rglob("*.go") if p.is_file())


def test_records_read_back_equal_the_parsers_over_every_testdata_file() -> None:
    parser = GoParser()
    checked = 0
    for path in _go_files():
        try:
            data = prepare(path.as_posix(), path.read_bytes())
        except DecodeError:
            continue
        for fields in (True, False):
            parsed = parser.parse_prepared(path.as_posix(), data, fields)
            fresh = parser.parse_prepared("moved/" + path.name, data, fields)
            # long texts as offsets into the file's bytes (as the cache keeps them), or not
            for text in (encode(parsed, data), encode(parsed)):
                assert text, path
                # read back under another name: positions follow the name given
                assert decode(text, "moved/" + path.name, data) == fresh, path
            checked += 1
    assert checked > 200  # testdata holds hundreds of Go files, syntax errors included


@pytest.mark.parametrize(
    "damage",
    [b"", b"[", b"[1]", b'{"a": 1}', b"[2" + b", 0" * 11 + b"]", b"\xff\xfe"],
)
def test_a_text_that_is_not_a_record_is_a_miss(damage: bytes) -> None:
    assert decode(damage, "x.go", b"package x\n") is None


def _copy(tmp_path: Path, name: str) -> Path:
    dest = tmp_path / name
    shutil.copytree(PROJECT, dest)
    return dest


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths the parser reads, in order (a file served by the cache is not one)."""
    seen: list[str] = []
    real = GoParser.parse_prepared

    def counted(self: GoParser, path: str, data: bytes, struct_fields: bool = True) -> object:
        seen.append(path)
        return real(self, path, data, struct_fields)

    monkeypatch.setattr(GoParser, "parse_prepared", counted)
    return seen


def test_after_touching_one_file_only_that_file_is_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parses: list[str]
) -> None:
    root = _copy(tmp_path, "p")
    monkeypatch.setenv("MARKERGEN_CACHE_DIR", str(tmp_path / "cache"))
    assert run_main(["check", "./api/..."], root).code == 0
    assert len(parses) == 16  # every file of the project, cold
    assert not (tmp_path / "cache" / "syntax").exists()  # a first run keeps no records
    parses.clear()
    assert run_main(["dump", "./api/..."], root).code == 0
    assert len(parses) == 16  # a run after another keeps them
    parses.clear()
    route = root / "api" / "network" / "v1" / "route_types.go"
    route.write_text(route.read_text().replace("is a container image", "is an image"))
    assert run_main(["check", "./api/..."], root).code == 0
    assert parses == ["api/network/v1/route_types.go"]
    parses.clear()
    # generate and dump read the same records: nothing is parsed for them
    assert run_main(["generate", "-q", "./api/..."], root).code == 0
    assert run_main(["dump", "./api/..."], root).code == 0
    assert parses == []


def test_no_cache_writes_no_records_and_a_damaged_record_is_parsed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parses: list[str]
) -> None:
    root = _copy(tmp_path, "p")
    cache = tmp_path / "cache"
    monkeypatch.setenv("MARKERGEN_CACHE_DIR", str(cache))
    assert run_main(["generate", "--no-cache", "-q", "./api/..."], root).code == 0
    assert not cache.exists()
    assert run_main(["generate", "-q", "./api/..."], root).code == 0  # the first run
    cold = run_main(["dump", "./api/..."], root)
    (pack,) = (cache / "syntax").glob("*.pack")
    head, body = pack.read_bytes().split(b"\n", 1)
    assert len(json.loads(head)) == 16
    # every record damaged, the index intact: each fails its checksum
    pack.write_bytes(head + b"\n" + body.replace(b"[", b"("))
    damaged = pack.read_bytes()
    assert run_main(["dump", "--no-cache", "./api/..."], root).stdout == cold.stdout
    assert pack.read_bytes() == damaged  # --no-cache: untouched
    parses.clear()
    assert run_main(["check", "./api/..."], root).code == 0
    assert len(parses) == 16  # every damaged record was parsed again...
    parses.clear()
    assert run_main(["dump", "./api/..."], root).stdout == cold.stdout
    assert parses == []  # ...and kept again
    pack.write_bytes(b"not a pack")  # a damaged index: the pack holds nothing
    assert run_main(["dump", "--no-cache", "./api/..."], root).stdout == cold.stdout
    parses.clear()
    assert run_main(["check", "--strict", "./api/..."], root).code == 0
    assert len(parses) == 16


def test_the_pack_keeps_what_runs_use_and_does_not_grow_without_bound(tmp_path: Path) -> None:
    from markergen.cache import SyntaxStore

    store = SyntaxStore(tmp_path)
    for i in range(10):
        store.put(f"k{i}", b"x" * i)
    assert store.save()
    # a run using two records and putting one new keeps those three; the 8 others are
    # more than twice as many, so they go
    run = SyntaxStore(tmp_path)
    assert run.get("k1") == b"x" and run.get("k2") == b"xx" and run.get("nope") is None
    run.put("new", b"n")
    assert run.save()
    after = SyntaxStore(tmp_path)
    assert [after.get(k) for k in ("k1", "k2", "new")] == [b"x", b"xx", b"n"]
    assert after.get("k5") is None
    # the others stay while they are no more than twice as many as those used
    again = SyntaxStore(tmp_path)
    assert again.get("k1") == b"x"
    again.put("newer", b"m")
    assert again.save()
    assert SyntaxStore(tmp_path).get("k2") == b"xx"
    # a run that put nothing writes nothing
    assert not after.save()


# ---- a seeded random sequence of edits -------------------------------------------------

_DOC = re.compile(r"^(\t?// )([a-z][^+\n]*)$", re.MULTILINE)
_STRUCT = re.compile(r"^type (\w+) struct \{\n", re.MULTILINE)
_ADDED = re.compile(r"^\t// extra\d+ was added by an edit\.\n\tExtra\d+ \*string `[^`]*`\n",
                    re.MULTILINE)  # fmt: skip
_MARKERS = [("// +optional", "// +required"), ("// +required", "// +optional"),
            ("// +unionMember\n", "// +unionMember,optional\n"),
            ("// +enum\n", "// +enum\n// +kubebuilder:validation:MinLength=1\n")]  # fmt: skip


def _edit(root: Path, rng: random.Random, step: int) -> str:
    """One edit of one file: a doc comment, a marker, a field added or removed."""
    files = [*sorted(root.rglob("*_types.go")), root / "api" / "shared" / "enums.go"]
    path = rng.choice(files)
    text = path.read_text()
    kind = rng.choice(["doc", "marker", "add", "remove"])
    if kind == "doc":
        docs = list(_DOC.finditer(text))
        m = rng.choice(docs)
        new = text[: m.start(2)] + f"(edit {step}) " + text[m.start(2) :]
    elif kind == "marker":
        old, repl = rng.choice([p for p in _MARKERS if p[0] in text] or [("\n", "\n")])
        at = [m.start() for m in re.finditer(re.escape(old), text)]
        i = rng.choice(at)
        new = text[:i] + repl + text[i + len(old) :]
    elif kind == "add":
        m = rng.choice(list(_STRUCT.finditer(text)))
        line = f'\t// extra{step} was added by an edit.\n\tExtra{step} *string `json:"extra{step},omitempty"`\n'
        new = text[: m.end()] + line + text[m.end() :]
    else:
        added = list(_ADDED.finditer(text))
        if not added:
            return _edit(root, rng, step)
        m = rng.choice(added)
        new = text[: m.start()] + text[m.end() :]
    path.write_text(new)
    return f"{kind} {path.relative_to(root)}"


def _outputs(root: Path) -> dict[str, bytes]:
    out = root / "openapi"
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())} if out.is_dir() else {}


def test_outputs_with_and_without_the_syntax_cache_are_identical_over_random_edits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parses: list[str]
) -> None:
    cached, cold = _copy(tmp_path, "cached"), _copy(tmp_path, "cold")
    monkeypatch.setenv("MARKERGEN_CACHE_DIR", str(tmp_path / "cache"))
    rng_cached, rng_cold = random.Random(38), random.Random(38)
    kinds: set[str] = set()
    for step in range(24):
        if step:
            did = _edit(cached, rng_cached, step)
            assert _edit(cold, rng_cold, step) == did
            kinds.add(did.split()[0])
        parsed = 0
        runs = [["check", "--format", "json", "./api/..."], ["generate", "./api/..."],
                ["dump", "./api/..."]]  # fmt: skip
        for args in runs:
            parses.clear()
            a = run_main(args, cached)
            parsed += len(parses)
            b = run_main([args[0], "--no-cache", *args[1:]], cold)
            # dump lists the absolute paths of the files read (go.mod): the copies' own
            assert a.code == b.code, (step, args)
            assert a.stdout.replace(str(cached), "ROOT") == b.stdout.replace(str(cold), "ROOT")
            assert a.stderr == b.stderr, (step, args)
        assert _outputs(cached) == _outputs(cold), step
        # with the cache, the three runs after one edit parse at most the file edited; at
        # the start, the first run keeps no records and the second keeps them
        assert parsed <= (2 * 16 if step == 0 else 1), step
    assert kinds == {"doc", "marker", "add", "remove"}
