"""The API server's static cost estimate of CRD validation rules (`rulecost`, see
docs/cel-cost.md), the CEL parser (`syntax`) and checker (`check`) it runs on, and
Kubernetes' escaping of property names in CEL (`escape`).

Empty on purpose: the parser alone serves `markergen.accept` (what a rule reads) in
commands that never estimate a cost (`diff`), which then do not import the checker and
the estimator.
"""
