"""The one notation for tiles, melds and hands: parsed and printed here and nowhere else.

Tiles: ``1m``-``9m`` characters, ``1s``-``9s`` bamboo, ``1p``-``9p`` dots, ``E S W N`` winds,
``C F P`` red / green / white dragon, ``1f``-``8f`` flowers (plum, orchid, chrysanthemum, bamboo,
spring, summer, autumn, winter). Runs share a suffix: ``123m`` is 1m 2m 3m; honours stand alone:
``EESS``. Melds: ``[123m]`` chow, ``[555p]`` pung, ``[5555p]`` exposed kong, ``{5555p}`` concealed
kong; an exposed meld may end in ``<N``, the relative seat the claimed tile came from (1 lower,
2 opposite, 3 upper), e.g. ``[555p<2]``. Spaces between groups are ignored.

>>> hand = parse_hand("123m 456p EE [555s<2] {CCCC}")
>>> format_hand(hand)
'123m456pEE [555s<2] {CCCC}'
>>> [str(t) for t in parse_tiles("12f3m")]
['1f', '2f', '3m']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from engine.tiles import ALL_TILES, Meld, MeldKind, RelativeSeat, Suit, Tile

HONOR_LETTERS = {"E": (Suit.WIND, 1), "S": (Suit.WIND, 2), "W": (Suit.WIND, 3), "N": (Suit.WIND, 4)}
HONOR_LETTERS |= {"C": (Suit.DRAGON, 1), "F": (Suit.DRAGON, 2), "P": (Suit.DRAGON, 3)}
_LETTER_OF = {value: letter for letter, value in HONOR_LETTERS.items()}
_SUFFIXES = {"m": Suit.CHARACTERS, "s": Suit.BAMBOO, "p": Suit.DOTS, "f": Suit.FLOWER}
_BY_TEXT: dict[str, Tile] = {}
_T = TypeVar("_T")


class NotationError(ValueError):
    """Text that is not valid Tilesight notation; the message quotes the offending text."""


@dataclass(frozen=True, slots=True)
class Hand:
    """Concealed tiles (in the order written) and declared melds."""

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()

    def all_tiles(self) -> tuple[Tile, ...]:
        return self.concealed + tuple(t for m in self.melds for t in m.tiles)

    def __str__(self) -> str:
        return format_hand(self)


def format_tile(tile: Tile) -> str:
    if tile.suit.is_honor:
        return _LETTER_OF[(tile.suit, tile.rank)]
    return f"{tile.rank}{tile.suit.value}"


def parse_tile(text: str) -> Tile:
    """One tile, e.g. ``"5m"`` or ``"E"``."""
    tile = _BY_TEXT.get(text.strip())
    if tile is None:
        raise NotationError(f"not a tile: {text!r}")
    return tile


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """A run of tiles without melds, e.g. ``"123m55pEE"``."""
    tiles: list[Tile] = []
    digits: list[tuple[int, int]] = []  # (rank, position) waiting for their suffix
    for pos, ch in enumerate(text):
        if ch.isspace():
            if digits:
                raise NotationError(_at(text, pos, "digits without a suit letter"))
            continue
        if ch in "0123456789":  # not isdigit(): superscripts such as "¹" are digits too
            digits.append((int(ch), pos))
        elif ch in _SUFFIXES:
            if not digits:
                raise NotationError(_at(text, pos, f"suit letter {ch!r} without ranks"))
            suit = _SUFFIXES[ch]
            for rank, rank_pos in digits:
                if rank not in suit.ranks:
                    raise NotationError(
                        _at(text, rank_pos, f"no rank {rank} in {suit.name.lower()}")
                    )
                tiles.append(Tile(suit, rank))
            digits = []
        elif ch in HONOR_LETTERS and not digits:
            tiles.append(Tile(*HONOR_LETTERS[ch]))
        else:
            raise NotationError(_at(text, pos, f"unexpected {ch!r}"))
    if digits:
        raise NotationError(_at(text, digits[-1][1], "digits without a suit letter"))
    return tuple(tiles)


_GROUP = re.compile(r"\[([^\[\]{}]*)\]|\{([^\[\]{}]*)\}|([^\[\]{}]+)")
_SOURCE = re.compile(r"^(.*?)<([123])$")


def parse_meld(text: str, *, concealed: bool = False) -> Meld:
    """The inside of ``[...]`` (or ``{...}`` when ``concealed``), e.g. ``"555p<2"``."""
    body, source = text.strip(), None
    match = _SOURCE.match(body)
    if match:
        body, source = match.group(1), RelativeSeat(int(match.group(2)))
    tiles = parse_tiles(body)
    if concealed:
        if source is not None:
            raise NotationError(f"a concealed kong has no source seat: {{{text}}}")
        kind = MeldKind.CONCEALED_KONG
    elif len(tiles) == 4:
        kind = MeldKind.KONG
    elif len(tiles) == 3:
        kind = MeldKind.PUNG if len(set(tiles)) == 1 else MeldKind.CHOW
    else:
        raise NotationError(f"a meld needs 3 or 4 tiles: [{text}]")
    try:
        return Meld(kind, tuple(sorted(tiles)), source)
    except ValueError as exc:
        brackets = "{}" if concealed else "[]"
        raise NotationError(f"{exc}: {brackets[0]}{text}{brackets[1]}") from None


def _parse_concealed_meld(text: str) -> Meld:
    return parse_meld(text, concealed=True)


def parse_hand(text: str) -> Hand:
    """A hand: concealed tiles and melds in any order, e.g. ``"123m EE [555p<2] {CCCC}"``."""
    concealed: list[Tile] = []
    melds: list[Meld] = []
    pos = 0
    for match in _GROUP.finditer(text):
        if match.start() != pos:
            raise NotationError(_at(text, pos, "unbalanced bracket"))
        pos = match.end()
        exposed, hidden, loose = match.groups()
        if loose is not None:
            if any(ch in loose for ch in "<>"):
                raise NotationError(_at(text, match.start(), "'<' only inside an exposed meld"))
            concealed.extend(_with_context(parse_tiles, loose, text))
        else:
            body = exposed if exposed is not None else hidden
            parse = _parse_concealed_meld if hidden is not None else parse_meld
            melds.append(_with_context(parse, body, text))
    if pos != len(text):
        raise NotationError(_at(text, pos, "unbalanced bracket"))
    return Hand(tuple(concealed), tuple(melds))


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Compact form: consecutive numbered tiles of one suit share their suffix."""
    out: list[str] = []
    pending: list[str] = []
    pending_suit: Suit | None = None
    for tile in tiles:
        if tile.suit is not pending_suit and pending:
            out.append("".join(pending) + (pending_suit.value if pending_suit else ""))
            pending = []
        if tile.suit.is_honor:
            out.append(format_tile(tile))
            pending_suit = None
        else:
            pending.append(str(tile.rank))
            pending_suit = tile.suit
    if pending and pending_suit is not None:
        out.append("".join(pending) + pending_suit.value)
    return "".join(out)


def format_meld(meld: Meld) -> str:
    body = format_tiles(meld.tiles)
    if meld.kind is MeldKind.CONCEALED_KONG:
        return "{" + body + "}"
    return "[" + body + (f"<{int(meld.source)}" if meld.source is not None else "") + "]"


def format_hand(hand: Hand) -> str:
    parts = [format_tiles(hand.concealed)] if hand.concealed else []
    parts += [format_meld(m) for m in hand.melds]
    return " ".join(parts)


# Botzone codes: W characters, T bamboo, B dots, F winds, J dragons, H flowers.
_BOTZONE_SUIT = {
    "W": Suit.CHARACTERS,
    "T": Suit.BAMBOO,
    "B": Suit.DOTS,
    "F": Suit.WIND,
    "J": Suit.DRAGON,
    "H": Suit.FLOWER,
}
_BOTZONE_LETTER = {suit: letter for letter, suit in _BOTZONE_SUIT.items()}


def parse_botzone_tile(code: str) -> Tile:
    """A Botzone tile code such as ``"W5"``, ``"F1"`` (East) or ``"H3"``."""
    code = code.strip()
    suit = _BOTZONE_SUIT.get(code[:1])
    ascii_rank = len(code) == 2 and code[1] in "0123456789"
    if suit is None or not ascii_rank or int(code[1]) not in suit.ranks:
        raise NotationError(f"not a Botzone tile code: {code!r}")
    return Tile(suit, int(code[1]))


def format_botzone_tile(tile: Tile) -> str:
    return f"{_BOTZONE_LETTER[tile.suit]}{tile.rank}"


def _at(text: str, pos: int, why: str) -> str:
    return f"{why} at position {pos} in {text!r}"


def _with_context(parse: Callable[[str], _T], part: str, whole: str) -> _T:
    try:
        return parse(part)
    except NotationError as exc:
        if whole == part:
            raise
        raise NotationError(f"{exc} (in {whole!r})") from None


for _tile in ALL_TILES:
    _BY_TEXT[format_tile(_tile)] = _tile
