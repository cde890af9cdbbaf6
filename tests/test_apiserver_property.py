"""Random objects of the fixture projects' kinds, judged by the real API server and by
`markergen validate` (the runtime library the command calls): the verdicts agree and each
field the server names is one markergen names (tests/unionspace.py says how the two name
fields, and which unions are known to differ: they are left out here).

Each example places one to three unions of one kind, each with a random subset of its
members (a value, null, or the empty value: `""`, `0`, `{}`), and a discriminator that is
absent, null, `""`, one of its values, a member's value, a lower-case spelling or
unknown. Derandomized and without an example database, so that a run is reproducible.
"""

from __future__ import annotations

from typing import Any

import hypothesis.strategies as st
import pytest
import unionspace
from hypothesis import HealthCheck, given, settings

from markergen.runtime import Table

RANDOM = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def overlays(site: unionspace.Site, table: Table) -> st.SearchStrategy[dict[str, Any]]:
    """Any of the choices for each field, or (as often) a union that names one member and
    sets it, the others absent or null: most wholly random unions are invalid, and the
    server's acceptances must be judged too."""
    union = site.union(table)
    choices = {m.field: unionspace.member_choices(site, m.field) for m in union.members}
    fields = {f: st.sampled_from(c) for f, c in choices.items()}
    if union.discriminator is not None:
        fields[union.discriminator] = st.sampled_from(unionspace.discriminator_choices(union))

    def consistent(chosen: int) -> st.SearchStrategy[dict[str, Any]]:
        m = union.members[chosen]
        others = {o.field: st.sampled_from([unionspace.ABSENT, None])
                  for o in union.members if o is not m}  # fmt: skip
        picked = {m.field: st.just(choices[m.field][1])}
        if union.discriminator is not None:
            picked[union.discriminator] = st.just(m.value)
        return st.fixed_dictionaries({**others, **picked})

    one = st.integers(0, len(union.members) - 1).flatmap(consistent)
    return st.one_of(st.fixed_dictionaries(fields), one)


# enumcrd's one union is a known difference (a stale CRD, unionspace.KNOWN); its fresh
# CRD is judged as enumcrd-fresh. keptdocs' one union is known too (its rule withheld
# for an object its docs keep): tests/test_apiserver_unions.py judges it.
PROJECTS = sorted(p for p in unionspace.PROJECTS if p not in ("enumcrd", "keptdocs"))


@pytest.mark.parametrize("name", PROJECTS)
def test_server_and_runtime_agree_on_random_objects(
    name: str, union_projects: unionspace.Prepared
) -> None:
    project = union_projects[name]
    table = project.table
    known = unionspace.KNOWN.get(name, {})
    kinds: dict[tuple[int, str], list[unionspace.Site]] = {}
    for site in unionspace.sites(project):
        if site.label(table) not in known:
            kinds.setdefault((id(site.crd), site.version), []).append(site)
    assert kinds, f"{name}: no union to judge"
    groups = list(kinds.values())
    seen = {"objects": 0, "rejected": 0}

    @RANDOM
    @given(st.data())
    def agree(data: st.DataObject) -> None:
        group = data.draw(st.sampled_from(groups), label="kind")
        chosen = data.draw(
            st.lists(st.sampled_from(group), min_size=1, max_size=3, unique_by=id), label="unions"
        )
        placed = [(site, data.draw(overlays(site, table), label=site.label(table)))
                  for site in chosen]  # fmt: skip
        obj = unionspace.build(table, placed)
        first = chosen[0]
        verdict = union_projects.handles[id(first.crd)].dry_run(obj)
        errors = unionspace.runtime_errors(table, first, obj)
        implied = any(s.label(table) in unionspace.IMPLIED.get(name, set()) for s in chosen)
        judged = unionspace.Judged(
            first.label(table), "random", obj, verdict, tuple(errors), implied
        )
        seen["objects"] += 1
        seen["rejected"] += not verdict.accepted
        assert judged.disagreement() is None, judged.describe()

    agree()
    print(f"{name}: {seen['objects']} random objects, {seen['rejected']} rejected by the server")
    # random objects that the server always accepts (or always rejects) would test nothing
    assert 0 < seen["rejected"] < seen["objects"], seen
