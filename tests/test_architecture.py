"""docs/architecture.md's layer table is the law of imports: every import between two
units of markergen goes to a lower layer. Imports inside functions count too. And no
import circle anywhere, between modules of one unit included."""

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


def _module_names() -> set[str]:
    return {
        ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
        for path in PACKAGE.rglob("*.py")
    }


def imports(*, submodules: bool = False) -> list[tuple[str, str, int]]:
    """(importing module, imported module, line) for every import of markergen code.
    With `submodules`, `from markergen.a import b` of a module `b` is an import of
    `markergen.a.b` (not of the package `markergen.a`): the module graph of the circle
    test."""
    modules = _module_names() if submodules else set()
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(REPO).with_suffix("").parts)
        module = module.removesuffix(".__init__")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = (
                    [node.module]
                    if node.module != "markergen"
                    else [
                        f"markergen.{a.name}" if _is_module(a.name) else "markergen"
                        for a in node.names
                    ]
                )
                if submodules:
                    names = [
                        f"{node.module}.{a.name}"
                        if f"{node.module}.{a.name}" in modules
                        else node.module
                        for a in node.names
                    ]
                found += [(module, n, node.lineno) for n in names if n.startswith("markergen")]
            elif isinstance(node, ast.Import):
                found += [
                    (module, a.name, node.lineno)
                    for a in node.names
                    if a.name.startswith("markergen")
                ]
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
    wrong = [
        (s, t)
        for s, t, _ in imports()
        if s.startswith("markergen.runtime") and not t.startswith("markergen.runtime")
    ]
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


def circles(found: list[tuple[str, str, int]]) -> list[str]:
    """Every import circle among the modules of `found`, one line each: the modules of a
    strongly connected component of the import graph, with the imports that close it."""
    graph: dict[str, dict[str, int]] = {}
    for source, target, line in found:
        if source != target:
            graph.setdefault(source, {}).setdefault(target, line)
            graph.setdefault(target, {})
    # Tarjan's algorithm, iterative (a deep package must not hit the recursion limit).
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            child = next(edges, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    out = []
    for component in sorted(components):
        inside = set(component)
        edges = [
            f"{a}:{line} -> {b}"
            for a in component
            for b, line in sorted(graph[a].items())
            if b in inside
        ]
        out.append(f"circle {', '.join(component)}: {'; '.join(edges)}")
    return out


def test_no_import_circle() -> None:
    assert circles(imports(submodules=True)) == []


def test_an_import_circle_is_reported() -> None:
    # Inside one unit (the runtime), a circle through a type-checking import, and two
    # units' modules that import each other; the chain below them is no circle.
    found = [
        ("markergen.runtime.table", "markergen.runtime.quick", 16),
        ("markergen.runtime.quick", "markergen.runtime.table", 28),
        ("markergen.rules.enums", "markergen.rules.members", 371),
        ("markergen.rules.members", "markergen.rules.base", 22),
        ("markergen.rules.base", "markergen.rules.enums", 5),
        ("markergen.model", "markergen.golang.syntax", 15),
        ("markergen.golang.parser", "markergen.golang.syntax", 24),
    ]
    assert circles(found) == [
        "circle markergen.rules.base, markergen.rules.enums, markergen.rules.members: "
        "markergen.rules.base:5 -> markergen.rules.enums; "
        "markergen.rules.enums:371 -> markergen.rules.members; "
        "markergen.rules.members:22 -> markergen.rules.base",
        "circle markergen.runtime.quick, markergen.runtime.table: "
        "markergen.runtime.quick:28 -> markergen.runtime.table; "
        "markergen.runtime.table:16 -> markergen.runtime.quick",
    ]
    assert circles(found[4:]) == []


def test_the_module_graph_sees_submodules_and_type_checking_imports() -> None:
    # `from markergen.golang import comments` is an import of the module comments, and an
    # import under `if TYPE_CHECKING:` counts (ast.walk reaches it).
    found = set((s, t) for s, t, _ in imports(submodules=True))
    assert ("markergen.golang.parser", "markergen.golang.comments") in found
    assert ("markergen.model", "markergen.model.traits") in found
    assert ("markergen.emit.outputs", "markergen.emit.schemapass") in found  # TYPE_CHECKING
