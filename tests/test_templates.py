"""Jinja templates (docs/templates.md): a project's templates add outputs and replace
built-in ones through the same writer, `--verify` and cache; a broken template is one
line naming its file and line, exit 2, and no output changes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers import TESTDATA, run_cli

from markergen.emit.context import build_context
from markergen.emit.options import EmitOptions
from markergen.emit.table import build_table
from markergen.emit.templating import TemplateError, Templates, builtin_names
from markergen.pipeline import load_model

DEFS = "{% for d in definitions %}\n{{ d }}\n{% endfor %}\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    dest = tmp_path / "kep"
    shutil.copytree(TESTDATA / "kep", dest)
    (dest / "markergen.yaml").write_text("templates: hack/templates\ninputs: [./kep000/...]\n")
    (dest / "hack" / "templates").mkdir(parents=True)
    return dest


def _templates(project: Path) -> Path:
    return project / "hack" / "templates"


def test_a_template_adds_an_output_kept_by_verify_and_the_cache(project: Path) -> None:
    (_templates(project) / "definitions.txt.j2").write_text(DEFS)
    res = run_cli(["generate"], project)
    assert res.code == 0, res.stderr
    out = project / "openapi" / "definitions.txt"
    assert out.read_text() == (
        "com.example.kep.kep000.InlinedUnion\ncom.example.kep.kep000.TopLevelUnion\n"
        "com.example.kep.kep000.Union\ncom.example.kep.kep000.Union2\n"
    )
    assert "openapi/definitions.txt" in res.stderr
    # Served from the cache: nothing rewritten, and --verify agrees.
    again = run_cli(["generate"], project)
    assert again.code == 0 and "wrote nothing (5 unchanged)" in again.stderr, again.stderr
    assert run_cli(["generate", "--verify"], project).code == 0
    # An edited template is a cache miss: --verify sees the stale output...
    (_templates(project) / "definitions.txt.j2").write_text("# names\n" + DEFS)
    stale = run_cli(["generate", "--verify"], project)
    assert stale.code == 1 and "+# names" in stale.stdout, stale
    assert "openapi/definitions.txt" in stale.stdout
    # ...and generate rewrites it alone.
    res = run_cli(["generate"], project)
    assert res.code == 0 and "wrote openapi/definitions.txt (4 unchanged)" in res.stderr
    assert out.read_text().startswith("# names\n")
    # A deleted output is missing for --verify, from the cache too.
    out.unlink()
    assert run_cli(["generate", "--verify"], project).code == 1


def test_a_template_named_like_a_builtin_one_replaces_it(project: Path) -> None:
    (_templates(project) / "unions_table.py.j2").write_text(
        "# mine\nTYPES = {{ table.types | list | sort | pyliteral }}\n"
    )
    (_templates(project) / "openapi-v2.json.j2").write_text(
        '{{ {"definitions": definitions} | tojson(2) }}\n'
    )
    res = run_cli(["generate"], project)
    assert res.code == 0, res.stderr
    out = project / "openapi"
    text = (out / "unions_table.py").read_text()
    assert text.startswith("# mine\nTYPES = [\n    'com.example.kep.kep000.InlinedUnion',\n")
    assert json.loads((out / "openapi-v2.json").read_text())["definitions"][0].endswith(
        "kep000.InlinedUnion"
    )
    # the others keep their built-in renderers; no extra output for a replacement
    assert sorted(p.name for p in out.iterdir()) == [
        "openapi-v2.json", "openapi-v3.json", "unions_table.json", "unions_table.py",
    ]  # fmt: skip
    assert '"components"' in (out / "openapi-v3.json").read_text()


def test_partials_are_included_not_written(project: Path) -> None:
    (_templates(project) / "_names.j2").write_text(
        "{% macro name(u) %}{{ u.type }}.{{ u.discriminator }}{% endmacro %}\n"
    )
    (_templates(project) / "unions.txt.j2").write_text(
        '{% import "_names.j2" as n %}\n{% for u in unions %}\n{{ n.name(u) }}: '
        "{{ u.values | join(',') }}\n{% endfor %}\n"
    )
    res = run_cli(["generate"], project)
    assert res.code == 0, res.stderr
    out = project / "openapi"
    assert not (out / "_names").exists()
    # `u.values` is the union's key (kep2019 unions list none), never dict.values
    assert (out / "unions.txt").read_text().splitlines() == [
        "com.example.kep.kep000.InlinedUnion.unionType: ",
        "com.example.kep.kep000.InlinedUnion.type: ",
        "com.example.kep.kep000.InlinedUnion.None: ",
        "com.example.kep.kep000.TopLevelUnion.unionType: ",
        "com.example.kep.kep000.Union.unionType: ",
        "com.example.kep.kep000.Union2.type: ",
    ]


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("ok\n{% for x in definitions %}\n{{ x }\n{% endfor %}\n", 3, "unexpected '}'"),
        ("line one\nline two\n{{ no_such_name }}\n", 3, "'no_such_name' is undefined"),
        ("{% for u in unions %}\n{{ u.nothing_here }}\n{% endfor %}\n", 2, "nothing_here"),
        ('\n\n\n{{ fail("union " ~ unions[0].type ~ " is not for us") }}\n', 4,
         "union com.example.kep.kep000"),
        ("{{ definitions | tojson(2) }}\n{{ 1 // 0 }}\n", 2, "ZeroDivisionError"),
    ],
)  # fmt: skip
def test_a_broken_template_is_one_line_with_its_file_and_line(
    project: Path, text: str, line: int, message: str
) -> None:
    res = run_cli(["generate"], project)
    assert res.code == 0, res.stderr
    before = {p.name: p.read_bytes() for p in (project / "openapi").iterdir()}
    (_templates(project) / "report.txt.j2").write_text(text)
    for args in (["generate"], ["generate", "--verify"]):
        res = run_cli(args, project)
        assert res.code == 2, res
        assert "Traceback" not in res.stderr and res.stderr.count("\n") == 1, res.stderr
        assert f"hack/templates/report.txt.j2:{line}: template error: " in res.stderr
        assert message in res.stderr
    # all or nothing: the other outputs are as they were, and no report was written
    assert {p.name: p.read_bytes() for p in (project / "openapi").iterdir()} == before


def test_a_template_that_is_not_text_is_reported(project: Path) -> None:
    (_templates(project) / "bad.txt.j2").write_bytes(b"\xff\xfe{{ x }}\n")
    res = run_cli(["generate"], project)
    assert res.code == 2 and "bad.txt.j2" in res.stderr and "Traceback" not in res.stderr


def test_the_context_is_plain_data() -> None:
    model = load_model(["./..."], TESTDATA / "example")
    options = EmitOptions()
    context = build_context(model, options, build_table(model, options))
    assert json.loads(json.dumps(context)) == context  # nothing but JSON values
    assert set(context) == {
        "context_version", "title", "api_version", "definitions", "roots", "types",
        "unions", "enums", "table", "schemas", "external",
    }  # fmt: skip
    delivery = next(u for u in context["unions"] if u["type"].endswith(".Delivery"))
    assert delivery["go_name"] == "Delivery" and delivery["discriminator"] == "method"
    assert delivery["values"] == ["Email", "Manual", "Webhook"]
    assert [(m["field"], m["value"], m["optional"]) for m in delivery["members"]] == [
        ("email", "Email", False), ("webhook", "Webhook", True),
    ]  # fmt: skip
    method = next(e for e in context["enums"] if e["go_name"] == "DeliveryMethod")
    assert [v["value"] for v in method["values"]] == ["Email", "Webhook", "Manual"]
    assert method["values"][0]["description"] == "DeliveryEmail sends every entry by email."
    # GuestbookList holds Guestbook, which holds the rest; ExposureSource is only inlined
    assert context["roots"] == [
        "com.example.guestbook.api.v1.ExposureSource", "com.example.guestbook.api.v1.GuestbookList",
    ]  # fmt: skip
    assert context["external"] == [
        "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta",
        "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
    ]
    assert context["table"] == build_table(model, options)


def test_builtin_templates_are_the_documented_ones() -> None:
    assert builtin_names() == (
        "diff-report.md.j2", "openapi-v2.fragment.json.j2", "openapi-v2.json.j2",
        "openapi-v3.fragment.json.j2", "openapi-v3.json.j2", "unions_table.json.j2",
        "unions_table.py.j2",
    )  # fmt: skip
    # every output of generate is written by the template of its name
    from markergen.emit.outputs import OUTPUTS

    assert {o.filename + ".j2" for o in OUTPUTS} <= set(builtin_names())
    docs = (Path(__file__).resolve().parent.parent / "docs" / "templates.md").read_text()
    for name in builtin_names():
        assert f"`{name}`" in docs


def test_strict_undefined_and_no_autoescape(tmp_path: Path) -> None:
    (tmp_path / "t.txt.j2").write_text("{{ s }}|{{ s | jsonstr }}|{{ s | pyrepr }}\n")
    text = Templates(tmp_path).render("t.txt.j2", {"s": "<a & 'b'>"})
    assert text == "<a & 'b'>|\"<a & 'b'>\"|\"<a & 'b'>\"\n"
    with pytest.raises(TemplateError) as info:
        Templates(tmp_path).render("t.txt.j2", {})
    assert info.value.line == 1 and "'s' is undefined" in info.value.message


@pytest.mark.parametrize("enums", [False, True])
def test_the_python_table_is_one_literal_in_python_order(enums: bool) -> None:
    """Jinja's `sort` ignores case by default; the table must sort as Python does
    (`HPAScalingPolicy` before `a`), as pyliteral writes it."""
    from markergen.emit.render import pyliteral

    entry = {"fields": {}, "patchStrategies": {}, "unions": []}
    table: dict[str, object] = {"version": 1, "types": {n: entry for n in ("b", "HPA", "a", "Z")}}
    if enums:
        table["enums"] = {"x": {"values": ["B", "a"]}, "X": {"values": []}}
    text = Templates().render("unions_table.py.j2", {"table": table})
    assert text == f"# Code generated by markergen. DO NOT EDIT.\nTABLE = {pyliteral(table)}\n"


def test_a_run_served_from_the_cache_never_imports_jinja(project: Path) -> None:
    (_templates(project) / "definitions.txt.j2").write_text(DEFS)
    assert run_cli(["generate"], project).code == 0
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "markergen", "generate"],
        cwd=project, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 0 and "wrote nothing (5 unchanged)" in proc.stderr, proc.stderr
    assert " jinja2" not in proc.stderr  # -X importtime lists every module imported


def _compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the templates Jinja compiles from their text from now on."""
    import jinja2

    names: list[str] = []
    compile_ = jinja2.Environment.compile

    def counted(self: Any, source: str, name: str | None = None, *args: Any, **kw: Any) -> Any:
        names.append(str(name))
        return compile_(self, source, name, *args, **kw)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    return names


def _render_outputs(templates: Templates) -> dict[str, str]:
    from markergen.emit.outputs import OUTPUTS, Inputs

    inputs = Inputs(load_model(["./..."], TESTDATA / "kep"), EmitOptions(), templates)
    return {o.filename: "".join(inputs.chunks(o)) for o in OUTPUTS}


def test_compiled_templates_are_kept_in_the_cache_directory_and_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiled = _compiles(monkeypatch)
    without = _render_outputs(Templates())
    every = sorted(compiled)
    assert every  # each output's template, compiled from its text
    compiled.clear()
    cache = tmp_path / "cache" / "jinja"
    first = _render_outputs(Templates(None, cache))
    assert sorted(compiled) == every
    assert sorted(p.suffix for p in cache.iterdir()) == [".cache"] * len(every)
    assert (tmp_path / "cache" / ".gitignore").read_text().endswith("*\n")
    compiled.clear()
    second = _render_outputs(Templates(None, cache))
    assert compiled == []  # every one read from the cache
    assert first == second == without


def test_a_changed_template_is_compiled_again_not_read_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = tmp_path / "templates"
    user.mkdir()
    (user / "openapi-v2.json.j2").write_text("one: {{ title }}\n")
    cache = tmp_path / "jinja"
    assert Templates(user, cache).render("openapi-v2.json.j2", {"title": "T"}) == "one: T\n"
    (user / "openapi-v2.json.j2").write_text("two: {{ title }}\n")
    compiled = _compiles(monkeypatch)
    assert Templates(user, cache).render("openapi-v2.json.j2", {"title": "T"}) == "two: T\n"
    assert compiled == ["openapi-v2.json.j2"]


def test_a_cache_directory_that_cannot_be_written_only_costs_the_speed_up(
    tmp_path: Path,
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("")  # a file where the directory would go: mkdir fails
    templates = Templates(None, blocked / "jinja")
    text = templates.render("openapi-v2.json.j2", {"schemas": [], "info": {}, "external": list})
    assert text.startswith('{\n  "definitions": {},')
    assert blocked.read_text() == ""


def test_generate_keeps_compiled_templates_only_when_it_uses_the_cache(tmp_path: Path) -> None:
    example = tmp_path / "kep"
    shutil.copytree(TESTDATA / "kep", example)
    cache = tmp_path / "cache"
    res = run_cli(["generate", "./kep000/...", "--no-cache"], example,
                  {"MARKERGEN_CACHE_DIR": str(cache)})  # fmt: skip
    assert res.code == 0, res.stderr
    assert not cache.exists()
    res = run_cli(["generate", "./kep000/..."], example, {"MARKERGEN_CACHE_DIR": str(cache)})
    assert res.code == 0, res.stderr
    assert len(list((cache / "jinja").glob("*.cache"))) == 4  # the four outputs' templates
