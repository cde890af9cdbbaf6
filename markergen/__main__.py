from markergen.entry import main

main()
