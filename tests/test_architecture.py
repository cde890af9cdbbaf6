"""docs/architecture.md's layer table is the law of imports: every import between two
units of markergen goes to a lower layer. Imports inside functions count too."""

from __future__ import annotations

import ast
import re

from helpers import REPO

PACKAGE = REPO / "markergen"


def layers() -> dict[str, int]:
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = text.split("<!-- layers:start -->")[1].split("<!-- layers:end -->")[0]
    out: dict[str, int] = {}
    for row in table.splitlines():
        match = re.match(r"^\| (\d+) \| (.*?) \|", row)
        if match:
            for unit in re.findall(r"`(markergen[\w.]*)`", match.group(2)):
                out[unit] = int(match.group(1))
    return out


def unit_of(module: str, known: dict[str, int]) -> str:
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        candidate = ".".join(parts[:n])
        if candidate in known:
            return candidate
    raise AssertionError(f"{module} belongs to no unit of docs/architecture.md")


def _is_module(name: str) -> bool:
    return (PACKAGE / f"{name}.py").is_file() or (PACKAGE / name / "__init__.py").is_file()


def imports() -> list[tuple[str, str, int]]:
    """(importing module, imported module, line) for every import of markergen code."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(REPO).with_suffix("").parts)
        module = module.removesuffix(".__init__")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] if node.module != "markergen" else [
                    f"markergen.{a.name}" if _is_module(a.name) else "markergen"
                    for a in node.names
                ]
                found += [(module, n, node.lineno) for n in names if n.startswith("markergen")]
            elif isinstance(node, ast.Import):
                found += [(module, a.name, node.lineno) for a in node.names
                          if a.name.startswith("markergen")]
    return found


def test_every_module_belongs_to_a_documented_unit() -> None:
    known = layers()
    for path in PACKAGE.rglob("*.py"):
        module = ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
        if module == "markergen":
            continue
        unit_of(module, known)


def violations(found: list[tuple[str, str, int]], known: dict[str, int]) -> list[str]:
    wrong = []
    for source, target, line in found:
        if source == "markergen" or target == "markergen":
            continue  # the package's own __init__ (the version) is below everything
        a, b = unit_of(source, known), unit_of(target, known)
        if a != b and known[b] >= known[a]:
            wrong.append(f"{source}:{line} imports {target} (layer {known[a]} -> {known[b]})")
    return wrong


def test_imports_go_down_the_layers() -> None:
    assert violations(imports(), layers()) == []


def test_the_runtime_imports_nothing_of_markergen() -> None:
    wrong = [(s, t) for s, t, _ in imports()
             if s.startswith("markergen.runtime") and not t.startswith("markergen.runtime")]
    assert wrong == []


def test_an_upward_or_sideways_import_is_reported() -> None:
    known = layers()
    upward = ("markergen.model.builder", "markergen.cli", 3)
    sideways = ("markergen.rules.members", "markergen.emit.openapi", 7)
    inside = ("markergen.emit.outputs", "markergen.emit.openapi", 9)
    assert violations([upward, sideways, inside], known) == [
        "markergen.model.builder:3 imports markergen.cli (layer 3 -> 9)",
        "markergen.rules.members:7 imports markergen.emit.openapi (layer 4 -> 4)",
    ]
