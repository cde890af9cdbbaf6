"""The checker: rules that read a formed model and report diagnostics.

The builder reports what it finds while reading input and forming unions (MG001-MG005,
MG103, MG104, MG203, MG306, MG307, MG309, MG310, MG404); the rules here report the
rest from the model alone.
"""

from __future__ import annotations

from markergen.diagnostics import Diagnostic
from markergen.model import Model
from markergen.rules import discriminators, enums, kep2019, members, stages
from markergen.rules.base import Rule

RULES: tuple[Rule, ...] = (
    *enums.RULES,
    *discriminators.RULES,
    *members.RULES,
    *kep2019.RULES,
    *stages.RULES,
)


def run_rules(model: Model) -> list[Diagnostic]:
    """Every rule's diagnostics, deduplicated and sorted by position, code, message."""
    found: set[Diagnostic] = set()
    for rule in RULES:
        found.update(rule.check(model))
    return sorted(found, key=Diagnostic.sort_key)


def all_diagnostics(model: Model) -> list[Diagnostic]:
    """The builder's diagnostics and the rules', merged, deduplicated and sorted."""
    return sorted(set(model.diagnostics) | set(run_rules(model)), key=Diagnostic.sort_key)


__all__ = ["RULES", "Rule", "all_diagnostics", "run_rules"]
