"""`markergen validate`'s verdict on the objects a project keeps (issue 22): every YAML
object under the project's sample directories whose apiVersion names a group of its Go
API packages (`+groupName`) is validated against the runtime table generated from
those packages. The projects apply these objects to real API servers in their own CI,
so every rejection is a false error of markergen (or a stale sample: read them).

    .venv/bin/python bench/validate_samples.py /tmp/gateway --patterns ./api/...

Prints the number of objects found, accepted and rejected, then the rejections grouped
by type and message (with one file:document example each); `--all` lists every one.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from _verdicts import Rejections, Validator

from markergen.project.samples import ENVSUBST

DEFAULT_DIRS = ("config/samples", "examples", "samples", "docs", "test", "site")
SKIP_DIRS = {"vendor", "node_modules", "testdata-output"}


def yaml_files(root: Path, dirs: list[str]) -> Iterator[Path]:
    for d in dirs:
        base = root / d
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*")):
            rel = path.relative_to(root).parts
            if any(p.startswith(".") or p in SKIP_DIRS for p in rel):
                continue
            if path.suffix in (".yaml", ".yml") and path.is_file():
                yield path


def objects(path: Path, groups: set[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    text = path.read_text(errors="replace")
    if "{{" in text or ENVSUBST.search(text) or not any(g in text for g in groups):
        return  # templated (Helm, envsubst) or no object of these groups: skip before parsing
    try:
        docs = list(yaml.safe_load_all(text))
    except yaml.YAMLError:
        return
    for i, doc in enumerate(docs):
        if isinstance(doc, dict) and isinstance(doc.get("apiVersion"), str):
            yield i, doc
        elif isinstance(doc, dict) and doc.get("kind") == "List":
            for item in doc.get("items") or []:
                if isinstance(item, dict):
                    yield i, item


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("project", type=Path)
    ap.add_argument("--patterns", nargs="+", default=["./api/..."])
    ap.add_argument("--dirs", nargs="+", default=list(DEFAULT_DIRS))
    ap.add_argument("--all", action="store_true", help="list every rejection")
    args = ap.parse_args()

    validator = Validator(args.patterns, args.project)
    groups = {p.group_name for p in validator.model.packages if p.group_name}
    found = accepted = 0
    kinds: Counter[str] = Counter()
    rejections = Rejections()
    for path in yaml_files(args.project, args.dirs):
        for index, obj in objects(path, groups):
            group = str(obj["apiVersion"]).rpartition("/")[0]
            if group not in groups or not isinstance(obj.get("kind"), str):
                continue
            errors = validator.errors(obj)
            if errors is None:
                continue
            found += 1
            kinds[obj["kind"]] += 1
            if not errors:
                accepted += 1
                continue
            rejections.add(obj["kind"], errors, f"{path.relative_to(args.project)}#{index}")
    print(f"groups: {', '.join(sorted(groups))}")
    print(f"objects: {found} ({', '.join(f'{k} {n}' for k, n in kinds.most_common())})")
    print(f"accepted: {accepted}  rejected: {found - accepted}")
    rejections.print(args.all)
    return 0


if __name__ == "__main__":
    sys.exit(main())
