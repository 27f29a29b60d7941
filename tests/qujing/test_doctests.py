"""The examples in the Qujing modules' docstrings are checked like any other test."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["engine.qujing.hands", "engine.qujing.ruleset", "engine.qujing.tail"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    failed, attempted = doctest.testmod(importlib.import_module(name))
    assert attempted > 0
    assert failed == 0
