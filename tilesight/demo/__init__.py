"""``tilesight demo`` and what only it needs: the simulated play (:mod:`.play`), its console
(:mod:`.console`), the camera-only variant (:mod:`.camera_only`), and a private broker
(:mod:`.broker`, or the embedded one in :mod:`.minibroker`) that the tests and benchmarks use
too. The service never imports this package."""
