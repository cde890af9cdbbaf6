"""The built-in templates precompiled (markergen/emit/precompiled.py): Jinja's Python text
of each, used instead of lexing, parsing and generating them on every run, only for the
built-in file itself, whose text and Jinja version must be those it was compiled from.

After an intended change of a built-in template, regenerate the module with
`MARKERGEN_UPDATE_GOLDEN=1 pytest tests/test_precompiled_templates.py`, then read the
diff.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import jinja2
import pytest
from helpers import TESTDATA

from markergen.emit import precompiled
from markergen.emit.options import EmitOptions
from markergen.emit.outputs import OUTPUTS, Inputs
from markergen.emit.templating import BUILTIN_DIR, Templates, builtin_names, precompiled_module
from markergen.pipeline import load_model

MODULE = Path(precompiled.__file__)


def test_the_module_is_current() -> None:
    if os.environ.get("MARKERGEN_UPDATE_GOLDEN") == "1":
        MODULE.write_text(precompiled_module(), encoding="utf-8")
    if jinja2.__version__ != precompiled.JINJA:
        pytest.skip(
            f"compiled by Jinja {precompiled.JINJA}, this is {jinja2.__version__}: "
            f"pip install jinja2=={precompiled.JINJA}"
        )
    assert MODULE.read_text(encoding="utf-8") == precompiled_module()
    assert sorted(precompiled.TEMPLATES) == list(builtin_names())


def _compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the templates Jinja compiles from their text from now on."""
    names: list[str] = []
    compile_ = jinja2.Environment.compile

    def counted(self: Any, source: str, name: str | None = None, *args: Any, **kw: Any) -> Any:
        names.append(str(name))
        return compile_(self, source, name, *args, **kw)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    return names


def _render_all(templates: Templates) -> dict[str, str]:
    inputs = Inputs(load_model(["./..."], TESTDATA / "kep"), EmitOptions(), templates)
    return {o.filename: "".join(inputs.chunks(o)) for o in OUTPUTS}


def test_builtin_templates_are_not_compiled_and_write_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if jinja2.__version__ != precompiled.JINJA:
        pytest.skip(
            f"compiled by Jinja {precompiled.JINJA}, this is {jinja2.__version__}: "
            f"pip install jinja2=={precompiled.JINJA}"
        )
    compiled = _compiles(monkeypatch)
    fast = _render_all(Templates())
    assert compiled == []
    # the same outputs from templates compiled from their text
    monkeypatch.setattr(precompiled, "TEMPLATES", {})
    assert _render_all(Templates()) == fast
    assert sorted(compiled) == sorted(o.filename + ".j2" for o in OUTPUTS)


def test_a_template_whose_text_changed_is_compiled_from_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    name = "openapi-v2.json.j2"
    stale = dict(precompiled.TEMPLATES)
    # the code of another template under this one's name: never used, its digest is wrong
    stale[name] = ("0" * 64, stale["unions_table.py.j2"][1])
    monkeypatch.setattr(precompiled, "TEMPLATES", stale)
    compiled = _compiles(monkeypatch)
    text = Templates().render(name, {"schemas": [], "info": {}, "external": list})
    assert compiled == [name]
    assert text.startswith('{\n  "definitions": {},')


def test_a_project_template_named_like_a_builtin_one_is_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "openapi-v2.json.j2").write_text("mine: {{ title }}\n")
    compiled = _compiles(monkeypatch)
    templates = Templates(tmp_path)
    assert templates.render("openapi-v2.json.j2", {"title": "T"}) == "mine: T\n"
    assert compiled == ["openapi-v2.json.j2"]
    # and the built-in one beside it still comes precompiled, from the built-in file
    assert templates.compiled("unions_table.py.j2").filename == str(
        BUILTIN_DIR / "unions_table.py.j2"
    )
    if jinja2.__version__ == precompiled.JINJA:
        assert compiled == ["openapi-v2.json.j2"]
