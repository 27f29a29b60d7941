"""The shared scoring core: arrangements of a winning hand, one immutable win context per
arrangement, and one evaluator of declarative patterns with declared exclusions.

See :mod:`engine.scoring.evaluator` for how a rule set plugs in.
"""
