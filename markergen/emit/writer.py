"""All-or-nothing writing of several output files.

Every changed output is first written to a temporary file next to its target, then
renamed over it. If anything fails, every output that existed before is put back
byte-identical (content, mode and mtime) and outputs that did not exist are removed,
so a failed run never leaves a mix of old and new files.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import signal
import tempfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path


class OutputError(Exception):
    """Writing or reading an output failed; `path` names the file."""

    def __init__(self, path: Path, message: str) -> None:
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}")


@dataclass(frozen=True)
class WriteReport:
    written: tuple[Path, ...]  # created or changed
    unchanged: tuple[Path, ...]


@dataclass(frozen=True)
class _Original:
    content: bytes
    mode: int
    atime_ns: int
    mtime_ns: int


def _read_existing(path: Path) -> _Original | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise OutputError(path, f"cannot read: {e.strerror or e}") from e
    if not path.is_file():
        raise OutputError(path, "exists and is not a regular file")
    try:
        content = path.read_bytes()
    except OSError as e:
        raise OutputError(path, f"cannot read: {e.strerror or e}") from e
    return _Original(content, st.st_mode & 0o7777, st.st_atime_ns, st.st_mtime_ns)


def _default_mode() -> int:
    # mkstemp creates 0600 files; outputs are ordinary files, so honour the umask.
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _write_temp(target: Path, data: bytes, mode: int) -> Path:
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    tmp = Path(name)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return tmp


def _restore(path: Path, original: _Original | None) -> None:
    """Put one output back as it was; best effort, never raises."""
    if original is None:
        with contextlib.suppress(OSError):
            path.unlink()
        return
    try:
        tmp = _write_temp(path, original.content, original.mode)
        try:
            os.replace(tmp, path)
        except OSError:
            # Renaming is what failed in the first place; write in place instead.
            with contextlib.suppress(OSError):
                tmp.unlink()
            path.write_bytes(original.content)
            os.chmod(path, original.mode)
    except OSError:
        with contextlib.suppress(OSError):
            path.write_bytes(original.content)
    with contextlib.suppress(OSError):
        os.utime(path, ns=(original.atime_ns, original.mtime_ns))


def write_outputs(outputs: Mapping[Path, str]) -> WriteReport:
    """Write the changed outputs atomically, all or nothing (UTF-8 text)."""
    targets = sorted(outputs, key=lambda p: str(p))
    originals: dict[Path, _Original | None] = {}
    changed: list[Path] = []
    unchanged: list[Path] = []
    for path in targets:
        original = _read_existing(path)
        originals[path] = original
        if original is not None and original.content == outputs[path].encode("utf-8"):
            unchanged.append(path)
        else:
            changed.append(path)

    temps: dict[Path, Path] = {}
    created_dirs: list[Path] = []
    replaced: list[Path] = []
    current = changed[0] if changed else Path()

    def undo() -> None:
        # A rename that finished just before an exception was raised still has its
        # temporary listed; that temporary is gone, so the target must be restored too.
        renamed = [path for path, tmp in temps.items() if not os.path.lexists(tmp)]
        for path in [*reversed(replaced), *renamed]:
            _restore(path, originals[path])
        for tmp in temps.values():
            with contextlib.suppress(OSError):
                tmp.unlink()
        for d in reversed(created_dirs):
            with contextlib.suppress(OSError):
                d.rmdir()
        # Idempotent: an interrupt may reach both handlers below.
        replaced.clear()
        temps.clear()
        created_dirs.clear()

    try:
        for path in changed:
            current = path
            created_dirs.extend(_make_parents(path.parent))
            original = originals[path]
            mode = original.mode if original is not None else _default_mode()
            temps[path] = _write_temp(path, outputs[path].encode("utf-8"), mode)
        # Renames run with SIGINT/SIGTERM held back, so an interrupt cannot land between
        # two of them (or inside the undo) and leave a mix of old and new outputs. One
        # that arrived meanwhile is honoured after the outputs are back as they were,
        # so "interrupted; every output is as it was or completely written" stays true.
        with _signals_held() as interrupted:
            try:
                if not interrupted():
                    for path in changed:
                        current = path
                        os.replace(temps[path], path)
                        replaced.append(path)
                        del temps[path]
            except BaseException:
                undo()
                raise
            aborted = interrupted()
            if aborted:
                undo()
        if aborted:
            # The signal's handler did not raise (ignored or custom): still report it.
            raise KeyboardInterrupt
    except OSError as e:
        undo()
        raise OutputError(current, f"cannot write: {e.strerror or e}") from e
    except BaseException:
        undo()  # KeyboardInterrupt while writing temporaries: remove them
        raise
    return WriteReport(written=tuple(changed), unchanged=tuple(unchanged))


_HELD = tuple(
    sig for sig in (getattr(signal, "SIGINT", None), getattr(signal, "SIGTERM", None)) if sig
)


@contextlib.contextmanager
def _signals_held() -> Iterator[Callable[[], bool]]:
    """Block SIGINT and SIGTERM inside the block; yields "has one arrived meanwhile?".

    Where signal masks do not exist (Windows), nothing is held and the answer is False.
    """
    if not hasattr(signal, "pthread_sigmask") or not _HELD:
        yield lambda: False
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield lambda: bool(signal.sigpending() & set(_HELD))
    finally:
        # Unblocking delivers a pending signal: Python raises KeyboardInterrupt here.
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _make_parents(directory: Path) -> list[Path]:
    """Create missing parent directories; returns those created, outermost first."""
    missing: list[Path] = []
    d = directory
    while not d.exists():
        missing.append(d)
        if d.parent == d:
            break
        d = d.parent
    for m in reversed(missing):
        m.mkdir()
    return list(reversed(missing))


def verify_outputs(outputs: Mapping[Path, str]) -> list[str]:
    """Unified diffs of stale or missing outputs; writes nothing."""
    diffs: list[str] = []
    for path in sorted(outputs, key=lambda p: str(p)):
        original = _read_existing(path)
        new = outputs[path]
        old = original.content.decode("utf-8", errors="replace") if original else ""
        if original is not None and old == new:
            continue
        name = _display(path)
        lines = difflib.unified_diff(
            _lines(old), _lines(new), fromfile=f"a/{name}", tofile=f"b/{name}"
        )
        diffs.append("".join(lines))
    return diffs


def _display(path: Path) -> str:
    """The path as a reviewer reads it in a diff: relative to the working directory
    when below it (git's `a/` / `b/` convention), else absolute."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except (ValueError, OSError):
        return path.as_posix()


def _lines(text: str) -> list[str]:
    # Split on "\n" only: str.splitlines would also split on U+2028 and friends.
    pieces = text.split("\n")
    lines = [p + "\n" for p in pieces[:-1]]
    if pieces[-1]:
        lines.append(pieces[-1] + "\n\\ No newline at end of file\n")
    return lines
