"""The union dialects: one module each, forming its unions.

A *dialect* is one way of writing unions in Go markers (docs/concepts.md, "The four
dialects"). Each module here has a `form_...` function that turns a struct's marked
fields into model unions (with the diagnostics of what stops a union from being formed);
`base.py` holds what they share, and markergen/model/unions.py calls each in turn
(kep1027.py forms the kep2022 draft's unions too: the markers are the same, the
discriminator's type decides). The markers' names and shapes are declared in
markergen.markers' registry.

What a dialect's unions mean downstream (member values are Go field names, written only
in openapi-gen's list form, the current KEP's discriminator rules apply, ...) is its
`DialectTraits` record, declared in markergen/model/traits.py, below the model, whose
`union.traits` reads it; the rules, the renderers and the CRD patcher ask
`union.traits`, never the dialect's name.

To add a dialect: write a module with its `form_...` function, add its name and traits
to markergen/model/traits.py, and call its `form_...` from `build_unions` in
markergen/model/unions.py. Nothing else needs to change to give its unions the right
checks and outputs; a new trait is one new field of `DialectTraits` with a default.
"""
