"""The runtime semantics a union can take, declared once for the tool.

A leaf (it imports nothing and creates no class), so that what only needs the names
imports nothing more: the settings that build `markergen generate --help`
(markergen.config), the `--semantics` choices of `validate` and `normalize`, the model's
unions and the renderers. markergen.runtime keeps its own copy
(markergen/runtime/table.py, SEMANTICS) because it installs alone; tests/test_startup.py
holds the two equal.
"""

from __future__ import annotations

from typing import Literal, get_args

# "k8s": validation-gen's checks (markergen/runtime/k8s.py, CEL in markergen/crd/cel.py):
# the default of the k8s dialect's unions (setting `semantics: {k8s: kep1027}` opts out).
Semantics = Literal["kep1027", "kep2019", "smd", "k8s"]
SEMANTICS: tuple[Semantics, ...] = get_args(Semantics)
