"""A real CEL evaluator for the rules markergen writes, as the API server would run them.

`common-expression-language` (Rust, ~4 µs an evaluation) when installed, else
`cel-python` (pure Python, the test suite's known-good engine). Both read the object as
`self`, a JSON-like value with CEL-escaped property names.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

Program = Callable[[Any], bool]


class CelError(Exception):
    """A rule the engine cannot compile or evaluate."""


def _engine_name() -> str:
    # Found, not imported: the import (~0.2 s) is paid when a rule is first compiled.
    import importlib.util

    return "cel" if importlib.util.find_spec("cel") is not None else "celpy"


class CelEvaluator:
    """Compiles each rule once; `engine` is "cel" or "celpy" (None: the fastest installed)."""

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
            found = self._compile(rule)
            self._programs[rule] = found
        return found

    def _compile(self, rule: str) -> Program:
        if self._mod is None:
            self._mod = importlib.import_module(self.engine)
            self._env = self._mod.Environment() if self.engine == "celpy" else None
        mod = self._mod
        try:
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
