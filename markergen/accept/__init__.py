"""What a union accepts, decided in one place.

- `space`: the object space of a union (ABSENT, the one "left out"; the value a set
  field holds by schema type) and the search over it, group by group of the fields the
  tests read (`first`, `find`);
- `reads`: which fields a CEL rule reads, and how, from its syntax tree;
- `union`: what a union allows under each semantics (kep1027, kep2019, smd, k8s) on
  small objects, and its whole space with the schema applied;
- `judge`: the API server's verdict at one schema node (defaults, pruning, required,
  enum, the rules; what a rule's error means is a parameter);
- `samples`: the parts the objects a project keeps hold at one schema node, as the
  judge defaults and prunes them, and the first of them a rule rejects;
- `celeval`: the CEL engine the rules are evaluated with;
- `compare`: the object one version of a union accepts and another refuses, as the
  markers describe it (diff's Go changes);
- `selected`: whether a member of openshift's union style must be set when selected, where
  the markers leave that to the CEL rules beside them.
"""
