"""markergen: KEP-1027 union and enum markers for Kubernetes Go API types."""

__version__ = "0.1.0"
