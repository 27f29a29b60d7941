"""The examples in the Gouji modules' docstrings are checked like any other test."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "engine.gouji.cards",
    "engine.gouji.notation",
    "engine.gouji.options",
    "engine.gouji.plays",
    "engine.gouji.judge",
    "engine.gouji.scoring",
    "engine.gouji.tribute",
    "engine.gouji.opening",
    "engine.gouji.events",
    "engine.gouji.simulate",
    "engine.gouji.corrections",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    failed, attempted = doctest.testmod(importlib.import_module(name))
    assert attempted > 0
    assert failed == 0
