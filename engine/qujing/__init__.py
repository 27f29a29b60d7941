"""Qujing mahjong (曲靖麻将, seed 002): a second rule set, registered by name.

Importing this package registers the ``qujing`` rule set (:mod:`engine.rulesets`) and the
``qujing`` table procedure (:mod:`engine.procedures`). See ``docs/rules-qujing.md``.
"""

from engine.qujing.options import QujingOptionError, QujingOptions
from engine.qujing.procedure import QUJING_PROCEDURE
from engine.qujing.ruleset import QujingRuleSet, make_rules
from engine.rulesets import register

register("qujing", make_rules, aliases=QujingRuleSet().aliases)

__all__ = ["QUJING_PROCEDURE", "QujingOptionError", "QujingOptions", "QujingRuleSet", "make_rules"]
