from markergen.cli import main

main()
