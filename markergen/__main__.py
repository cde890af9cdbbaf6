from markergen.entry import run

run()
