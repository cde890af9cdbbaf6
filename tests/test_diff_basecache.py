"""The base revision of `markergen diff` kept in markergen's one run cache (command
`diff-base`), keyed by its commit: a second run reads it from there (shown by deleting one
of its blobs from the repository: the cached run still answers, the uncached one cannot),
the report is the same byte for byte, a change of the base commit is never answered from
the cache, and a damaged cache file is a miss. Fixture: tests/diffunion.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from diffunion import CRD, DROP_GCP, GO, PROJECT, apply, git, project
from helpers import TESTDATA

from markergen.diff import DiffInputError, run_diff
from markergen.diff.basecache import _decode, _encode
from markergen.diff.sources import read_side
from markergen.diff.surface import Surface


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("MARKERGEN_CACHE_DIR", str(where))
    return where


def _drop_object(root: Path, spec: str) -> None:
    oid = git(root, "rev-parse", spec).strip()
    (root / ".git" / "objects" / oid[:2] / oid[2:]).unlink()


def test_the_base_is_read_from_the_cache_the_second_time(tmp_path: Path, cache: Path) -> None:
    root = project(tmp_path, DROP_GCP)
    cold = run_diff("HEAD~1", "HEAD", root, "json").text
    assert list(cache.glob("diff-base-*.cache"))
    # the base's Go file is gone from the repository: only the cache still knows it
    _drop_object(root, "HEAD~1:" + GO)
    assert run_diff("HEAD~1", "HEAD", root, "json").text == cold
    with pytest.raises(DiffInputError, match=GO):
        run_diff("HEAD~1", "HEAD", root, "json", cache=False)


def test_another_base_commit_is_not_answered_from_the_cache(tmp_path: Path, cache: Path) -> None:
    root = project(tmp_path, DROP_GCP)
    first = run_diff("HEAD~1", "HEAD", root, "json")
    assert [c.kind for c in first.changes] == ["member-removed"]
    # one more commit: HEAD~1 is now the commit that removed the member
    apply(root, (("api/v1/widget_types.go", "Enum=AWS;GCP", "Enum=AWS;GCP;Azure"),))
    apply(
        root,
        (
            (
                CRD,
                "                    - GCP\n",
                "                    - GCP\n                    - Azure\n",
            ),
        ),
    )
    git(root, "commit", "-qam", "azure")
    second = run_diff("HEAD~1", "HEAD", root, "json")
    assert [c.kind for c in second.changes] == ["enum-value-added"]
    assert second.text == run_diff("HEAD~1", "HEAD", root, "json", cache=False).text


def test_a_damaged_cache_file_is_a_miss(tmp_path: Path, cache: Path) -> None:
    root = project(tmp_path, DROP_GCP)
    cold = run_diff("HEAD~1", "HEAD", root, "json").text
    for f in cache.glob("diff-base-*.cache"):
        f.write_bytes(f.read_bytes()[:100])
    assert run_diff("HEAD~1", "HEAD", root, "json").text == cold


def test_a_change_that_needs_the_base_model_reads_it_again(tmp_path: Path, cache: Path) -> None:
    """A CRD node gone from the head (the `source` object with its union) is mapped to
    the Go by the base's model, which the cache does not keep."""
    crd = (PROJECT / CRD).read_text()
    start = crd.index("              source:\n")
    end = crd.index("\n            type: object\n", start) + 1  # the spec's own type
    root = project(
        tmp_path,
        (
            (GO, '\t// +optional\n\tSource *Source `json:"source,omitempty"`\n', ""),
            (GO, "\t// Source is where the widget comes from.\n", ""),
            (CRD, crd[start:end], ""),
        ),
    )
    uncached = run_diff("HEAD~1", "HEAD", root, "json", cache=False).text
    (change,) = json.loads(uncached)["changes"]
    assert (change["kind"], change["go_type"], change["base"]) == ("union-removed", "Source", True)
    assert change["crd"]["base"] is True
    assert run_diff("HEAD~1", "HEAD", root, "json").text == uncached  # stores the base
    assert run_diff("HEAD~1", "HEAD", root, "json").text == uncached  # reads it


def test_a_surface_reads_back_equal() -> None:
    side = read_side("base", str(TESTDATA / "diff" / "base"), TESTDATA / "diff")
    surface = side.surface
    assert surface.types
    assert _decode(Surface, _encode(surface), {}) == surface
