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
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any


class OutputError(Exception):
    """Writing or reading an output failed; `path` names the file."""

    def __init__(self, path: Path, message: str) -> None:
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}")


# An output's text: whole, or a function giving it in pieces (streamed to disk, so that
# a large output is never held whole in memory).
Content = str | Callable[[], Iterable[str]]


@dataclass(frozen=True)
class WriteReport:
    written: tuple[Path, ...]  # created or changed
    unchanged: tuple[Path, ...]
    # (size, SHA-256) of each output's bytes as written: the cache stores the outputs
    # from the files on disk and checks them against these.
    digests: Mapping[Path, tuple[int, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class _Original:
    mode: int
    atime_ns: int
    mtime_ns: int
    size: int


_CHUNK = 1 << 20
# Text held per streamed output before it is written: several are written side by side.
_BLOCK = 1 << 18


def _check_existing(path: Path) -> _Original | None:
    """What restoring `path` needs; never its content (a backup link keeps that)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise OutputError(path, f"cannot read: {e.strerror or e}") from e
    if not path.is_file():
        raise OutputError(path, "exists and is not a regular file")
    try:
        with open(path, "rb"):
            pass
    except OSError as e:
        raise OutputError(path, f"cannot read: {e.strerror or e}") from e
    return _Original(st.st_mode & 0o7777, st.st_atime_ns, st.st_mtime_ns, st.st_size)


def _read_existing(path: Path) -> bytes | None:
    """The content of an existing output (for --verify), None if there is none."""
    if _check_existing(path) is None:
        return None
    try:
        return path.read_bytes()
    except OSError as e:
        raise OutputError(path, f"cannot read: {e.strerror or e}") from e


def _default_mode() -> int:
    # mkstemp creates 0600 files; outputs are ordinary files, so honour the umask.
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _create(target: Path, suffix: str, keep: Callable[[Path], None]) -> tuple[int, Path]:
    """A new empty file beside `target`, handed to `keep` before anything can interrupt:
    a Ctrl-C between its creation and `keep` would leave it behind, where the clean-up
    cannot see it. The signal, held meanwhile, is delivered on return."""
    with _signals_held():
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix, dir=target.parent)
        path = Path(name)
        keep(path)
    return fd, path


def _write_temp(
    target: Path, blocks: Iterable[bytes], mode: int, keep: Callable[[Path], None]
) -> Path:
    """The blocks in a temporary beside `target`, with `mode` (not yet synced); removed
    again when writing them fails."""
    fd, tmp = _create(target, ".tmp", keep)
    try:
        with os.fdopen(fd, "wb") as f:
            for block in blocks:
                f.write(block)
        os.chmod(tmp, mode)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return tmp


class _Tally:
    """Size and (when wanted, for the cache) SHA-256 of the bytes of one output."""

    def __init__(self, digest: bool) -> None:
        self.size = 0
        self._sha: Any = None
        if digest:
            import hashlib

            self._sha = hashlib.sha256()

    def add(self, block: bytes) -> bytes:
        self.size += len(block)
        if self._sha is not None:
            self._sha.update(block)
        return block

    def result(self) -> tuple[int, str]:
        return self.size, self._sha.hexdigest() if self._sha is not None else ""


class _Stream:
    """One streamed output being written to its temporary: its pieces, the text not yet
    written, and the tally of what was."""

    __slots__ = ("file", "path", "pending", "pieces", "size", "tally", "tmp")

    def __init__(self, path: Path, tmp: Path, fd: int, pieces: Iterable[str], tally: _Tally) -> None:
        self.path = path
        self.tmp = tmp
        self.file = os.fdopen(fd, "wb")
        self.pieces = iter(pieces)
        self.tally = tally
        self.pending: list[str] = []
        self.size = 0

    def step(self) -> bool:
        """Take the output's next piece; False when it has none left (all written)."""
        piece = next(self.pieces, None)
        if piece is None:
            self._flush()
            return False
        self.pending.append(piece)
        self.size += len(piece)
        if self.size >= _BLOCK:
            self._flush()
        return True

    def _flush(self) -> None:
        # Encoded in blocks of about _BLOCK characters: one encode per block, not per piece.
        self.file.write(self.tally.add("".join(self.pending).encode("utf-8")))
        self.pending = []
        self.size = 0


def _write_streams(
    streams: Mapping[Path, Callable[[], Iterable[str]]],
    mode: Callable[[Path], int],
    digests: bool,
    keep: Callable[[Path, Path], None],
    at: Callable[[Path], None],
) -> list[_Stream]:
    """The streamed outputs in their temporaries, written side by side: a piece of each
    in turn. Outputs drawn from one pass over the model (the OpenAPI documents and
    fragments, markergen.emit.schemapass) then read each definition at the same time,
    and what one has read and another not yet is a definition or two, never a whole
    document. Every output's pieces are asked for (`content()`) before any is read.
    `at` is told which output is being written (for the error message)."""
    pieces = {}
    for path, content in streams.items():
        at(path)
        pieces[path] = content()
    opened: list[_Stream] = []
    try:
        for path in streams:
            at(path)
            fd, tmp = _create(path, ".tmp", partial(keep, path))
            opened.append(_Stream(path, tmp, fd, pieces[path], _Tally(digests)))
        active = opened
        while active:
            left = []
            for stream in active:
                at(stream.path)
                if stream.step():
                    left.append(stream)
            active = left
        for stream in opened:
            at(stream.path)
            stream.file.close()
            os.chmod(stream.tmp, mode(stream.path))
    finally:
        for stream in opened:
            with contextlib.suppress(OSError):
                stream.file.close()
    return opened


def _sync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _same_content(path: Path, data: bytes | Path) -> bool:
    """Whether the file at `path` holds `data` (bytes, or another file's content)."""
    with open(path, "rb") as mine:
        if isinstance(data, bytes):
            return mine.read(len(data) + 1) == data
        with open(data, "rb") as theirs:
            while True:
                a = mine.read(_CHUNK)
                if a != theirs.read(_CHUNK):
                    return False
                if not a:
                    return True


def _backup(path: Path, keep: Callable[[Path], None]) -> Path:
    """A second name for the existing output, beside it: a hard link (no copy), or a
    copy where links are not possible. Renaming it back restores the output exactly."""
    fd, backup = _create(path, ".bak", keep)
    os.close(fd)
    try:
        os.unlink(backup)
        try:
            os.link(path, backup)
        except OSError:
            import shutil

            shutil.copyfile(path, backup)
    except BaseException:
        with contextlib.suppress(OSError):
            backup.unlink()
        raise
    return backup


def _restore(path: Path, original: _Original | None, backup: Path | None) -> None:
    """Put one output back as it was; best effort, never raises."""
    if original is None or backup is None:
        if original is None:
            with contextlib.suppress(OSError):
                path.unlink()
        return
    try:
        try:
            os.replace(backup, path)
        except OSError:
            # Renaming is what failed in the first place; copy in place instead.
            import shutil

            shutil.copyfile(backup, path)
        os.chmod(path, original.mode)
    except OSError:
        pass
    with contextlib.suppress(OSError):
        os.utime(path, ns=(original.atime_ns, original.mtime_ns))


def write_outputs(outputs: Mapping[Path, Content], digests: bool = False) -> WriteReport:
    """Write the changed outputs atomically, all or nothing (UTF-8 text). With
    `digests`, the report has each output's size and SHA-256 (for the cache)."""
    targets = sorted(outputs, key=lambda p: str(p))
    originals = {path: _check_existing(path) for path in targets}
    changed: list[Path] = []
    unchanged: list[Path] = []
    sums: dict[Path, tuple[int, str]] = {}
    temps: dict[Path, Path] = {}
    backups: dict[Path, Path] = {}
    created_dirs: list[Path] = []
    replaced: list[Path] = []
    current = targets[0] if targets else Path()

    def undo() -> None:
        # A rename that finished just before an exception was raised still has its
        # temporary listed; that temporary is gone, so the target must be restored too.
        renamed = [path for path, tmp in temps.items() if not os.path.lexists(tmp)]
        for path in [*reversed(replaced), *renamed]:
            _restore(path, originals[path], backups.pop(path, None))
        for tmp in [*temps.values(), *backups.values()]:
            with contextlib.suppress(OSError):
                tmp.unlink()
        for d in reversed(created_dirs):
            with contextlib.suppress(OSError):
                d.rmdir()
        # Idempotent: an interrupt may reach both handlers below.
        replaced.clear()
        temps.clear()
        backups.clear()
        created_dirs.clear()

    def mode(path: Path) -> int:
        original = originals[path]
        return original.mode if original is not None else _default_mode()

    def at(path: Path) -> None:
        nonlocal current
        current = path

    try:
        streamed: dict[Path, Callable[[], Iterable[str]]] = {}
        for path in targets:
            current = path
            original = originals[path]
            content = outputs[path]
            if not isinstance(content, str):
                created_dirs.extend(_make_parents(path.parent))
                streamed[path] = content
                continue
            tally = _Tally(digests)
            data = tally.add(content.encode("utf-8"))
            sums[path] = tally.result()
            if original is not None and original.size == len(data) and _same_content(path, data):
                unchanged.append(path)
                continue
            created_dirs.extend(_make_parents(path.parent))
            tmp = _write_temp(path, (data,), mode(path), partial(temps.__setitem__, path))
            del data
            _sync(tmp)
            changed.append(path)
        for stream in _write_streams(streamed, mode, digests, temps.__setitem__, at):
            path = current = stream.path
            original = originals[path]
            sums[path] = stream.tally.result()
            if (
                original is not None
                and original.size == stream.tally.size
                and _same_content(path, stream.tmp)
            ):
                del temps[path]
                stream.tmp.unlink()
                unchanged.append(path)
                continue
            _sync(stream.tmp)
            changed.append(path)
        # Renamed (and restored) in the order of their paths, whatever the kind of content.
        changed.sort(key=targets.index)
        unchanged.sort(key=targets.index)
        for path in changed:
            current = path
            if originals[path] is not None:
                _backup(path, keep=partial(backups.__setitem__, path))
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
    for backup in backups.values():
        with contextlib.suppress(OSError):
            backup.unlink()
    return WriteReport(written=tuple(changed), unchanged=tuple(unchanged), digests=sums)


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


def verify_outputs(outputs: Mapping[Path, Content]) -> list[str]:
    """Unified diffs of stale or missing outputs; writes nothing."""
    diffs: list[str] = []
    for path in sorted(outputs, key=lambda p: str(p)):
        original = _read_existing(path)
        content = outputs[path]
        new = content if isinstance(content, str) else "".join(content())
        old = original.decode("utf-8", errors="replace") if original is not None else ""
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
