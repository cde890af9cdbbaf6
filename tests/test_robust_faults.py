"""Robustness: I/O faults while writing outputs or patching CRDs.

Issue "Robustness ...": disk full, permission denied, read-only directory, rename failure
and SIGINT in the middle of writing several outputs or patching a CRD: every pre-existing
file stays byte-identical, the exit code is 2 and the message names the file.

A full disk cannot be made here (no tmpfs mount without privileges), so ENOSPC is faked
by patching `os.fsync` in the writer; permission faults are real (a forked child drops
root, which ignores permissions); SIGINT is a real signal to a real `markergen` process.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from helpers import TESTDATA, as_nobody

from markergen.cli import main

EXAMPLE = TESTDATA / "example"
OUTPUTS = ("openapi-v2.json", "openapi-v3.json", "unions_table.json", "unions_table.py")
CRD = Path("config/crd/bases/webapp.example.com_guestbooks.yaml")


def _project(root: Path) -> Path:
    shutil.copytree(EXAMPLE, root / "ex")
    out = root / "ex" / "out"
    out.mkdir()
    for name in OUTPUTS:
        (out / name).write_text(f"old {name}\n")
    return root / "ex"


def _snapshot(d: Path) -> dict[str, bytes]:
    """Every file, except markergen's own cache (created by a run; not an output)."""
    return {
        p.relative_to(d).as_posix(): p.read_bytes()
        for p in sorted(d.rglob("*"))
        if p.is_file() and ".markergen-cache" not in p.parts
    }


def _cli(args: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(args)
    return code, out.getvalue()


GENERATE = ["generate", "./api/...", "--out-dir", "out"]


def test_disk_full_while_writing_a_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ex = _project(tmp_path)
    monkeypatch.chdir(ex)
    before = _snapshot(ex)
    real = os.fsync

    def full(fd: int) -> None:
        # The temporary of the third output (sorted order) hits the full disk.
        if ".unions_table.json." in os.readlink(f"/proc/self/fd/{fd}"):
            raise OSError(errno.ENOSPC, "No space left on device")
        real(fd)

    monkeypatch.setattr(os, "fsync", full)
    code, output = _cli(GENERATE)
    assert code == 2, output
    assert "No space left on device" in output
    assert "unions_table.json" in output  # the third output in sorted order
    assert "Traceback" not in output
    assert _snapshot(ex) == before


def test_rename_failure_after_some_renames(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ex = _project(tmp_path)
    monkeypatch.chdir(ex)
    before = _snapshot(ex)
    real = os.replace

    def failing(src: str | Path, dst: str | Path) -> None:
        # The last of the four outputs: three renames have already happened.
        if Path(dst).name == "unions_table.py":
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        real(src, dst)

    monkeypatch.setattr(os, "replace", failing)
    code, output = _cli(GENERATE)
    assert code == 2, output
    assert "unions_table.py" in output and "Invalid cross-device link" in output
    assert _snapshot(ex) == before  # three renames were undone, no temporaries left


def test_keyboard_interrupt_between_renames_restores_everything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In-process twin of the SIGINT test below: the interrupt hits the rename loop."""
    ex = _project(tmp_path)
    monkeypatch.chdir(ex)
    before = _snapshot(ex)
    real = os.replace
    fired: list[bool] = []

    def interrupted(src: str | Path, dst: str | Path) -> None:
        real(src, dst)
        if Path(dst).name == "openapi-v3.json" and not fired:  # the second output, once
            fired.append(True)
            raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    code, output = _cli(GENERATE)
    assert code == 130, output
    assert "interrupted; every output is as it was or completely written" in output
    assert _snapshot(ex) == before


def _as_nobody(ex: Path, args: list[str]) -> tuple[int, str]:
    """Run the CLI in a forked child that dropped root (root ignores permissions)."""
    if os.geteuid() != 0:
        cwd = Path.cwd()
        os.chdir(ex)
        try:
            return _cli(args)
        finally:
            os.chdir(cwd)
    # The child cannot read the interpreter's files under /root: import all it needs now,
    # by running the same command once, as root, on a scratch copy of the project.
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "ex"
        shutil.copytree(ex, copy)
        cwd = Path.cwd()
        os.chdir(copy)
        try:
            _cli(args)
        finally:
            os.chdir(cwd)

    def work() -> str:
        os.chdir(ex)
        code, output = _cli(args)
        return f"{code}\n{output}"

    data = as_nobody(work)
    code_text, _, output = data.partition("\n")
    _child_reached_everything(ex, data)
    if code_text.startswith("EXC "):
        return 99, data
    return int(code_text), output


_DENIED = re.compile(r"(/[^\s:'\"]+)(?:'|\"|:)?\s*(?::|\])?\s*Permission denied")


def _child_reached_everything(ex: Path, output: str) -> None:
    """Fail with the reason when the child was denied a file outside the project: then
    the test would measure where the checkout lives (a private directory, mode 700, as
    root), not markergen. The fixes live in the child's setup: everything it runs is
    imported and fingerprinted before it drops root (the scratch run above), and the
    project is a world-readable copy; what remains unreachable is named here."""
    for m in _DENIED.finditer(output):
        path = Path(m.group(1))
        if path != ex and ex not in path.parents:
            pytest.fail(
                f"the unprivileged child (uid 65534) could not reach {path}, outside the "
                f"project copy {ex}: a private checkout or virtualenv? Output:\n{output}"
            )


def test_code_fingerprint_is_computed_once_and_survives_unreadable_directories(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A child that dropped root cannot stat markergen's files when the checkout is in a
    private directory: the fingerprint it needs is the one computed before (per process),
    and a directory that cannot be read is recorded, not raised."""
    from markergen import cache

    cache.code_fingerprint.cache_clear()
    first = cache.code_fingerprint()
    real_is_dir = Path.is_dir

    def denied(self: Path) -> bool:
        if self.name == "markergen":
            raise PermissionError(13, "Permission denied", str(self))
        return real_is_dir(self)

    monkeypatch.setattr(Path, "is_dir", denied)
    assert cache.code_fingerprint() == first  # computed once per process
    cache.code_fingerprint.cache_clear()
    try:
        assert ":unreadable" in cache.code_fingerprint()
    finally:
        monkeypatch.undo()
        cache.code_fingerprint.cache_clear()


def _nobody_project() -> Path:
    base = Path(tempfile.mkdtemp(prefix="mg-robust-"))
    base.chmod(0o755)
    ex = _project(base)
    for p in [ex, *ex.rglob("*")]:
        os.chown(p, 65534, 65534)
    return ex


def test_read_only_output_directory(tmp_path: Path) -> None:
    ex = _nobody_project()
    try:
        (ex / "out").chmod(0o555)
        before = _snapshot(ex)
        code, output = _as_nobody(ex, GENERATE)
        assert code == 2, output
        assert "out/openapi-v2.json" in output and "Permission denied" in output
        assert _snapshot(ex) == before
    finally:
        (ex / "out").chmod(0o755)
        shutil.rmtree(ex.parent)


def test_unreadable_existing_output(tmp_path: Path) -> None:
    ex = _nobody_project()
    try:
        (ex / "out" / "unions_table.json").chmod(0o000)
        code, output = _as_nobody(ex, GENERATE)
        assert code == 2, output
        assert "unions_table.json" in output and "Permission denied" in output
        (ex / "out" / "unions_table.json").chmod(0o644)
        assert {n: (ex / "out" / n).read_text() for n in OUTPUTS} == {
            n: f"old {n}\n" for n in OUTPUTS
        }
    finally:
        shutil.rmtree(ex.parent)


def test_read_only_crd_directory(tmp_path: Path) -> None:
    ex = _nobody_project()
    bases = ex / CRD.parent
    try:
        bases.chmod(0o555)
        before = _snapshot(ex)
        code, output = _as_nobody(ex, ["crd", "--types", "./api/...", str(CRD.parent)])
        assert code == 2, output
        assert CRD.name in output and "Permission denied" in output
        assert _snapshot(ex) == before
    finally:
        bases.chmod(0o755)
        shutil.rmtree(ex.parent)


# ---------------------------------------------------------------------------- SIGINT


def _spawn(ex: Path, args: list[str]) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    return subprocess.Popen(
        [sys.executable, "-m", "markergen", *args],
        cwd=ex,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _sigint_runs(
    tmp_path: Path, args: list[str], watched: list[Path], runs: int, seed: int
) -> dict[str, int]:
    """Interrupt `markergen args` at random moments; every run must end all-old or all-new."""
    template = tmp_path / "template"
    template.mkdir()
    ex0 = _project(template)
    # The new contents, from an uninterrupted run on a copy.
    ref = tmp_path / "reference"
    shutil.copytree(ex0, ref)
    done = subprocess.run(
        [sys.executable, "-m", "markergen", *args], cwd=ref, capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr
    old = {str(p): (ex0 / p).read_bytes() for p in watched}
    new = {str(p): (ref / p).read_bytes() for p in watched}
    assert old != new
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "markergen", *args], cwd=ref, capture_output=True, check=False)
    full = time.monotonic() - started  # one run's length, to aim the signals at its end
    rng = random.Random(seed)
    outcomes = {"old": 0, "new": 0}
    codes: list[int] = []
    for i in range(runs):
        ex = tmp_path / f"run{i}"
        shutil.copytree(ex0, ex)
        proc = _spawn(ex, args)
        time.sleep(rng.uniform(0.3 * full, 1.1 * full))
        for _ in range(rng.randint(1, 3)):  # repeated ^C, as an impatient user does
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
            time.sleep(rng.uniform(0, 0.01))
        _, err = proc.communicate(timeout=120)
        now = {str(p): (ex / p).read_bytes() for p in watched}
        leftovers = [p.name for p in ex.rglob(".*.tmp")]
        assert leftovers == [], leftovers
        stderr = err.decode(errors="replace")
        codes.append(proc.returncode)
        if now == old:
            # 130 with markergen's message: its "interrupted" path. -SIGINT / 130 without
            # it: the signal landed before markergen's handler was running (interpreter
            # start-up, imports) - nothing had been written, which is what matters here.
            assert proc.returncode in (130, -signal.SIGINT, 0), (proc.returncode, stderr)
            if proc.returncode == 130 and "markergen" in stderr:
                assert "interrupted; every output is as it was or completely written" in stderr, stderr
                assert "Traceback" not in stderr, stderr
            outcomes["old"] += 1
        else:
            assert now == new, f"run {i}: a mix of old and new files; stderr: {stderr}"
            # 0, or the signal arrived after every output was in place: markergen's
            # "interrupted" path (130), or interpreter exit (130 / -SIGINT).
            assert proc.returncode in (0, 130, -signal.SIGINT), (proc.returncode, stderr)
            if proc.returncode == 130 and "markergen" in stderr:
                assert "interrupted; every output is as it was" in stderr, stderr
            assert "Traceback" not in stderr, stderr
            outcomes["new"] += 1
        shutil.rmtree(ex)
    print(f"SIGINT runs {args[0]}: outcomes {outcomes}, exit codes {sorted(codes)}")
    return outcomes


def test_sigint_during_generate_leaves_all_old_or_all_new(tmp_path: Path) -> None:
    watched = [Path("out") / n for n in OUTPUTS]
    outcomes = _sigint_runs(tmp_path, GENERATE, watched, runs=14, seed=1027)
    assert sum(outcomes.values()) == 14


def test_sigint_during_crd_patching_leaves_all_old_or_all_new(tmp_path: Path) -> None:
    watched = [CRD, CRD.with_name("copy_" + CRD.name)]
    # Two CRD files, so an interrupt can fall between their renames.
    template_src = EXAMPLE / CRD
    args = ["crd", "--types", "./api/...", str(CRD.parent)]
    orig_project = _project

    def project_with_copy(root: Path) -> Path:
        ex = orig_project(root)
        shutil.copy(template_src, ex / watched[1])
        return ex

    globals()["_project"] = project_with_copy
    try:
        outcomes = _sigint_runs(tmp_path, args, watched, runs=10, seed=4)
    finally:
        globals()["_project"] = orig_project
    assert sum(outcomes.values()) == 10


