"""atheris harness: the marker grammar (markergen.markers.parse_line).

Any exception out of parse_line is a finding: bad marker text must become a MarkerError.
Run through fuzz/run.sh (a fixed budget); not part of pytest.
"""

from __future__ import annotations

import sys

import atheris  # type: ignore[import-untyped]

with atheris.instrument_imports():
    from markergen.golang.syntax import Position
    from markergen.markers import Marker, MarkerError, parse_line

POS = Position("fuzz.go", 1, 1)


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    line = "+" + fdp.ConsumeUnicodeNoSurrogates(len(data))
    result = parse_line(line, POS)
    if result is not None and not isinstance(result, Marker | MarkerError):
        raise AssertionError(f"unexpected result {result!r}")


def main() -> None:
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
