"""Chinese Official (MCR) rules: the 81 fans of seed 001 scored by the shared evaluator.

Import :mod:`engine.mcr.ruleset` (done lazily by :func:`engine.rulesets.find_rules`) to register
the rule set as ``mcr``.
"""
