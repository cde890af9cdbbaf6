"""Atomic, all-or-nothing output writing."""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import as_nobody
from threepackages import write_module

from markergen.emit import writer
from markergen.emit.writer import OutputError, verify_outputs, write_outputs
from markergen.pipeline import load_model


def _snapshot(d: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir())}


def test_writes_new_files_and_reports_them(tmp_path: Path) -> None:
    out = {tmp_path / "a.json": "A\n", tmp_path / "sub" / "b.py": "B = 'é'\n"}
    report = write_outputs(out)
    assert set(report.written) == set(out) and report.unchanged == ()
    assert (tmp_path / "sub" / "b.py").read_text(encoding="utf-8") == "B = 'é'\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "sub"]  # no temporaries


def test_unchanged_outputs_keep_their_mtime(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text("same\n")
    b.write_text("old\n")
    past = 1_000_000_000_000_000_000
    os.utime(a, ns=(past, past))
    os.utime(b, ns=(past, past))
    report = write_outputs({a: "same\n", b: "new\n"})
    assert report.unchanged == (a,) and report.written == (b,)
    assert a.stat().st_mtime_ns == past
    assert b.stat().st_mtime_ns != past and b.read_text() == "new\n"


def test_existing_mode_is_kept(tmp_path: Path) -> None:
    a = tmp_path / "a.py"
    a.write_text("x\n")
    a.chmod(0o640)
    write_outputs({a: "y\n"})
    assert stat.S_IMODE(a.stat().st_mode) == 0o640


def test_rename_failing_midway_restores_everything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = [tmp_path / f"{n}.txt" for n in "abcd"]
    for p in paths[:3]:
        p.write_bytes(f"original {p.name}\r\nno newline at end".encode())
    past = 1_100_000_000_000_000_000
    for p in paths[:3]:
        os.utime(p, ns=(past, past))
    before = _snapshot(tmp_path)

    real_replace = os.replace
    calls = {"n": 0}

    def failing_replace(src: str | Path, dst: str | Path) -> None:
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OutputError) as err:
        write_outputs({p: f"new {p.name}\n" for p in paths})
    assert err.value.path == paths[2]  # sorted order: the third rename failed
    assert "No space left on device" in str(err.value)
    assert calls["n"] >= 3
    assert _snapshot(tmp_path) == before  # byte-identical, the new file d removed, no temps
    assert all(p.stat().st_mtime_ns == past for p in paths[:3])


def test_temporary_write_failing_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = tmp_path / "a.txt"
    a.write_text("keep\n")
    real = writer._write_temp
    calls = {"n": 0}

    def failing(target: Path, data: bytes, mode: int, keep: Callable[[Path], None]) -> Path:
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError(5, "Input/output error")
        return real(target, data, mode, keep)

    monkeypatch.setattr(writer, "_write_temp", failing)
    with pytest.raises(OutputError) as err:
        write_outputs({a: "new\n", tmp_path / "b.txt": "b\n"})
    assert err.value.path == tmp_path / "b.txt"
    assert _snapshot(tmp_path) == {"a.txt": b"keep\n"}


def _write_as_nobody(target: Path) -> str:
    """write_outputs in a forked child that dropped root (root ignores permissions)."""
    return as_nobody(lambda: _attempt(target))


def _attempt(target: Path) -> str:
    try:
        write_outputs({target: "new\n"})
    except OutputError as e:
        return f"OutputError {e.path}"
    return "written"


def test_read_only_directory_gives_output_error() -> None:
    base = Path(tempfile.mkdtemp(prefix="mg-ro-"))
    try:
        base.chmod(0o755)
        ro = base / "ro"
        ro.mkdir()
        target = ro / "a.json"
        target.write_text("old\n")
        ro.chmod(0o555)
        result = _write_as_nobody(target) if os.geteuid() == 0 else _attempt(target)
        assert result == f"OutputError {target}"
        assert target.read_text() == "old\n"
        assert os.listdir(ro) == ["a.json"]
    finally:
        (base / "ro").chmod(0o755)
        shutil.rmtree(base)


def test_a_file_in_place_of_the_output_directory_gives_output_error(
    tmp_path: Path,
) -> None:
    (tmp_path / "blocker").write_text("x")
    with pytest.raises(OutputError) as err:
        write_outputs({tmp_path / "blocker" / "a.json": "new\n"})
    assert err.value.path == tmp_path / "blocker" / "a.json"


def test_verify_outputs_diffs_stale_and_missing_and_writes_nothing(tmp_path: Path) -> None:
    same, stale, missing = tmp_path / "same", tmp_path / "stale", tmp_path / "missing"
    same.write_text("x\n")
    stale.write_text("one\ntwo\n")
    diffs = verify_outputs({same: "x\n", stale: "one\nthree\n", missing: "m\n"})
    assert len(diffs) == 2
    missing_diff, stale_diff = diffs  # sorted by path
    assert missing_diff.startswith(f"--- a/{missing.as_posix()}\n+++ b/{missing.as_posix()}\n")
    assert "+m\n" in missing_diff
    assert "-two\n" in stale_diff and "+three\n" in stale_diff
    assert not missing.exists() and stale.read_text() == "one\ntwo\n"


def test_verify_outputs_is_empty_when_up_to_date(tmp_path: Path) -> None:
    a = tmp_path / "a"
    a.write_text("line\u2028same\n")
    assert verify_outputs({a: "line\u2028same\n"}) == []


def test_interrupt_right_after_a_temporary_is_created_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Ctrl-C that arrives just as a temporary file is created (before the writer has
    noted its name) must not leave that file behind: the signal waits until the name is
    noted, then the clean-up removes it. Found under load by the SIGINT fault tests."""
    import signal

    a = tmp_path / "a.txt"
    a.write_text("keep\n")
    real = tempfile.mkstemp

    def mkstemp_then_interrupt(*args: object, **kwargs: object) -> tuple[int, str]:
        made = real(*args, **kwargs)  # type: ignore[call-overload]
        os.kill(os.getpid(), signal.SIGINT)
        return made  # type: ignore[no-any-return]

    monkeypatch.setattr(writer.tempfile, "mkstemp", mkstemp_then_interrupt)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            write_outputs({a: "new\n", tmp_path / "b.txt": "b\n"})
    finally:
        signal.signal(signal.SIGINT, previous)
    assert _snapshot(tmp_path) == {"a.txt": b"keep\n"}


@pytest.fixture
def module(tmp_path: Path) -> Path:
    return write_module(tmp_path)


def test_streamed_outputs_are_the_rendered_texts(module: Path, tmp_path: Path) -> None:
    from markergen.emit.options import EmitOptions
    from markergen.emit.outputs import OUTPUTS, Inputs, render_outputs

    model = load_model(["./..."], module)
    texts = render_outputs(model, EmitOptions(), frozenset({"fragments"}))
    inputs = Inputs(model, EmitOptions())
    out = tmp_path / "out"
    report = write_outputs(
        {out / o.filename: (lambda o=o: o.chunks(inputs)) for o in OUTPUTS}, digests=True
    )
    assert {p.name: p.read_text() for p in out.iterdir()} == texts
    assert len(report.written) == len(OUTPUTS)
    assert {p.name: d for p, d in report.digests.items()} == {
        name: (len(text.encode()), hashlib.sha256(text.encode()).hexdigest())
        for name, text in texts.items()
    }
    # A second streamed write of the same text changes nothing, mtimes included.
    before = {p: p.stat().st_mtime_ns for p in out.iterdir()}
    again = write_outputs({out / o.filename: (lambda o=o: o.chunks(inputs)) for o in OUTPUTS})
    assert again.written == () and len(again.unchanged) == len(OUTPUTS)
    assert {p: p.stat().st_mtime_ns for p in out.iterdir()} == before
    assert sorted(p.name for p in out.iterdir()) == sorted(texts)  # no temporaries left


def test_streamed_write_replaces_a_changed_output_and_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "doc.json"
    target.write_text("old\n")
    target.chmod(0o640)
    report = write_outputs({target: lambda: iter(["{", "\n}", "\n"])})
    assert report.written == (target,)
    assert target.read_text() == "{\n}\n"
    assert target.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["doc.json"]
