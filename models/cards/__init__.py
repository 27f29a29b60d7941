"""Gouji cards on camera: our own card art, rendered card scenes, the card reader's training
and evaluation (docs/cards.md). The runtime reader is :mod:`vision.cards`."""
