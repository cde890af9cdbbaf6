"""Which CEL engine for `markergen crd`'s proofs and `check`'s MG511: import time and
agreement on markergen's own rules.

Usage: python bench/bench_cel_engines.py CHECKOUT [--repeat N]

CHECKOUT is a markergen checkout (its testdata/example project and testdata/crd
fixtures are read). For each installed engine (common-expression-language `cel`,
cel-python `celpy`, cel-expr-python `cel_expr_python`):
- import time: the best of --repeat fresh interpreters (`import` alone, nothing else),
  and the modules the import brings in;
- agreement: every `x-kubernetes-validations` rule markergen writes into the CRDs of
  the example project and of the fixtures, evaluated on every object of its node
  (each combination of present properties x each discriminator value, an unknown
  value, "" and unset), compared with cel-python (the test suite's reference engine).
  An evaluation error counts as "rejects", as the API server reports it.
Nothing is fetched.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

IMPORTS = {
    "cel": "import cel",
    "celpy": "import celpy",
    "cel_expr_python": "from cel_expr_python import cel",
}


def import_seconds(engine: str, repeat: int) -> tuple[float, int]:
    """(best import time, modules the import adds) in fresh interpreters."""
    code = (
        "import sys, time\n"
        "before = set(sys.modules)\n"
        "t = time.perf_counter()\n"
        f"{IMPORTS[engine]}\n"
        "print(time.perf_counter() - t, len(set(sys.modules) - before))\n"
    )
    best, modules = float("inf"), 0
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True).stdout.split()  # fmt: skip
        best, modules = min(best, float(out[0])), int(out[1])
    return best, modules


def evaluator(engine: str) -> Callable[[str], Callable[[Any], bool]]:
    """rule → (object → accepted?) for one engine; an error rejects."""
    if engine == "celpy":
        import celpy

        env = celpy.Environment()

        def compile_py(rule: str) -> Callable[[Any], bool]:
            prog = env.program(env.compile(rule))

            def run(obj: Any) -> bool:
                try:
                    result = prog.evaluate({"self": celpy.json_to_cel(obj)})  # type: ignore[attr-defined]
                except Exception:
                    return False
                return (
                    not isinstance(result, Exception) and isinstance(result, int) and bool(result)
                )

            return run

        return compile_py
    if engine == "cel":
        import cel

        def compile_rs(rule: str) -> Callable[[Any], bool]:
            prog = cel.compile(rule)

            def run(obj: Any) -> bool:
                try:
                    return prog.execute({"self": obj}) is True
                except Exception:
                    return False

            return run

        return compile_rs
    from cel_expr_python import cel as cxx

    env_cxx = cxx.NewEnv(variables={"self": cxx.Type.DYN})

    def compile_cxx(rule: str) -> Callable[[Any], bool]:
        expr = env_cxx.compile(rule)

        def run(obj: Any) -> bool:
            try:
                return expr.eval(data={"self": obj}).value() is True
            except Exception:
                return False

        return run

    return compile_cxx


def _sample(prop: dict[str, Any]) -> Any:
    return {"object": {}, "array": [], "integer": 1, "boolean": True}.get(
        prop.get("type", "string"), "x"
    )


def _nodes(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        if value.get("x-kubernetes-validations") and value.get("properties"):
            yield value
        for v in value.values():
            yield from _nodes(v)
    elif isinstance(value, list):
        for v in value:
            yield from _nodes(v)


def _objects(node: dict[str, Any]) -> list[dict[str, Any]]:
    """Every combination of present properties (scalar discriminators: each enum value,
    an unknown value and "")."""
    axes = []
    for name, prop in sorted(node["properties"].items()):
        values: list[Any] = [None]
        if "enum" in prop:
            values += [*prop["enum"], "NoSuchValue", ""]
        else:
            values.append(_sample(prop))
        axes.append([(name, v) for v in values])
    if len(axes) > 9:  # keep the product small: the first nine properties
        axes = axes[:9]
    return [{k: v for k, v in combo if v is not None} for combo in itertools.product(*axes)]


def rule_cases(checkout: Path) -> list[tuple[str, list[Any]]]:
    """(rule, objects) for every rule markergen writes into the checkout's CRDs."""
    sys.path.insert(0, str(checkout))
    from markergen.crd.cel import escape_property
    from markergen.crd.run import patch_text
    from markergen.pipeline import load_model
    from markergen.yamlio import load_documents

    cases: list[tuple[str, list[Any]]] = []
    projects = [
        checkout / "testdata" / "example",
        *sorted((checkout / "testdata" / "crd").iterdir()),
    ]
    for project in projects:
        if not (project / "go.mod").is_file():
            continue
        model = load_model(["./..."], project)
        for crd in sorted(project.rglob("*.yaml")):
            text = crd.read_text(encoding="utf-8")
            if "CustomResourceDefinition" not in text:
                continue
            patched, _ = patch_text(model, text, str(crd))
            for doc in load_documents(patched):
                for node in _nodes(doc.value):
                    objects = [
                        {escape_property(k) or k: v for k, v in o.items()} for o in _objects(node)
                    ]
                    for rule in node["x-kubernetes-validations"]:
                        cases.append((rule["rule"], objects))
    return cases


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("checkout", type=Path)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args(argv)
    engines = [e for e in IMPORTS if importlib.util.find_spec(e) is not None]
    print("engine            import (best)  modules added")
    for e in engines:
        seconds, modules = import_seconds(e, args.repeat)
        print(f"{e:<17} {seconds:8.3f} s     {modules:5d}")
    cases = rule_cases(args.checkout.resolve())
    evaluations = sum(len(objs) for _, objs in cases)
    print(f"\n{len(cases)} rules, {evaluations} evaluations; disagreements with celpy:")
    reference = evaluator("celpy")
    verdicts = [[reference(rule)(o) for o in objs] for rule, objs in cases]
    for e in engines:
        if e == "celpy":
            continue
        compile_rule = evaluator(e)
        wrong = errors = 0
        for (rule, objs), wanted in zip(cases, verdicts, strict=True):
            try:
                run = compile_rule(rule)
            except Exception:
                errors += 1
                continue
            wrong += sum(run(o) != want for o, want in zip(objs, wanted, strict=True))
        print(f"  {e:<17} {wrong} verdicts differ, {errors} rules fail to compile")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
