"""Qujing fixtures: the rule set as the registry hands it out."""

from __future__ import annotations

import pytest

from engine.qujing import QujingRuleSet
from engine.rulesets import find_rules


@pytest.fixture
def rules() -> QujingRuleSet:
    found = find_rules("qujing")
    assert isinstance(found, QujingRuleSet)
    return found
