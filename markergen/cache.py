"""markergen's one run cache: a run whose inputs did not change since the last run
reuses that run's results (rendered outputs, printed text, patched CRDs, diagnostics)
instead of recomputing them. `generate`, `check`, `dump` and `crd` all use it, and
`diff` keeps its base revision's reading in it (command `diff-base`, whose input is the
commit: it pins every file of the revision).

The one key (docs/performance.md, "Cache"), a SHA-256 over:
- the command (`generate`, `check`, `dump`, `crd`, `diff-base`);
- its inputs: the Go package patterns, the working directory (reported paths are
  relative to it), and the path, module and bytes of every Go file the patterns
  select (generated files included, so a header edit counts);
- its options: the settings its results depend on (each command names its own);
- the digests of the extra files it reads: those named before the run (the CRD
  files, the kept objects and Makefiles of `check` and `crd`, a project's templates),
  and those found while it runs (imported packages, go.mod and go.work files found
  while resolving imports), which are stored with the entry and checked on lookup;
- a fingerprint of markergen itself (its version, the size and mtime of its modules
  and of the libraries that shape the output).
File *contents* are hashed, never trusted by mtime: a cached result is never stale.

Storage: one file per invocation shape (command, patterns, cwd, options) in the cache
directory (`.markergen-cache/` at the module root, or `$MARKERGEN_CACHE_DIR`), so an
edit replaces the entry: a one-line JSON header (key, diagnostics, output names with
byte lengths, SHA-256 of the body) followed by the output texts, so a hit decodes a
small header, not megabytes of JSON. No pickle: loading a cache entry can never run
code, whoever wrote it. The one exception is `jinja/`, Jinja's own bytecode cache of the
compiled templates (markergen.emit.templating): marshalled Python code, trusted as
Python trusts a `__pycache__` directory, so the cache directory must be writable only
by those who may run code in the project (it is, in a checkout). Beside the entries, `SyntaxStore` keeps the syntax records of
each Go file read, by the digest of its bytes, so that a run after an edit parses only
the files that changed (markergen.golang.records).

Safety: the directory is safe to delete at any time. A file that cannot be read or
decoded, or whose shape is wrong, is a miss and gets rewritten. Writes go to a
temporary file renamed into place, so readers never see half a file; failing to write
(read-only checkout) only costs the speed-up. `--no-cache` reads and writes nothing.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import markergen
from markergen.diagnostics import Diagnostic

CACHE_DIR_NAME = ".markergen-cache"
ENV_CACHE_DIR = "MARKERGEN_CACHE_DIR"
# Bumped whenever the layout of a cache file changes; old files then read as misses.
_FORMAT = 2
# `diff-base`: the base revision's side of `markergen diff` (markergen.diff.basecache).
COMMANDS = ("generate", "check", "dump", "crd", "diff-base")
# Libraries whose version changes the bytes of the output (the parser).
_LIBRARIES = ("tree_sitter", "tree_sitter_go")


def cache_dir(root: Path, environ: Mapping[str, str] | None = None) -> Path:
    """Where the cache lives: `$MARKERGEN_CACHE_DIR`, else `.markergen-cache/` at `root`."""
    env = os.environ if environ is None else environ
    given = env.get(ENV_CACHE_DIR, "")
    return Path(given) if given else root / CACHE_DIR_NAME


# The entry under which a run keeps the line saying what it read and found
# (pipeline.inputs_summary) beside its outputs: a "/" is in no output's file name.
INPUTS_SUMMARY = "markergen/inputs-summary"


@dataclass(frozen=True)
class CachedRun:
    diagnostics: tuple[Diagnostic, ...]
    outputs: dict[str, str]  # output name (emit.outputs.OUTPUT_NAMES) → text
    # Files the run read beyond the selected Go files (imported packages, go.mod and
    # go.work files found while resolving imports), with the SHA-256 of their bytes: they
    # are known only once a run has loaded its model, so a hit checks them afterwards.
    extra: tuple[tuple[str, str], ...] = ()

    @property
    def summary(self) -> str:
        """What the run read and found (`INPUTS_SUMMARY`), "" for an entry without it."""
        return self.outputs.get(INPUTS_SUMMARY, "")


def file_digests(
    paths: Sequence[str], read: Callable[[Path], bytes] | None = None
) -> tuple[tuple[str, str], ...]:
    """(path, SHA-256) of each file; a file that cannot be read has the digest "".
    `read`: the run's own reading of the files (markergen.yamlio.YamlReader.data), so
    that a cold run reads each CRD and object file once."""
    out = []
    for p in sorted(set(paths)):
        try:
            if read is not None:
                data = read(Path(p))
            else:
                with open(p, "rb") as handle:
                    data = handle.read()
            out.append((p, hashlib.sha256(data).hexdigest()))
        except OSError:
            out.append((p, ""))
    return tuple(out)


def read_beyond(files_read: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """`CachedRun.extra` of a run whose model read `files_read`: the absolute paths among
    them are the files beyond the selected ones (imported packages, go.mod, go.work)."""
    return file_digests([p for p in files_read if os.path.isabs(p)])


class OutputCache:
    """One invocation's slot in the cache directory: look it up, or store a result."""

    def __init__(self, directory: Path, slot: str, key: str, command: str = "generate") -> None:
        self.directory = directory
        self.path = directory / f"{command}-{slot}.cache"
        self.key = key

    @classmethod
    def open(
        cls,
        directory: Path,
        patterns: Sequence[str],
        cwd: Path,
        options: Mapping[str, Any],
        command: str = "generate",
        extra_files: Sequence[str | Path] = (),
        read: Callable[[Path], bytes] | None = None,
    ) -> OutputCache | None:
        """The cache slot of this invocation, under the one key (module docstring), or
        None when the inputs cannot be listed (a pattern names nothing, a file cannot
        be read): the run then reports that. `command` names what is cached (one of
        `COMMANDS`): each has its own slots, and `options` are the settings its results
        depend on. `extra_files` are the other files the results depend on, known before
        the run (CRDs, kept objects, Makefiles, templates): their digests are part of
        the key, not of the slot, so an edit replaces the entry; a missing one counts.
        `read` reads them (default: from disk)."""
        from markergen.golang.packages import input_files

        files = input_files(patterns, cwd)
        if files is None:
            return None
        extra = file_digests([os.path.abspath(p) for p in extra_files], read)
        inputs = [json.dumps(list(map(list, extra))).encode()]
        try:
            for f in files:
                with open(f.path, "rb") as handle:
                    data = hashlib.sha256(handle.read()).digest()
                inputs.append(f"{f.path}\0{f.explicit}\0{f.module}\0".encode() + data)
        except OSError:
            return None
        return cls.keyed(directory, command, patterns, cwd, options, inputs)

    @classmethod
    def keyed(
        cls,
        directory: Path,
        command: str,
        patterns: Sequence[str],
        cwd: Path,
        options: Mapping[str, Any],
        inputs: Sequence[bytes],
    ) -> OutputCache:
        """The slot of a run whose inputs `inputs` pins (the digests of the files it
        reads, or a git commit, which pins every file of a revision), under the one key."""
        if command not in COMMANDS:
            raise ValueError(f"no cache for command {command!r}")
        shape = {
            "command": command,
            "cwd": os.path.abspath(cwd),
            "patterns": list(patterns),
            "options": _canonical(options),
        }
        shape_text = json.dumps(shape, sort_keys=True)
        slot = hashlib.sha256(shape_text.encode()).hexdigest()[:24]
        digest = hashlib.sha256()
        digest.update(f"markergen-cache {_FORMAT}\n{shape_text}\n".encode())
        digest.update(code_fingerprint().encode())
        for part in inputs:
            digest.update(part)
        return cls(directory, slot, digest.hexdigest(), command)

    def lookup(self) -> CachedRun | None:
        """The stored run for this key; None for a miss, a stale key, a corrupt file, or
        an imported file that changed since the run was stored."""
        try:
            run = _decode(self.path.read_bytes(), self.key)
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return None
        if run is None or file_digests([p for p, _ in run.extra]) != run.extra:
            return None
        return run

    def store(self, run: CachedRun) -> bool:
        """Write the run atomically; False (and nothing left behind) when that fails."""
        return self.store_files(run.diagnostics, {}, run.extra, run.outputs)

    def store_files(
        self,
        diagnostics: tuple[Diagnostic, ...],
        files: Mapping[str, tuple[Path, int, str]],
        extra: tuple[tuple[str, str], ...] = (),
        texts: Mapping[str, str] | None = None,
    ) -> bool:
        """`store` with the outputs read from the files a run has just written (output
        name → path, size and SHA-256 as written), copied piece by piece: no output is
        held whole in memory. A file that no longer holds what was written (edited
        meanwhile) stores nothing. `texts` are entries kept beside them (name → text):
        `store` writes a run's outputs as those."""
        small = {name: text.encode("utf-8") for name, text in (texts or {}).items()}
        names = sorted([*files, *small])
        sizes = [(n, len(small[n]) if n in small else files[n][1]) for n in names]
        header = _header(CachedRun(diagnostics, {}, extra), self.key, sizes, _NO_SUM)
        sum_at = header.rindex(b'"sha256": "') + len(b'"sha256": "')

        def fill(out: BinaryIO) -> bool:
            body = hashlib.sha256()
            out.write(header + b"\n")
            for name in names:
                if name in small:
                    body.update(small[name])
                    out.write(small[name])
                    continue
                path, size, expected = files[name]
                mine = hashlib.sha256()
                copied = 0
                with open(path, "rb") as src:
                    while block := src.read(1 << 20):
                        mine.update(block)
                        body.update(block)
                        out.write(block)
                        copied += len(block)
                if copied != size or mine.hexdigest() != expected:
                    return False
            out.seek(sum_at)
            out.write(body.hexdigest().encode("ascii"))
            return True

        if not _replace_atomically(self.path, fill):
            return False
        _ignore_in_git(self.directory)
        return True


def open_run(
    root: Path,
    command: str,
    patterns: Sequence[str],
    cwd: Path,
    options: Mapping[str, Any],
    use: bool = True,
    extra_files: Sequence[str | Path] = (),
    directory: Path | None = None,
    read: Callable[[Path], bytes] | None = None,
) -> tuple[OutputCache | None, CachedRun | None]:
    """(this run's slot or None, the stored run or None): what every command asks first.
    Without `use` (`--no-cache`), neither: nothing is read or written. `directory`:
    the cache directory (default `cache_dir(root)`); `read` reads the extra files."""
    if not use:
        return None, None
    where = directory if directory is not None else cache_dir(root)
    cache = OutputCache.open(where, patterns, cwd, options, command, extra_files, read)
    return cache, (cache.lookup() if cache is not None else None)


def store_run(
    cache: OutputCache,
    diagnostics: Sequence[Diagnostic],
    outputs: Mapping[str, str],
    files_read: Sequence[str],
    summary: str,
) -> bool:
    """Store a computed run: its diagnostics, its outputs (name → text), what it read
    and found (`INPUTS_SUMMARY`), and the digests of the files its model read beyond
    the selected ones (`files_read`: `Model.files_read`)."""
    texts = {**outputs, INPUTS_SUMMARY: summary}
    return cache.store(CachedRun(tuple(diagnostics), texts, read_beyond(files_read)))


def syntax_store(root: Path, use: bool = True, directory: Path | None = None) -> SyntaxStore | None:
    """The per-file syntax records of the project at `root`. None with `use` off
    (`--no-cache` writes none), and None on a first run, when the cache directory holds
    no entry of an earlier run: keeping a record of every file costs a cold run about a
    tenth (0.5 s and 22 MB at 10,000 types), which a run that is never followed by
    another (a fresh CI checkout, a bench) would pay for nothing. The next run that
    parses (after an edit) keeps them."""
    if not use:
        return None
    where = directory if directory is not None else cache_dir(root)
    try:
        earlier = any(where.glob("*.cache")) or (where / "syntax").is_dir()
    except OSError:
        earlier = False
    return SyntaxStore(where) if earlier else None


class SyntaxStore:
    """The syntax records of the Go files read before, by the digest of each file's
    bytes (markergen.golang.records.RecordStore), in one pack file: `syntax/<code>.pack`
    of the cache directory, `<code>` naming the code that made them (`code_fingerprint`),
    so records of another markergen are never read (and its pack is removed when this
    one writes). One read per run, and one write when a run parsed something: a file a
    record would cost an open each, the larger part of a record's price.

    The pack: a line of JSON (`[[key, length], ...]`), then the records one after the
    other. A pack that cannot be read or decoded holds nothing; a damaged record fails
    its own checksum (markergen.golang.records.decode) and its file is parsed again.
    A run that put records rewrites the pack with every record it used, and the others
    while they are no more than twice as many (records of other patterns, or of a
    file's earlier bytes): it never grows without bound."""

    def __init__(self, directory: Path) -> None:
        code = hashlib.sha256(code_fingerprint().encode()).hexdigest()[:16]
        self.top = directory / "syntax"
        self.path = self.top / f"{code}.pack"
        self._kept: dict[str, bytes] | None = None
        self._used: set[str] = set()
        self._new: dict[str, bytes] = {}
        self.hits = 0  # records served, for the benches and tests
        self.misses = 0

    def _load(self) -> dict[str, bytes]:
        try:
            raw = self.path.read_bytes()
        except OSError:
            return {}
        try:
            head, _, body = raw.partition(b"\n")
            kept: dict[str, bytes] = {}
            offset = 0
            for key, length in json.loads(head):
                end = offset + _int(length)
                kept[_str(key)] = body[offset:end]
                offset = end
        except (ValueError, TypeError):
            return {}
        return kept if offset == len(body) else {}

    def get(self, key: str) -> bytes | None:
        if self._kept is None:
            self._kept = self._load()
        data = self._kept.get(key)
        if data is None:
            self.misses += 1
            return None
        self.hits += 1
        self._used.add(key)
        return data

    def put(self, key: str, data: bytes) -> None:
        self._new[key] = data
        self._used.add(key)

    def save(self) -> bool:
        """Write the pack when this run put records; False when it did not or could not."""
        if not self._new:
            return False
        kept = self._kept if self._kept is not None else self._load()
        records = {k: v for k, v in kept.items() if k in self._used}
        records.update(self._new)
        others = {k: v for k, v in kept.items() if k not in records}
        if len(others) <= 2 * len(records):
            records.update(others)
        keys = sorted(records)
        head = json.dumps([[k, len(records[k])] for k in keys], separators=(",", ":"))
        data = b"".join([head.encode("ascii"), b"\n", *(records[k] for k in keys)])
        if not write_atomically(self.path, data):
            return False
        try:
            stale = [p for p in self.top.iterdir() if p.suffix == ".pack" and p != self.path]
        except OSError:
            stale = []
        for old in stale:
            with contextlib.suppress(OSError):
                old.unlink()
        self._kept, self._new = records, {}
        return True


def write_atomically(target: Path, data: bytes) -> bool:
    """Write `data` to a temporary file beside `target` and rename it into place, so a
    reader never sees half a file; False (and nothing left behind) when that fails. The
    caches use it: a read-only directory only costs their speed-up."""

    def fill(out: BinaryIO) -> bool:
        out.write(data)
        return True

    return _replace_atomically(target, fill)


def _replace_atomically(target: Path, fill: Callable[[BinaryIO], bool]) -> bool:
    """`fill` a temporary file beside `target`, then rename it into place; False (and
    nothing left behind) when writing fails or `fill` says the content is not wanted."""
    tmp: str | None = None
    try:
        _make_cache_dirs(target.parent)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=target.suffix)
        with os.fdopen(fd, "wb") as out:
            if not fill(out):
                return False
        os.replace(tmp, target)
        tmp = None
        return True
    except OSError:
        return False
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


@functools.cache
def code_fingerprint() -> str:
    """Identifies the code that produced a cached result: markergen's version, and the
    size and mtime of its own modules and of the libraries that shape the output, so that
    editing or upgrading any of them invalidates every entry.

    Computed once per process: the code a process runs is the code it loaded, whatever
    happens to the files later (and a process that gave up its privileges after loading
    need not reach them again). A directory that cannot be read counts as such instead
    of failing the run: a cache only ever costs or saves time."""
    import importlib.util

    package = Path(markergen.__file__).resolve().parent
    parts = [markergen.__version__, sys.version]
    roots = [package]
    for name in _LIBRARIES:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin:
            roots.append(Path(spec.origin).parent)
    for root in roots:
        try:
            if not root.is_dir():
                continue
        except OSError:
            parts.append(f"{root}:unreadable")
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(filenames):
                # .j2: markergen's own templates (markergen/templates/) write outputs too
                if name.endswith((".py", ".so", ".pyd", ".j2")):
                    try:
                        st = os.stat(os.path.join(dirpath, name))
                    except OSError:
                        parts.append(f"{dirpath}/{name}:unreadable")
                        continue
                    parts.append(f"{dirpath}/{name}:{st.st_size}:{st.st_mtime_ns}")
    return "\n".join(parts)


def _canonical(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _canonical(v) for k, v in sorted(value.items(), key=lambda i: str(i[0]))}
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


_NO_SUM = "0" * 64  # the body's SHA-256 before it is known (same length)


def _header(run: CachedRun, key: str, sizes: list[tuple[str, int]], body_sum: str) -> bytes:
    header = {
        "format": _FORMAT,
        "key": key,
        "diagnostics": [d.to_record() for d in run.diagnostics],
        "outputs": [[name, size] for name, size in sizes],
        "extra": [list(pair) for pair in run.extra],
        "sha256": body_sum,
    }
    # ensure_ascii keeps the header free of raw newlines and multi-byte characters.
    return json.dumps(header, sort_keys=True).encode("ascii")


def _decode(raw: bytes, key: str) -> CachedRun | None:
    """The run in a cache file, checking every value (a corrupt file is a miss)."""
    line_end = raw.index(b"\n")
    header = json.loads(raw[:line_end])
    if not isinstance(header, dict) or header.get("format") != _FORMAT:
        return None
    if header.get("key") != key:
        return None
    body = raw[line_end + 1 :]
    if hashlib.sha256(body).hexdigest() != header["sha256"]:
        return None
    diagnostics = [Diagnostic.from_record(d) for d in header["diagnostics"]]
    outputs: dict[str, str] = {}
    offset = 0
    for name, size in header["outputs"]:
        end = offset + _int(size)
        outputs[_str(name)] = body[offset:end].decode("utf-8")
        offset = end
    if offset != len(body):
        return None
    extra = tuple((_str(p), _str(h)) for p, h in header["extra"])
    return CachedRun(tuple(diagnostics), outputs, extra)


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("expected a string")
    return value


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("expected an integer")
    return value


def _make_cache_dirs(directory: Path) -> None:
    """Create `directory` (and its parents) for a cache file. Every directory made here
    is a cache, so the top-most one created gets a `.gitignore` of `*`, as does any
    `.markergen-cache` above the file (one made by an older markergen without it):
    `git add -A` then never commits cache files, whichever cache wrote first."""
    missing = [d for d in (directory, *directory.parents) if not d.exists()]
    directory.mkdir(parents=True, exist_ok=True)
    if missing:
        _ignore_in_git(missing[-1])
    for d in (directory, *directory.parents):
        if d.name == CACHE_DIR_NAME:
            _ignore_in_git(d)
            break


def _ignore_in_git(directory: Path) -> None:
    """A `.gitignore` of `*` inside the cache, so no project has to list it."""
    marker = directory / ".gitignore"
    if not marker.exists():
        with contextlib.suppress(OSError):
            marker.write_text("# Created by markergen: this cache is safe to delete.\n*\n")
