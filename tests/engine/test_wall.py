"""The wall: break geometry for every WSOM break number, deal, counts, reserved block, washout."""

from __future__ import annotations

import random

import pytest

from engine.procedures import NATIONAL, WSOM, Procedure, dice_seat, find_procedure
from engine.tiles import Tile
from engine.wall import (
    DEAL_POSITIONS,
    Wall,
    WallError,
    WallExhaustedError,
    WallMismatchError,
    procedure_tiles,
)
from engine.wall_geometry import StackPosition, Tier, WallBreak, WallBreakError


def walk_clockwise(breaker: int, n: int, width: int) -> list[tuple[int, int]]:
    """(side, stack) of every stack in draw order, found by walking the table stack by stack.

    Independent of the code under test: start on the breaker's wall at stack 1 (its right end),
    count ``n`` stacks leftwards, stepping into the upper seat's wall past its left end; the
    stack after the n-th is the head; keep walking until every stack is listed once.
    """

    def step(side: int, stack: int) -> tuple[int, int]:
        return (side, stack + 1) if stack < width else ((side + 3) % 4, 1)

    side, stack = breaker, 1  # count 1
    for _ in range(n - 1):
        side, stack = step(side, stack)
    order: list[tuple[int, int]] = []  # now on the tail stack; the head is the next one
    for _ in range(4 * width):
        side, stack = step(side, stack)
        order.append((side, stack))
    return order


@pytest.mark.parametrize("n", range(4, 25))
@pytest.mark.parametrize("dealer", [0, 1])
def test_wsom_break_head_tail_and_order_for_every_break_number(n: int, dealer: int) -> None:
    r1 = min(12, n - 2)
    r2 = n - r1
    brk = WallBreak.from_dice(WSOM, dealer=dealer, rolls=(r1, r2))
    breaker = (dealer + r1 - 1) % 4
    assert brk.breaker == breaker
    assert brk.number == n
    # tail: on the breaker's wall up to 17, then the upper seat's wall (its rightmost = 18)
    if n <= 17:
        assert (brk.tail_side, brk.tail_stack) == (breaker, n)
    else:
        assert (brk.tail_side, brk.tail_stack) == ((breaker + 3) % 4, n - 17)
    expected = walk_clockwise(breaker, n, 17)
    assert expected[-1] == (brk.tail_side, brk.tail_stack)
    assert brk.head == StackPosition(*expected[0], Tier.TOP)
    wall = Wall.from_dice(WSOM, (r1, r2), dealer=dealer)
    for i in range(136):
        side, stack = expected[i // 2]
        assert wall.position(i) == StackPosition(
            side, stack, Tier.TOP if i % 2 == 0 else Tier.BOTTOM
        )
    # replacements come from the tail stack, top first, then the stack before it
    first_four = [wall.position(i) for i in wall.tail_indices(4)]
    assert first_four == [
        StackPosition(*expected[-1], Tier.TOP),
        StackPosition(*expected[-1], Tier.BOTTOM),
        StackPosition(*expected[-2], Tier.TOP),
        StackPosition(*expected[-2], Tier.BOTTOM),
    ]


def test_digest_worked_example_break_18() -> None:
    brk = WallBreak.from_dice(WSOM, dealer=0, rolls=(7, 11))
    assert brk.breaker == 2  # West
    assert (brk.tail_side, brk.tail_stack) == (1, 1)  # South's rightmost stack
    assert brk.head == StackPosition(1, 2, Tier.TOP)


@pytest.mark.parametrize("total, seat", [(5, 0), (9, 0), (6, 1), (10, 1), (7, 2), (11, 2), (4, 3)])
def test_dice_seat(total: int, seat: int) -> None:
    assert dice_seat(0, total) == seat
    assert dice_seat(2, total) == (seat + 2) % 4


@pytest.mark.parametrize("rolls", [(13, 2), (1, 5), (7,), (7, 7, 7)])
def test_bad_dice_are_rejected_with_the_rolls_quoted(rolls: tuple[int, ...]) -> None:
    with pytest.raises(WallBreakError, match=r"got \("):
        WallBreak.from_dice(WSOM, dealer=0, rolls=rolls)


def test_break_from_single_die_faces() -> None:
    brk = WallBreak.from_die_faces(WSOM, dealer=0, faces=(3, 4, 5, 6))
    assert (brk.rolls, brk.breaker, brk.number) == ((7, 11), 2, 18)
    assert WallBreak.from_die_faces(NATIONAL, dealer=1, faces=(6, 6)).number == 12
    with pytest.raises(WallBreakError, match=r"4 die faces \(each 1-6\), got \(3, 7, 1, 1\)"):
        WallBreak.from_die_faces(WSOM, dealer=0, faces=(3, 7, 1, 1))
    with pytest.raises(WallBreakError, match="got \\(6,\\)"):
        WallBreak.from_die_faces(NATIONAL, dealer=0, faces=(6,))


def test_national_one_roll_break_stays_on_one_wall() -> None:
    for d in range(2, 13):
        brk = WallBreak.from_dice(NATIONAL, dealer=1, rolls=(d,))
        assert brk.breaker == dice_seat(1, d)
        assert (brk.tail_side, brk.tail_stack) == (brk.breaker, d)
        assert brk.head == StackPosition(brk.breaker, d + 1, Tier.TOP)


def _numbered_wall(procedure: Procedure, rolls: tuple[int, ...]) -> tuple[Wall, list[Tile]]:
    tiles = list(procedure_tiles(procedure))
    random.Random(7).shuffle(tiles)
    return Wall.from_dice(procedure, rolls, dealer=2, tiles=tiles), tiles


def test_deal_gives_dealer_14_by_the_digest_index_form() -> None:
    wall, tiles = _numbered_wall(WSOM, (6, 6))
    hands = wall.deal()
    assert [len(h) for h in hands] == [13, 13, 14, 13]  # dealer is seat 2
    assert hands[2] == tuple(tiles[i] for i in [*range(4), *range(16, 20), *range(32, 36), 48, 52])
    assert hands[3] == tuple(tiles[i] for i in [*range(4, 8), *range(20, 24), *range(36, 40), 49])
    assert hands[1][-1] == tiles[51]
    assert sorted(i for p in DEAL_POSITIONS for i in p) == list(range(53))
    assert wall.draw() == tiles[53]
    with pytest.raises(WallError, match="already been dealt"):
        wall.deal()


def test_wsom_hand_without_kongs_allows_53_dealt_and_69_drawn() -> None:
    wall, _ = _numbered_wall(WSOM, (5, 9))
    wall.deal()
    drawn = 0
    while not wall.exhausted:
        if drawn == 68:
            assert wall.next_is_last
        else:
            assert not wall.next_is_last
        wall.draw()
        drawn += 1
    assert (wall.dealt, drawn, wall.remaining, wall.reserved) == (53, 69, 14, 14)
    with pytest.raises(WallExhaustedError, match="14 reserved"):
        wall.draw()


def test_each_kong_replacement_moves_the_reserved_block() -> None:
    wall, tiles = _numbered_wall(WSOM, (8, 8))  # n = 16
    wall.deal()
    assert wall.reserved_indices() == tuple(range(122, 136))
    assert wall.draw_replacement() == tiles[134]  # tail stack top = position 134
    assert (wall.live, wall.reserved, wall.replacements) == (68, 14, 1)
    # the block shifted one tile toward the head: 121 (a bottom tile) joins it, 120 stays live
    assert wall.reserved_indices() == (*range(121, 134), 135)
    assert wall.draw_replacement() == tiles[135]
    assert wall.draw_replacement() == tiles[132]
    draws = 0
    while not wall.exhausted:
        wall.draw()
        draws += 1
    assert draws == 69 - 3
    assert wall.dealt + wall.drawn + wall.replacements + wall.remaining == 136
    # head draws took 53..118; replacements took 134, 135, 132: the reserved 14 are what is left
    assert wall.reserved_indices() == (*range(119, 132), 133)


def test_sea_bottom_can_be_a_replacement_tile() -> None:
    wall, _ = _numbered_wall(WSOM, (4, 4))
    wall.deal()
    for _ in range(68):
        wall.draw()
    assert wall.next_is_last and wall.live == 1
    wall.draw_replacement()
    assert wall.exhausted and wall.remaining == 14
    with pytest.raises(WallExhaustedError):
        wall.draw_replacement()


def test_national_flowers_from_the_tail_and_washout_after_the_144th_tile() -> None:
    wall, tiles = _numbered_wall(NATIONAL, (9,))
    assert wall.total == 144 and wall.reserved == 0
    wall.deal()
    assert wall.draw_replacement() == tiles[142]
    assert wall.draw_replacement() == tiles[143]
    taken = 53 + 2
    while not wall.exhausted:
        wall.draw()
        taken += 1
    assert taken == 144 and wall.remaining == 0


def test_known_order_is_checked_and_unknown_order_is_learned() -> None:
    wall, tiles = _numbered_wall(WSOM, (6, 7))
    wall.deal()
    wrong = next(t for t in procedure_tiles(WSOM) if t != tiles[53])
    with pytest.raises(WallMismatchError, match="position 53"):
        wall.draw(wrong)
    assert wall.draw(tiles[53]) == tiles[53]
    camera = Wall.from_dice(WSOM, (6, 7))
    hands = camera.deal()
    assert all(t is None for h in hands for t in h)
    assert camera.draw() is None
    five = Tile.parse("5m")
    assert camera.draw(five) == five
    assert camera.order()[54] == five and not camera.tiles_known


def test_counts_snapshot_and_log_procedure_without_geometry() -> None:
    log = find_procedure("record")
    wall = Wall(log)
    assert wall.wall_break is None and wall.position(0) is None
    wall.deal()
    counts = wall.counts()
    assert (counts.dealt, counts.live, counts.reserved, counts.break_side) == (53, 91, 0, None)
    wsom = Wall.from_dice(WSOM, (7, 11))
    assert (wsom.counts().break_side, wsom.counts().break_stack) == (1, 1)
    with pytest.raises(WallError, match="not been dealt"):
        wsom.draw()


def test_revealed_tail_tiles_for_a_plugin_procedure() -> None:
    qj = Procedure(name="qj-test", reserved_tiles=0, revealed_tail_tiles=2)
    tiles = list(procedure_tiles(qj))
    wall = Wall(qj, tiles=tiles)
    wall.deal()
    assert wall.revealed_tail() == (tiles[134], tiles[135])
    assert wall.draw_replacement(pick=1) == tiles[135]
    assert wall.revealed_tail() == (tiles[134], tiles[132])
    # pick 2 is the face-down tile in front of the two face-up ones; nothing beyond it.
    front = wall.tail_indices(3)[2]
    assert front not in wall.tail_indices(2) and wall.peek_replacement(2) == tiles[front]
    with pytest.raises(WallError, match="pick 3"):
        wall.draw_replacement(pick=3)
    while wall.live > 1:
        wall.draw()
    with pytest.raises(WallError, match="pick 1 is not among the 1 tail"):
        wall.draw_replacement(pick=1)
    assert wall.draw_replacement(pick=0) is not None and wall.exhausted


def test_shuffled_is_deterministic_per_seed() -> None:
    a = Wall.shuffled(WSOM, random.Random(3))
    b = Wall.shuffled(WSOM, random.Random(3))
    c = Wall.shuffled(WSOM, random.Random(4))
    assert a.order() == b.order() and a.wall_break == b.wall_break
    assert a.order() != c.order()
    assert sorted(a.order()) == sorted(procedure_tiles(WSOM))  # type: ignore[type-var]


def test_deal_names_are_checked_or_learned_atomically() -> None:
    wall, tiles = _numbered_wall(WSOM, (6, 6))
    right = Wall.from_dice(WSOM, (6, 6), dealer=2, tiles=tiles).deal()
    named = [[t for t in hand if t is not None] for hand in right]
    wrong = [list(hand) for hand in named]
    wrong[0][0] = next(t for t in procedure_tiles(WSOM) if t != wrong[0][0])
    with pytest.raises(WallMismatchError, match="the deal names"):
        wall.deal(wrong)
    assert wall.dealt == 0  # nothing was taken
    assert wall.deal(named) == right
    with pytest.raises(WallMismatchError, match="seat 0 is dealt 14 tiles, the deal names 0"):
        Wall(WSOM).deal([[], [], [], []])
    camera = Wall.from_dice(WSOM, (6, 6), dealer=2)
    assert camera.deal(named) == right
    assert camera.order()[:53] == tuple(tiles[:53]) and camera.order()[53] is None
