"""``python -m tilesight.schema``: print the generated events schema."""

from tilesight.schema import main

main()
