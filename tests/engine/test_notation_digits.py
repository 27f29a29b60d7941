"""Only ASCII digits are ranks: a superscript digit is a clear notation error, not a crash."""

import pytest

from engine.notation import NotationError, parse_tiles


@pytest.mark.parametrize("text", ["¹", "1²m", "١m"])
def test_a_digit_that_is_not_ascii_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        parse_tiles(text)
