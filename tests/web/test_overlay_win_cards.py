"""The overlay's win card for a camera-only table, in a real headless Chromium fed by the real
service through Mosquitto: a win beside a face-down kong scored once the kong is shown, and a
self-drawn win whose drawn tile no camera saw."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.actions import ShowKong, Win
from engine.events import to_dict
from engine.notation import parse_hand, parse_tile
from tests.engine.table_script import script
from tests.web.conftest import table_service
from tests.web.overlay_view import overlay_url, wait_for_seq
from tilesight.demo.broker import MosquittoBroker

pytestmark = pytest.mark.browser


def test_a_win_beside_a_face_down_kong_is_scored_on_air_when_the_kong_is_shown(
    broker: MosquittoBroker, web: Any, page_factory: Any, tmp_path: Path
) -> None:
    """A camera-only table (log procedure): seat 0 lays a kong face down and wins on seat 1's
    5p. The card shows the win unscored, then the fans and payments once the kong is shown."""
    deal = "start\n" + "".join(f"deal {seat} ?13\n" for seat in range(4))
    play = "0 draw ?\n0 ckong ?\n0 draw ?\n0 discard 5m\n1 draw ?\n1 discard 5p\n"
    cards = "[...document.querySelectorAll('.win-card')]"
    with table_service(broker, "T2", tmp_path, procedure="log") as service:
        page = page_factory(overlay_url(web, broker, "T2"))
        for action in script(deal + play):
            service.apply(action)
        wait_for_seq(page, service.engine.position[1])  # subscribed: events are not retained
        service.apply(Win(seat=0, hand=parse_hand("123m 456s 5p 789p")))
        wait_for_seq(page, service.engine.position[1])
        page.wait_for_selector(".win-card.unscored .win-pending")
        assert page.evaluate(f"{cards}.length") == 1
        assert page.evaluate("document.querySelectorAll('.win-card .fan').length") == 0
        assert not page.is_visible(".win-card .win-total-row")
        events = [to_dict(e) for e in service.apply(ShowKong(seat=0, tile=parse_tile("E")))]
        scored = next(e for e in events if e["type"] == "win_scored")
        wait_for_seq(page, service.engine.position[1])
        page.wait_for_selector(".win-card:not(.unscored) .fan")
        assert page.evaluate(f"{cards}.length") == 1  # the same card, now scored
        assert page.get_attribute(".win-card", "data-event-id") == scored["win_event"]
        names = page.evaluate(
            "[...document.querySelectorAll('.win-card .fan-name')].map((f) => f.textContent)"
        )
        assert names == [fan["name"] for fan in scored["score"]["fans"]]
        assert "Concealed Kong" in names
        assert page.text_content(".win-card .win-total") == str(scored["score"]["total"])
        shown = page.evaluate(
            "[...document.querySelectorAll('.win-card .win-hand .tile')].map((t) => t.dataset.tile)"
        )
        assert shown.count("E") == 4 and shown[-1] == "5p"
        deltas = page.text_content(".win-card .deltas") or ""
        assert f"Seat 0 +{scored['deltas'][0]}" in deltas
        heads = [page.text_content(f"#seat-{i} .score") for i in range(4)]
        assert heads == [str(d) for d in scored["deltas"]]  # the restated hand end's totals
        assert page.query_selector(".win-pending") is None


def test_a_self_drawn_win_no_camera_saw_drawn_says_its_tile_was_not_seen(
    broker: MosquittoBroker, web: Any, page_factory: Any, tmp_path: Path
) -> None:
    """A camera-only table: seat 0's draw is unseen and it lays all 14 tiles. The card says
    self-drawn, marks the tile the engine took and says it was not seen."""
    deal = "start\n" + "".join(f"deal {seat} ?13\n" for seat in range(4))
    play = "".join(f"{s} draw ?\n{s} discard {t}\n" for s, t in enumerate(["9m", "1s", "2s", "3s"]))
    with table_service(broker, "T3", tmp_path, procedure="log") as service:
        page = page_factory(overlay_url(web, broker, "T3"))
        for action in script(deal + play + "0 draw ?\n"):
            service.apply(action)
        wait_for_seq(page, service.engine.position[1])
        events = [
            to_dict(e) for e in service.apply(Win(seat=0, hand=parse_hand("123m456s789pEEE55p")))
        ]
        win = next(e for e in events if e["type"] == "win_declared")
        assert win["win_tile_inferred"] and win["self_drawn"]
        wait_for_seq(page, service.engine.position[1])
        page.wait_for_selector(".win-card.win-tile-inferred .win-note")
        assert "self-drawn" in (page.text_content(".win-card .win-title") or "")
        assert "not seen" in (page.text_content(".win-card .win-note") or "")
        assert page.get_attribute(".win-card .win-tile", "data-tile") == win["win_tile"]
        assert page.text_content(".win-card .win-total") == str(win["score"]["total"])


def test_a_win_on_a_hand_read_one_short_names_the_tile_taken_for_the_one_not_read(
    broker: MosquittoBroker, web: Any, page_factory: Any, tmp_path: Path
) -> None:
    """A camera-only table: seat 0 wins on seat 1's 5p, its hand read with the 5p laid in and
    the 2m missed. The card shows the whole hand scored and says which tile was taken."""
    deal = "start\n" + "".join(f"deal {seat} ?13\n" for seat in range(4))
    play = "0 draw ?\n0 discard 9m\n1 draw ?\n1 discard 5p\n"
    with table_service(broker, "T4", tmp_path, procedure="log") as service:
        page = page_factory(overlay_url(web, broker, "T4"))
        for action in script(deal + play):
            service.apply(action)
        wait_for_seq(page, service.engine.position[1])
        read = parse_hand("13m456s789pEEE55p")  # the 2m not read, the 5p won on laid in
        events = [
            to_dict(e)
            for e in service.apply(Win(seat=0, tile=parse_tile("5p"), hand=read, one_unread=True))
        ]
        win = next(e for e in events if e["type"] == "win_declared")
        assert win["hand_tile_inferred"] == "2m" and win["discarder"] == 1
        wait_for_seq(page, service.engine.position[1])
        page.wait_for_selector(".win-card.hand-tile-inferred .win-note")
        assert "2m taken" in (page.text_content(".win-card .win-note") or "")
        marked = page.evaluate(
            "[...document.querySelectorAll('.win-card .inferred-tile')].map((t) => t.dataset.tile)"
        )
        assert marked == ["2m"]  # the tile taken for the one not read, outlined
        shown = page.evaluate(
            "[...document.querySelectorAll('.win-card .win-hand .tile')].map((t) => t.dataset.tile)"
        )
        assert sorted(shown) == sorted(
            ["1m", "2m", "3m", "4s", "5s", "6s", "7p", "8p", "9p", "E", "E", "E", "5p", "5p"]
        )
        assert page.text_content(".win-card .win-total") == str(win["score"]["total"])
