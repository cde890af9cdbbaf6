"""A real CEL evaluator for the rules markergen writes, as the API server would run them.

`cel-expr-python` (Google's CEL C++, imported in milliseconds, no dependencies: the
tool's engine), else `common-expression-language` (Rust; its import brings its command
line, ~0.2 s), else `cel-python` (pure Python, the test suite's known-good engine). All
read the object as `self`, a JSON-like value with CEL-escaped property names.
bench/bench_cel_engines.py measures them (docs/performance.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

Program = Callable[[Any], bool]


class CelError(Exception):
    """A rule the engine cannot compile or evaluate."""


ENGINES = ("cel_expr_python", "cel", "celpy")  # preferred first


def _engine_name() -> str:
    # Found, not imported: an engine is imported when a rule is first compiled.
    import importlib.util

    return next((e for e in ENGINES[:-1] if importlib.util.find_spec(e) is not None), "celpy")


def _failing(error: CelError) -> Program:
    def run(obj: Any) -> bool:
        raise error

    return run


class CelEvaluator:
    """Compiles each rule once; `engine` is one of ENGINES (None: the first installed)."""

    def __init__(self, engine: str | None = None) -> None:
        self._engine = engine
        self._mod: Any = None  # imported on first use: a run without unions never pays it
        self._env: Any = None
        self._programs: dict[str, Program] = {}

    @property
    def engine(self) -> str:
        if self._engine is None:
            self._engine = _engine_name()
        return self._engine

    def program(self, rule: str) -> Program:
        found = self._programs.get(rule)
        if found is None:
            try:
                found = self._compile(rule)
            except CelError as e:
                found = _failing(e)  # compiled once: a rule asked for often fails fast
            self._programs[rule] = found
        return found

    def _compile(self, rule: str) -> Program:
        if self._mod is None:
            if self.engine == "cel_expr_python":
                self._mod = importlib.import_module("cel_expr_python.cel")
                self._env = self._mod.NewEnv(variables={"self": self._mod.Type.DYN})
            else:
                self._mod = importlib.import_module(self.engine)
                self._env = self._mod.Environment() if self.engine == "celpy" else None
        mod = self._mod
        try:
            if self.engine == "cel_expr_python":
                expr: Any = self._env.compile(rule)

                def run_cxx(obj: Any) -> bool:
                    try:
                        value = expr.eval(data={"self": obj})
                    except Exception as e:
                        raise CelError(f"{rule}: {e}") from e
                    result = value.value()
                    if value.type() == mod.Type.ERROR:  # returned, not raised
                        raise CelError(f"{rule}: {result}")
                    return result is True

                return run_cxx
            if self.engine == "cel":
                compiled: Any = mod.compile(rule)

                def run(obj: Any) -> bool:
                    try:
                        return compiled.execute({"self": obj}) is True
                    except Exception as e:  # the engine's own error types
                        raise CelError(f"{rule}: {e}") from e

                return run
            env = self._env
            prog: Any = env.program(env.compile(rule))
            to_cel: Any = mod.json_to_cel

            def run_py(obj: Any) -> bool:
                try:
                    result = prog.evaluate({"self": to_cel(obj)})
                except Exception as e:
                    raise CelError(f"{rule}: {e}") from e
                if isinstance(result, Exception):  # cel-python returns some errors
                    raise CelError(f"{rule}: {result}")
                # BoolType is an int subclass; anything else is not a CEL true
                return isinstance(result, int) and bool(result)

            return run_py
        except CelError:
            raise
        except Exception as e:
            raise CelError(f"{rule}: {e}") from e

    def passes(self, rule: str, obj: Any) -> bool:
        return self.program(rule)(obj)

    def verdict(self, rule: str, obj: Any) -> bool | None:
        """The rule's verdict on `obj`, or None when it cannot be known here: the rule
        does not compile (a Kubernetes CEL library function such as `isURL`), reads
        `oldSelf` (a transition rule, not run on create), or fails on this object (a
        field inside a member, which these small objects leave empty)."""
        try:
            return self.program(rule)(obj)
        except CelError:
            return None
