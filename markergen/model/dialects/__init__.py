"""The union dialects: one module each, declaring its markers and its traits.

A *dialect* is one way of writing unions in Go markers (docs/concepts.md, "The four
dialects"). Each module here declares, once:

- `MARKERS`: the names of the markers that make a field or struct part of one of its
  unions (the names and their shapes are defined in markergen.markers' registry);
- a `form_...` function that turns a struct's marked fields into model unions (with
  the diagnostics of what stops a union from being formed); `base.py` holds what they
  share, and markergen/model/unions.py calls each in turn;
- `TRAITS`: its `DialectTraits` record, saying what its unions mean downstream (member
  values are Go field names, written only in openapi-gen's list form, the current KEP's
  discriminator rules apply, ...). The records are declared together in
  markergen/model/traits.py, below the model, whose `union.traits` reads them; the rules,
  the renderers and the CRD patcher ask `union.traits`, never the dialect's name.

To add a dialect: write a module with `MARKERS`, `TRAITS` and its `form_...` function,
add its name and traits to markergen/model/traits.py, list it in `DIALECTS` below, and
call its `form_...` from `build_unions` in markergen/model/unions.py. Nothing else needs to change to
give its unions the right checks and outputs; a new trait is one new field of
`DialectTraits` with a default.
"""

from __future__ import annotations

from types import ModuleType

from markergen.model.dialects import k8s, kep1027, kep2019, kep2022, kubebuilder
from markergen.model.traits import traits_of

DIALECTS: tuple[ModuleType, ...] = (kep2019, kep2022, kep1027, k8s, kubebuilder)


__all__ = ["DIALECTS", "traits_of"]
