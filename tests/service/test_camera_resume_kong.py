"""A process killed just after a kong, before its replacement draw, resumes owing that draw.

Found by the real-process bench (national seed 4 hand 4, killed at the kong): the public
snapshot shows the kong's seat to discard, so the resumed bridge took its turn as begun and
published its discard with no replacement draw; the engine raised ``small_xianggong`` (13 tiles
where 14 are due), refused the seat's win and the hand was abandoned.
"""

from __future__ import annotations

import pytest

from engine.tiles import Tile
from tests.service.test_camera_hands import _feed
from tilesight.camera_feed import CameraFeed
from vision.observed import ConcealedKongSeen, DiscardSeen, FaceDownKongSeen


@pytest.mark.parametrize("procedure", ["wsom", "national"])
@pytest.mark.parametrize("kong", ["concealed_kong", "face_down_kong"])
def test_a_resume_after_a_kong_draws_its_replacement_before_the_discard(
    procedure: str, kong: str
) -> None:
    feed, service = _feed(procedure)
    feed.new_hand(())
    dealer = service.engine.snapshot()["hand"]["dealer"]
    seat = (dealer + 1) % 4
    feed.read([DiscardSeen(dealer, Tile.parse("9s"), frame=1)])
    five = Tile.parse("5p")
    feed.read(
        [
            ConcealedKongSeen(seat, five, 2)
            if kong == "concealed_kong"
            else FaceDownKongSeen(seat, 2)
        ]
    )
    restarted = CameraFeed(feed.config, service)  # type: ignore[arg-type]  # killed, restarted
    assert restarted.resume()
    before = len(service.events)
    restarted.read([DiscardSeen(seat, Tile.parse("N"), frame=3)])
    after = [(e["type"], e.get("seat"), e.get("replacement")) for e in service.events[before:]]
    assert after == [("tile_drawn", seat, True), ("tile_discarded", seat, None)]


def test_a_resume_after_an_ordinary_draw_adds_no_draw() -> None:
    feed, service = _feed("wsom")
    feed.new_hand(())
    dealer = service.engine.snapshot()["hand"]["dealer"]  # dealt fourteen: its turn has begun
    restarted = CameraFeed(feed.config, service)  # type: ignore[arg-type]
    assert restarted.resume()
    before = len(service.events)
    restarted.read([DiscardSeen(dealer, Tile.parse("N"), frame=1)])
    assert [e["type"] for e in service.events[before:]] == ["tile_discarded"]
