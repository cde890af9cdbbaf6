"""`markergen validate`'s verdict on openshift/api's own API-server tests, not run in CI.

    .venv/bin/python bench/validate_openshift_suites.py /work/real/openshift+api

openshift/api keeps, beside each API version, `tests/<crd>/*.yaml` suites that its CI runs
against a real API server (envtest) with the generated CRDs: `onCreate` entries give an
`initial` object and either the `expected` stored object or an `expectedError`;
`onUpdate` entries add the `updated` object. Every object the server accepted must be
accepted by markergen too (the runtime table of `./...`, validated as created, or as
updated from `initial`): each rejection is a false error of markergen. Objects the server
rejected are counted apart, with how many markergen rejects as well (their errors are
mostly other validations, which markergen does not model).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import yaml
from _verdicts import Rejections, Validator


def suites(root: Path) -> list[Path]:
    return sorted(
        p
        for p in root.glob("*/*/tests/**/*.yaml")
        if "vendor" not in p.parts and not any(part.startswith(".") for part in p.parts)
    )


def load(text: object) -> Any:
    if not isinstance(text, str):
        return None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkout", type=Path)
    ap.add_argument("--all", action="store_true", help="list every false rejection")
    args = ap.parse_args()
    root = args.checkout.resolve()
    validator = Validator(["./..."], root)
    accepted_ok = accepted_total = rejected_total = rejected_too = skipped = 0
    rejections = Rejections()
    kinds: Counter[str] = Counter()
    for path in suites(root):
        try:
            doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (yaml.YAMLError, UnicodeDecodeError):
            continue
        tests = doc.get("tests") if isinstance(doc, dict) else None
        if not isinstance(tests, dict):
            continue
        for phase in ("onCreate", "onUpdate"):
            for case in tests.get(phase) or []:
                if not isinstance(case, dict):
                    continue
                initial = load(case.get("initial"))
                new = load(case.get("updated")) if phase == "onUpdate" else initial
                old = initial if phase == "onUpdate" else None
                if not isinstance(new, dict) or not isinstance(new.get("kind"), str):
                    skipped += 1
                    continue
                errors = validator.errors(new, old)
                if errors is None:
                    skipped += 1
                    continue
                kinds[new["kind"]] += 1
                server_rejects = bool(case.get("expectedError") or case.get("expectedStatusError"))
                if server_rejects:
                    rejected_total += 1
                    rejected_too += bool(errors)
                    continue
                accepted_total += 1
                if not errors:
                    accepted_ok += 1
                    continue
                where = f"{path.relative_to(root)}: {case.get('name', '?')}"
                rejections.add(new["kind"], errors, where)
    print(f"suites: {len(suites(root))}; objects by kind: {len(kinds)} kinds, {sum(kinds.values())} objects")
    print(f"server accepted: {accepted_total}; markergen accepts {accepted_ok}, rejects {accepted_total - accepted_ok}")
    print(f"server rejected: {rejected_total}; markergen rejects {rejected_too} of them too")
    print(f"not read (no object, or a kind the inputs lack): {skipped}")
    rejections.print(args.all)
    return 0


if __name__ == "__main__":
    sys.exit(main())
