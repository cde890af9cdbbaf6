"""markergen: KEP-1027 union and enum markers for Kubernetes Go API types."""

# markergen.runtime is also its own distribution, markergen-runtime (runtime/), which
# installs markergen/runtime/ without this file: alone it is a namespace package; beside
# the tool, the subpackage may sit in another directory of sys.path (another
# site-packages, a wheel installed with --no-deps), so `markergen` looks in each.
__path__ = __import__("pkgutil").extend_path(__path__, __name__)

__version__ = "0.1.0"
