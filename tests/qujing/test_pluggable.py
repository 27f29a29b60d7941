"""Adding Qujing needed no rule-set branches in shared engine code: it is found by name."""

from __future__ import annotations

import re
from pathlib import Path

from engine.procedures import find_procedure
from engine.qujing import QujingRuleSet
from engine.rulesets import find_rules, rule_set_names

ENGINE = Path(__file__).resolve().parents[2] / "engine"
BRANCH = re.compile(r"""(==|!=|\bin\b)\s*\(?\s*["'](qujing|qj)["']|["'](qujing|qj)["']\s*(==|!=)""")


def test_qujing_is_found_by_name_and_alias() -> None:
    assert "qujing" in rule_set_names()
    assert isinstance(find_rules("QJ"), QujingRuleSet)
    assert find_rules("qujing", tail_reading="bloom-only").options.tail_reading == "bloom-only"
    assert find_procedure("qujing").revealed_tail_tiles == 2


def test_shared_engine_code_never_branches_on_the_qujing_name() -> None:
    offenders = []
    for path in ENGINE.rglob("*.py"):
        if "qujing" in path.parts or path.name == "procedure_qujing.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if BRANCH.search(line):
                offenders.append(f"{path.name}:{number}: {line.strip()}")
    assert offenders == []
