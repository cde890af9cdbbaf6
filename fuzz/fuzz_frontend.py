"""atheris harness: the Go front end and builder (bytes → GoFile → Model → diagnostics).

Any exception other than DecodeError (which the loader turns into MG002) is a finding.
Run through fuzz/run.sh (a fixed budget); not part of pytest.
"""

from __future__ import annotations

import sys

import atheris  # type: ignore[import-untyped]

with atheris.instrument_imports():
    from markergen.golang.parser import GoParser
    from markergen.golang.source import DecodeError
    from markergen.golang.syntax import GoPackage
    from markergen.model.builder import build_model
    from markergen.rules import all_diagnostics

PARSER = GoParser()


def test_one_input(data: bytes) -> None:
    try:
        gofile = PARSER.parse("fuzz.go", data)
    except DecodeError:
        return
    pkg = GoPackage(
        dir="fuzz", import_path="example.com/fuzz", module_root=".", files=(gofile,),
        problems=(), skipped=(),
    )
    all_diagnostics(build_model([pkg]))


def main() -> None:
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
