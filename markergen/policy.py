"""What a project decides about diagnostics: ignore comments, severities, strictness.

Applied once, after every rule ran (`markergen.pipeline.check_model`):

1. `// markergen:ignore MGnnn reason` comments (markergen.model.ignores) drop the
   diagnostics they cover; a comment that drops nothing is itself reported (MG010).
   The codes of the CRD findings (`crd_code`) are not the rules': `markergen crd` and
   `markergen check` silence those at the Go place each finding is about
   (markergen.crd.reasons.silence), and check reports the comments that silenced none
   (`unused_crd`) once the CRD plan is made. So an MG010 of such a code never blocks a
   union's CRD rules, which are decided by the rules' errors alone.
2. `Policy.severity` sets a code's severity, or turns it `off`.
3. `Policy.warnings_as_errors` makes every remaining warning an error (infos stay infos).

Codes that report problems with the policy itself (MG010, MG011) obey steps 2 and 3 too,
so a project can turn them off.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal, get_args

if TYPE_CHECKING:
    from markergen.diagnostics import Diagnostic
    from markergen.model.ignores import Ignore

# markergen.config takes `Level` from here for its settings, and `--help` builds them:
# the catalog and the model are imported by the functions that use them, which only a
# run calls.

Level = Literal["error", "warning", "info", "off"]
LEVELS: tuple[Level, ...] = get_args(Level)


class PolicyError(ValueError):
    """A severity mapping names an unknown code or level (a usage error, exit 2)."""


@dataclass(frozen=True, slots=True)
class Policy:
    """Severity overrides per code (`off` drops the code) and warnings-as-errors.

    Build it with `make_policy`, which checks the codes and levels."""

    severity: tuple[tuple[str, Level], ...] = ()
    warnings_as_errors: bool = False

    def level(self, code: str) -> Level | None:
        for c, level in self.severity:
            if c == code:
                return level
        return None


def make_policy(
    *, severity: Mapping[str, str] | None = None, warnings_as_errors: bool = False
) -> Policy:
    """A Policy from the config's `severity:` mapping (code -> error|warning|info|off)
    and `warnings-as-errors:` / `--warnings-as-errors`. Codes are case-insensitive."""
    from markergen.diagnostics import CATALOG

    pairs: list[tuple[str, Level]] = []
    for raw_code, raw_level in sorted((severity or {}).items()):
        code = str(raw_code).upper()
        if code not in CATALOG:
            raise PolicyError(f"severity: unknown code {raw_code!r} (see `markergen explain`)")
        level = str(raw_level).lower()
        if level not in LEVELS:
            raise PolicyError(
                f"severity: {raw_code}: {raw_level!r} is not one of {', '.join(LEVELS)}"
            )
        pairs.append((code, level))
    return Policy(tuple(pairs), warnings_as_errors)


def crd_code(code: str) -> bool:
    """Whether `code` is a CRD finding's (the catalog's 500s): the CRD plan reports it,
    never a rule."""
    return code.startswith("MG5")


def suppress(diags: Iterable[Diagnostic], ignores: Sequence[Ignore]) -> list[Diagnostic]:
    """Drop what the ignore comments cover; add MG010 for each rule code a comment lists
    that covered nothing (a CRD finding's code is accounted by `unused_crd`)."""
    from markergen.model.ignores import unused

    kept, used = silenced(diags, ignores)
    return kept + unused(ignores, used, lambda code: not crd_code(code))


def silenced(
    diags: Iterable[Diagnostic], ignores: Sequence[Ignore]
) -> tuple[list[Diagnostic], set[tuple[Ignore, str]]]:
    """The diagnostics no ignore comment covers, and the (comment, code) pairs that
    covered one."""
    kept: list[Diagnostic] = []
    used: set[tuple[Ignore, str]] = set()
    for d in diags:
        covering = [ig for ig in ignores if ig.covers(d)]
        if covering:
            used.update((ig, d.code) for ig in covering)
        else:
            kept.append(d)
    return kept, used


def unused_crd(ignores: Sequence[Ignore], used: set[tuple[Ignore, str]]) -> list[Diagnostic]:
    """MG010 for each CRD finding's code a comment lists that silenced no finding of the
    CRD plan (`used`: markergen.crd.reasons.silence), whichever command reports it."""
    from markergen.model.ignores import unused

    return unused(ignores, used, crd_code)


def apply_policy(diags: Iterable[Diagnostic], policy: Policy) -> list[Diagnostic]:
    """Severity overrides, then warnings-as-errors, in the input's order."""
    from markergen.diagnostics import Severity

    out: list[Diagnostic] = []
    for d in diags:
        level = policy.level(d.code)
        if level == "off":
            continue
        if level is not None:
            d = replace(d, severity=Severity(level))
        if policy.warnings_as_errors and d.severity is Severity.WARNING:
            d = replace(d, severity=Severity.ERROR)
        out.append(d)
    return out
