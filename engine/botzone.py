"""Importer for Botzone ``data.txt`` game records (the IJCAI Chinese Standard Mahjong format).

Each game becomes a :class:`BotzoneGame`: the table actions in order plus the recorded result
(fans, total, score changes, or a washout) to check a replay against. Claims that lost on
precedence ("Ignore Player n Peng t") are kept as actions before the claim that won, so the table
checks the precedence itself; lost win claims are dropped (one winner per hand).

>>> deal = "Player 0 Deal W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4"
>>> games = parse_botzone(f"Match x\\nWind 0\\n{deal}\\n")
>>> games[0].match_id, type(games[0].actions[-1]).__name__
('x', 'Deal')
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import actions as act
from engine.notation import NotationError, parse_botzone_tile
from engine.tiles import Tile, Wind


class BotzoneFormatError(ValueError):
    """A malformed line; the message gives the line number and quotes the line."""


@dataclass(frozen=True, slots=True)
class ExpectedResult:
    """What the record says happened: the winner, fans (Chinese name, count), total, scores."""

    winner: int | None = None
    win_tile: Tile | None = None
    fans: tuple[tuple[str, int], ...] = ()
    total: int | None = None
    score: tuple[int, ...] | None = None
    washout: bool = False


@dataclass(frozen=True, slots=True)
class BotzoneGame:
    match_id: str
    prevalent_wind: Wind
    actions: tuple[act.Action, ...]
    expected: ExpectedResult
    line: int


def parse_botzone(text: str) -> list[BotzoneGame]:
    """Every game in ``text``; raises BotzoneFormatError on the first malformed line."""
    games: list[BotzoneGame] = []
    builder: _GameBuilder | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        words = line.split()
        try:
            if words[0] == "Match":
                if builder is not None:
                    games.append(builder.finish())
                builder = _GameBuilder(" ".join(words[1:]), number)
                continue
            if builder is None:
                raise ValueError("record does not start with a 'Match' line")
            builder.feed(words)
        except (ValueError, NotationError, IndexError) as exc:
            raise BotzoneFormatError(f"line {number}: {exc}: {raw!r}") from None
    if builder is not None:
        try:
            games.append(builder.finish())
        except ValueError as exc:
            raise BotzoneFormatError(f"game at line {builder.line}: {exc}") from None
    return games


class _GameBuilder:
    def __init__(self, match_id: str, line: int) -> None:
        if not match_id:
            raise ValueError("a Match line needs an id")
        self.match_id, self.line = match_id, line
        self.wind: Wind | None = None
        self.actions: list[act.Action] = []
        self.winner: int | None = None
        self.win_tile: Tile | None = None
        self.fans: tuple[tuple[str, int], ...] = ()
        self.total: int | None = None
        self.score: tuple[int, ...] | None = None
        self.washout = False

    def feed(self, words: list[str]) -> None:
        head = words[0]
        if head == "Wind":
            _arity(words, 2)
            self.wind = Wind(_int(words[1], range(4), "prevalent wind"))
            self.actions.append(act.HandStart(dealer=0, prevalent_wind=self.wind))
        elif head == "Player":
            if self.wind is None:
                raise ValueError("a Player line before the Wind line")
            self._player(words)
        elif head == "Fan":
            self.total = _int(words[1], range(10_000), "fan total")
            self.fans = tuple(_fan(part) for part in " ".join(words[2:]).split("+") if part)
        elif head == "Score":
            _arity(words, 5)
            self.score = tuple(_int(w, range(-10_000, 10_000), "score") for w in words[1:])
        elif head == "Huang":
            _arity(words, 1)
            self.washout = True
            self.actions.append(act.Washout())
        else:
            raise ValueError(f"unknown line type {head!r}")

    def _player(self, words: list[str]) -> None:
        main, ignored = _split_ignored(words)
        for claim in ignored:
            if claim[2] != "Hu":  # a lost win claim has no effect on the table
                self.actions.append(_player_action(claim))
        action = _player_action(main)
        if isinstance(action, act.Win):
            self.winner, self.win_tile = action.seat, action.tile
        self.actions.append(action)

    def finish(self) -> BotzoneGame:
        if self.wind is None:
            raise ValueError(f"match {self.match_id!r} has no Wind line")
        expected = ExpectedResult(
            self.winner, self.win_tile, self.fans, self.total, self.score, self.washout
        )
        return BotzoneGame(self.match_id, self.wind, tuple(self.actions), expected, self.line)


def _split_ignored(words: list[str]) -> tuple[list[str], list[list[str]]]:
    parts: list[list[str]] = [[]]
    for word in words:
        if word == "Ignore":
            parts.append([])
        else:
            parts[-1].append(word)
    return parts[0], parts[1:]


def _player_action(words: list[str]) -> act.Action:
    if len(words) < 3 or words[0] != "Player":
        raise ValueError(f"expected 'Player <seat> <verb> <tiles>', got {' '.join(words)!r}")
    seat = _int(words[1], range(4), "seat")
    verb, args = words[2], words[3:]
    if verb == "Deal":
        if len(args) != 13:
            raise ValueError(f"a deal has 13 tiles, got {len(args)}")
        return act.Deal(seat=seat, tiles=tuple(parse_botzone_tile(a) for a in args))
    if len(args) != 1:
        raise ValueError(f"{verb} takes one tile, got {len(args)}")
    tile = parse_botzone_tile(args[0])
    if verb == "Chi":
        low, high = tile.shifted(-1), tile.shifted(1)
        if low is None or high is None:
            raise ValueError(f"{args[0]} cannot be the middle tile of a chow")
        return act.Chow(seat=seat, tiles=(low, tile, high))
    simple: dict[str, type[act.Action]] = {
        "Draw": act.Draw,
        "Play": act.Discard,
        "Peng": act.Pung,
        "Gang": act.Kong,
        "AnGang": act.ConcealedKong,
        "BuGang": act.AddedKong,
        "Hu": act.Win,
    }
    cls = simple.get(verb)
    if cls is None:
        raise ValueError(f"unknown verb {verb!r}")
    return cls(seat=seat, tile=tile)  # type: ignore[call-arg]


def _fan(part: str) -> tuple[str, int]:
    name, star, count = part.rpartition("*")
    if not star or not name:
        raise ValueError(f"a fan is '<name>*<count>', got {part!r}")
    return name, _int(count, range(1, 100), "fan count")


def _int(text: str, allowed: range, what: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{what} {text!r} is not a number") from None
    if value not in allowed:
        raise ValueError(f"{what} {value} is out of range")
    return value


def _arity(words: list[str], count: int) -> None:
    if len(words) != count:
        raise ValueError(f"{words[0]} line needs {count - 1} value(s)")
