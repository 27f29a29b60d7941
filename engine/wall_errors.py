"""The wall's errors: a forbidden operation, no live tile left, a draw the known order denies."""

from __future__ import annotations


class WallError(ValueError):
    """A wall operation the procedure forbids (drawing past the live wall, dealing twice...)."""


class WallExhaustedError(WallError):
    """No live tile is left: the hand is a washout once the last discard is not won."""


class WallMismatchError(WallError):
    """A draw names a tile other than the one the known wall order holds at that place."""
