"""Renderers: the model becomes OpenAPI documents and the runtime table."""
