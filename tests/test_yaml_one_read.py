"""Issue 38 item 2: a `check` or `crd` run reads each CRD and kept-object file once and
composes each distinct YAML text once, whichever rules need it (MG508 and the proofs in
the patcher, MG511, MG520 / MG521, the kept objects, the CRD discovery, the cache keys):
they all read through the run's one `markergen.yamlio.YamlReader`.

Counted at the bottom: every read of a file (`Path.read_bytes`, `Path.read_text`,
`open`, `Path.open`) and every libyaml compose (`yaml.compose_all`), in-process runs of the real CLI
on a copy of the gameserver fixture project, with a test suite whose cases repeat one
object text and an example file that repeats a sample's text.
"""

from __future__ import annotations

import builtins
import collections
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import TESTDATA

from markergen.cli import main
from markergen.yamlio import YamlReader, load_documents

GAMESERVER = TESTDATA / "projects" / "gameserver"
SUITE_DIR = Path("config/crd/bases/tests/fleets.games.example.com")
OBJECT = """apiVersion: games.example.com/v1
kind: Fleet
metadata:
  name: suite
spec:
  replicas: 3
  healthCheck:
    type: TCP
"""
SUITE = (
    "apiVersion: apiextensions.k8s.io/v1\nname: Fleet\ncrdName: fleets.games.example.com\n"
    "tests:\n  onCreate:\n"
    + "".join(
        f"  - name: case {i}\n    initial: |\n"
        + "".join(f"      {line}\n" for line in OBJECT.splitlines())
        + "    expected: |\n"
        + "".join(f"      {line}\n" for line in OBJECT.splitlines())
        for i in range(3)
    )
)


class Counts:
    """Reads per file and composes per text, counted while installed."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.reads: collections.Counter[str] = collections.Counter()
        self.composes: collections.Counter[str] = collections.Counter()

    def _file(self, path: Any) -> None:
        p = Path(path)
        if p.suffix not in (".yaml", ".yml", ".md"):
            return
        try:
            rel = p.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return
        # the writer compares a file it replaces with what is on disk at that moment:
        # the output step, not a reading of the run's inputs
        if sys._getframe(2).f_code.co_filename.endswith(("emit/writer.py", "emit\\writer.py")):
            return
        self.reads[rel] += 1

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        read_bytes, read_text, opener = Path.read_bytes, Path.read_text, builtins.open
        path_open = Path.open
        compose_all = yaml.compose_all

        def counted_bytes(path: Path) -> bytes:
            self._file(path)
            return read_bytes(path)

        def counted_text(path: Path, *args: Any, **kwargs: Any) -> str:
            self._file(path)
            return read_text(path, *args, **kwargs)

        def counted_open(file: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(file, str | Path):
                self._file(file)
            return opener(file, *args, **kwargs)

        def counted_path_open(path: Path, *args: Any, **kwargs: Any) -> Any:
            # read_bytes and read_text open the file through it: counted there
            if "pathlib" not in sys._getframe(1).f_code.co_filename:
                self._file(path)
            return path_open(path, *args, **kwargs)

        def counted_compose(stream: Any, *args: Any, **kwargs: Any) -> Iterator[Any]:
            if isinstance(stream, str):
                self.composes[stream] += 1
            return compose_all(stream, *args, **kwargs)

        monkeypatch.setattr(Path, "read_bytes", counted_bytes)
        monkeypatch.setattr(Path, "read_text", counted_text)
        monkeypatch.setattr(builtins, "open", counted_open)
        monkeypatch.setattr(Path, "open", counted_path_open)
        monkeypatch.setattr(yaml, "compose_all", counted_compose)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "gameserver"
    shutil.copytree(GAMESERVER, root)
    (root / SUITE_DIR).mkdir(parents=True)
    (root / SUITE_DIR / "repeated.testsuite.yaml").write_text(SUITE, encoding="utf-8")
    sample = (root / "config/samples/games_v1_fleet.yaml").read_text(encoding="utf-8")
    (root / "examples/copy-of-sample.yaml").write_text(sample, encoding="utf-8")
    monkeypatch.chdir(root)
    monkeypatch.setenv("MARKERGEN_CACHE_DIR", str(tmp_path / "cache"))
    return root


def _inputs(root: Path) -> set[str]:
    """The CRD and kept-object files of the fixture as paths relative to it."""
    crds = {p.relative_to(root).as_posix() for p in root.glob("config/crd/bases/*.yaml")}
    crds |= {p.relative_to(root).as_posix() for p in root.glob("charts/*/templates/crds/*.yaml")}
    kept = {
        "config/samples/games_v1_fleet.yaml",
        "examples/arena-fleet.yaml",
        "examples/copy-of-sample.yaml",
        (SUITE_DIR / "repeated.testsuite.yaml").as_posix(),
    }
    return crds | kept


def _run(counts: Counts, monkeypatch: pytest.MonkeyPatch, args: list[str]) -> int:
    counts.install(monkeypatch)
    try:
        return main(args)
    finally:
        monkeypatch.undo()


@pytest.mark.parametrize(
    "args",
    [
        ["check", "-q", "--format", "json"],
        ["check", "-q", "--format", "json", "--no-cache"],
        ["crd", "-q"],
        ["crd", "-q", "--no-cache"],
        ["crd", "-q", "--verify", "--no-cache"],
    ],
    ids=lambda a: " ".join(a),
)
def test_each_crd_and_object_file_is_read_and_composed_once(
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
) -> None:
    counts = Counts(project)
    code = _run(counts, monkeypatch, args)
    capsys.readouterr()
    assert code in (0, 1)
    inputs = _inputs(project)
    assert inputs <= set(counts.reads), sorted(inputs - set(counts.reads))
    twice = {f: n for f, n in counts.reads.items() if n != 1}
    assert not twice, twice
    # every CRD text composed once, by whichever rule asked first
    crds = {t: n for t, n in counts.composes.items() if "kind: CustomResourceDefinition" in t}
    assert len(crds) >= 2 and set(crds.values()) == {1}, crds
    # the suite's six copies of one object are one value
    assert counts.composes[OBJECT] == 1
    # a copy of a file is composed again once the rules are done with the first (the
    # reader holds a text's documents only while a rule does): never more often than
    # there are copies
    sample = (project / "config/samples/games_v1_fleet.yaml").read_text(encoding="utf-8")
    assert 1 <= counts.composes[sample] <= 2
    others = [(n, t[:60]) for t, n in counts.composes.items() if t != sample and n != 1]
    assert not others, others


def test_check_finds_channel_crds_with_the_reading_it_checks_them_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """gateway-api's channel layout is found by looking into the files for a CRD: that
    look is the run's one reading of them, not a read of its own."""
    root = tmp_path / "gatewaychannels"
    shutil.copytree(TESTDATA / "projects" / "gatewaychannels", root)
    monkeypatch.chdir(root)
    monkeypatch.setenv("MARKERGEN_CACHE_DIR", str(tmp_path / "cache"))
    counts = Counts(root)
    assert _run(counts, monkeypatch, ["check", "-q", "--format", "json"]) == 0
    capsys.readouterr()
    crds = {p.relative_to(root).as_posix() for p in root.glob("config/crd/*/*.yaml")}
    assert len(crds) == 2
    assert {f: counts.reads[f] for f in crds} == dict.fromkeys(crds, 1)


def test_the_reader_keeps_one_composition_per_text(tmp_path: Path) -> None:
    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    first.write_text(OBJECT, encoding="utf-8")
    second.write_text(OBJECT, encoding="utf-8")
    reader = YamlReader()
    composed: list[str] = []
    real: Callable[..., Any] = yaml.compose_all

    def spy(stream: Any, *args: Any, **kwargs: Any) -> Any:
        composed.append(stream)
        return real(stream, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(yaml, "compose_all", spy)
        docs = reader.documents(reader.text(first))
        assert reader.documents(reader.text(second)) is docs
        assert reader.value(OBJECT) is reader.value(OBJECT)
        assert composed == [OBJECT, OBJECT]  # once as documents, once as a value
        kept = reader.value(OBJECT)
        reader.release()  # a run's end: nothing is held any more
        assert reader.value(OBJECT) == kept and reader.value(OBJECT) is not kept
    assert composed == [OBJECT, OBJECT, OBJECT]
    assert [d.value for d in docs] == [d.value for d in load_documents(OBJECT)]


def test_the_reader_reads_text_as_a_text_mode_file_does(tmp_path: Path) -> None:
    path = tmp_path / "crlf.yaml"
    path.write_bytes(b"a: 1\r\nb: |\r\n  x\r  y\r\n")
    reader = YamlReader()
    assert reader.text(path) == path.read_text(encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"a: \xff\n")
    with pytest.raises(UnicodeDecodeError):
        reader.text(bad)
    assert reader.loose_text(bad) == bad.read_text(encoding="utf-8", errors="replace")
    with pytest.raises(OSError):
        reader.data(tmp_path / "missing.yaml")


def test_a_text_that_is_not_yaml_fails_each_time_it_is_asked_for() -> None:
    from markergen.yamlio import YamlError

    reader = YamlReader()
    for _ in range(2):
        with pytest.raises(YamlError):
            reader.documents("a: [1\n")
        with pytest.raises(YamlError):
            reader.value("a: [1\n")
