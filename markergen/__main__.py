from markergen.cli import run

run()
