"""Zung Jung (中庸) scoring, the World Mahjong Contest's own method: registers ``zung-jung``.

See :mod:`engine.zungjung.rules` for the rule set, :mod:`.values` for the value profiles and
:mod:`.payments` for the formal-competition payments and same-round immunity.
"""

from engine.zungjung.rules import ZungJung

__all__ = ["ZungJung"]
