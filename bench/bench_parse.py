"""Parse every .go file below one or more directories and print files, bytes and wall time.

Usage: python bench/bench_parse.py DIR... [--repeat N] [--hand-written]
                                   [--save FILE | --compare FILE]

Used to measure the Go front end on large trees (kubernetes/api: about 1.75 MB of
hand-written Go). Reading the files from disk is not timed; parsing (decode,
tree-sitter, record walk) is, and so is tree-sitter's parse alone (the floor of any
tree-sitter front end), so the walk's own time is the difference. The comment lines a
`generate` run reads (package comments, type, field and const docs) are read too.

`--hand-written` reads only the files `generate` reads: no `_test.go`, no file with the
standard `// Code generated ... DO NOT EDIT.` header.

`--save FILE` writes a digest of every file's records (the GoFile, read whole and
without struct fields) to FILE; `--compare FILE` reads them back and reports every file
whose records differ. Run `--save` with one version of markergen and `--compare` with
another to show that a change of the front end keeps the records equal:

    OLD/.venv/bin/python bench/bench_parse.py TREE... --save /tmp/records.json
    NEW/.venv/bin/python bench/bench_parse.py TREE... --compare /tmp/records.json
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import re
import sys
import time
from pathlib import Path

from markergen.golang.parser import DecodeError, GoParser
from markergen.golang.source import prepare
from markergen.golang.syntax import GoFile

# the one serialization of the records, shared with tests/test_frontend_gaps.py
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from frontend_records import plain

GENERATED = re.compile(rb"^// Code generated .* DO NOT EDIT\.$", re.MULTILINE)


def read_docs(f: GoFile) -> None:
    """Read the lines of every comment group a `generate` run reads (package comments,
    type, field and const docs), so that lines made on first use are counted."""
    groups = [*f.package_comments]
    for t in f.types:
        groups += [t.doc, t.doc_extra, *(fd.doc for fd in t.type.fields)]
    groups += [c.doc for c in f.consts]
    for g in groups:
        if g is not None:
            g.lines  # noqa: B018 - made on first read


def digest(parser: GoParser, path: str, data: bytes) -> str:
    try:
        records = [parser.parse(path, data),
                   parser.parse_prepared(path, prepare(path, data), struct_fields=False)]
    except DecodeError as exc:
        return f"decode error: {exc}"
    text = json.dumps(plain(records), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("dirs", type=Path, nargs="+")
    ap.add_argument("--repeat", type=int, default=1, help="parse the whole set N times")
    ap.add_argument("--hand-written", action="store_true")
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--save", type=Path)
    group.add_argument("--compare", type=Path)
    args = ap.parse_args(argv)
    blobs: list[tuple[str, bytes]] = []
    for d in args.dirs:
        if not d.is_dir():
            print(f"not a directory: {d}", file=sys.stderr)
            return 2
        for p in sorted(p for p in d.rglob("*.go") if p.is_file()):
            data = p.read_bytes()
            if args.hand_written and (
                p.name.endswith("_test.go") or GENERATED.search(data[:4096])
            ):
                continue
            blobs.append((p.as_posix(), data))
    total = sum(len(b) for _, b in blobs)
    parser = GoParser()
    best = best_ts = float("inf")
    errors = undecodable = types = 0
    for _ in range(max(1, args.repeat)):
        errors = undecodable = types = 0
        start = time.perf_counter()
        for path, data in blobs:
            try:
                f = parser.parse(path, data)
            except DecodeError:
                undecodable += 1
                continue
            types += len(f.types)
            errors += len(f.errors)
            read_docs(f)
        best = min(best, time.perf_counter() - start)
        prepared = []
        for path, data in blobs:
            with contextlib.suppress(DecodeError):
                prepared.append(prepare(path, data))
        start = time.perf_counter()
        for data in prepared:
            parser._parser.parse(data)
        best_ts = min(best_ts, time.perf_counter() - start)
    print(
        f"files={len(blobs)} bytes={total} seconds={best:.3f} tree_sitter={best_ts:.3f} "
        f"walk={best - best_ts:.3f} MB/s={total / 1e6 / best if best else 0:.1f} "
        f"types={types} syntax_errors={errors} undecodable={undecodable}"
    )
    if args.save or args.compare:
        digests = {path: digest(parser, path, data) for path, data in blobs}
        if args.save:
            args.save.write_text(json.dumps(digests, indent=0, sort_keys=True) + "\n")
            print(f"records of {len(digests)} files saved to {args.save}")
        else:
            saved = json.loads(args.compare.read_text())
            differ = sorted(p for p in digests if saved.get(p) != digests[p])
            missing = sorted(set(saved) - set(digests))
            print(f"records compared: {len(digests)} files, {len(differ)} differ, "
                  f"{len(missing)} missing")
            for p in differ[:20]:
                print(f"  differs: {p}")
            return 1 if differ or missing else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
