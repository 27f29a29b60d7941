"""Tile face art: Tilesight's own drawn faces, the CC0 riichi art, and flower faces (pictures,
fonts, numerals)."""
