"""Every union of every fixture project, judged by the real API server: the objects of
`unionspace.exhaustive` (no member, each member, each pair, the discriminator with each
value and each member, nulls) are dry-run against the CRD `markergen crd` patched, and
`markergen validate`'s verdict (the runtime library the command calls, on the table
`markergen generate` wrote) must be the same, naming the same fields.

How the server names a field (docs/runtime.md, "The API server's verdict"): an
OpenAPI error (enum, required) and a CEL rule with `fieldPath` are reported at the field;
a CEL rule without `fieldPath` (the count rules of undiscriminated unions) at the
union's object, the parent of the members markergen names. A list-map item is `[0]` for
the server and `[name=x]` for markergen (`unionspace.server_path`); a map value is
`.key` in the server's OpenAPI errors, `[key]` in its CEL errors and markergen's. An
object with an OpenAPI error has none of its CEL rules checked (the server adds a cause
without a field saying so): markergen then names the rules' fields too, the server not.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import unionspace
import yaml


@pytest.mark.parametrize("name", sorted(unionspace.PROJECTS))
def test_server_and_runtime_agree_on_every_union_object(
    name: str,
    union_projects: unionspace.Prepared,
) -> None:
    project = union_projects[name]
    sites = unionspace.sites(project)
    assert sites, f"{name}: no union reached from its patched CRDs"
    judged: list[unionspace.Judged] = []
    for site in sites:
        handle = union_projects.handles[id(site.crd)]
        these = [unionspace.judge(project, handle, site, label, overlay)
                 for label, overlay in unionspace.exhaustive(site, project.table)]  # fmt: skip
        # Every site has objects both sides accept and objects both reject, or its
        # objects test nothing (a base the schema refuses for another reason).
        assert any(j.server.accepted for j in these), these[0].describe()
        # ...unless the CRD does not enforce the union at all (its rules withheld, a
        # declared known case): then the server accepts every shape
        unenforced = unionspace.KNOWN.get(name, {}).get(these[0].site, ("", ""))[1] == "laxer"
        assert unenforced or any(not j.server.accepted for j in these), these[0].describe()
        judged.extend(these)
    bad = [j for j in judged if j.disagreement() is not None]
    rejected = [j for j in judged if not j.server.accepted]
    more = [j for j in rejected if j.more()]
    print(
        f"{name}: {len(sites)} union sites, {len(judged)} objects ({len(rejected)} rejected by "
        f"the server, {sum(j.blocked() for j in rejected)} with its CEL rules unchecked), "
        f"{len(bad)} disagreements; markergen names more fields on {len(more)} "
        f"({sum(not j.blocked() for j in more)} with the rules checked)"
    )
    if os.environ.get("MARKERGEN_SHOW_MORE"):
        print(
            "\n".join(
                j.describe() + f"\n  more: {sorted(j.more())}" for j in more if not j.blocked()
            )
        )
    for site, (code, kind) in unionspace.KNOWN.get(name, {}).items():
        # markergen says so itself, and the exception is still needed
        assert code in project.crd_stderr + project.check_stdout, (site, code)
        mine = [j for j in bad if j.site == site]
        assert mine, f"{site}: no disagreement left: remove it from unionspace.KNOWN"
        assert kind == "stale" or all(
            j.disagreement() == "verdict" and j.server.accepted == (kind == "laxer")
            for j in mine), (
            "\n".join(j.describe() for j in mine))  # fmt: skip
    bad = [j for j in bad if j.site not in unionspace.KNOWN.get(name, {})]
    assert not bad, f"{len(bad)} of {len(judged)} objects:\n" + "\n".join(j.describe() for j in bad)


def test_the_command_line_gives_the_library_verdict(
    union_projects: unionspace.Prepared,
    tmp_path: Path,
) -> None:
    """The real `markergen validate` on a sample of the objects: the same lines as the
    library, the exit code the server's verdict implies."""
    project = union_projects["example"]
    checked = 0
    for site in unionspace.sites(project):
        for label, overlay in list(unionspace.exhaustive(site, project.table))[:6]:
            j = unionspace.judge(
                project, union_projects.handles[id(site.crd)], site, label, overlay
            )
            path = tmp_path / f"o{checked}.yaml"
            path.write_text(yaml.safe_dump(j.obj))
            out = subprocess.run(
                [sys.executable, "-m", "markergen", "validate", "--type", site.root_type,
                 "--table", str(project.table_path), str(path)],
                cwd=project.root, capture_output=True, text=True, check=False,
            )  # fmt: skip
            assert out.returncode == (0 if j.server.accepted else 1), (out, j.describe())
            assert out.stdout.splitlines() == [str(e) for e in j.runtime], out.stderr
            checked += 1
    assert checked >= 20
