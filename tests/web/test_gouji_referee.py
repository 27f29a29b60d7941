"""The referee console at a Gouji table with a card camera, in a real headless Chromium over a
real Mosquitto: plays the camera read and passes it inferred are marked; *Correct…* fills the
correction form from a misread play; a refused correction shows the table's error and changes
nothing; the correction sent is taken by the engine and the superseded play is struck through."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.gouji.table_events import GoujiPass, GoujiPlay, GoujiStart
from tests.gouji.test_corrections import HANDS
from tests.web.conftest import ARTIFACTS, TOURNAMENT
from tests.web.test_gouji_pages import gouji_service
from tests.web.test_referee import log_in, response
from tilesight.demo.broker import MosquittoBroker
from tilesight.web.server import page_url

pytestmark = pytest.mark.browser


def test_camera_reads_marked_and_a_misread_corrected(
    broker: MosquittoBroker, web: Any, page_factory: Any, tmp_path: Path
) -> None:
    page = page_factory(page_url(web.url, "referee.html", {"tournament": TOURNAMENT}))
    with gouji_service(broker, "T4", tmp_path) as service:
        log_in(page, broker)
        service.apply(GoujiStart(hands=HANDS, leader=0))
        page.wait_for_selector("#tables tr[data-table='T4'] td:nth-child(3):text('1 (playing)')")
        page.click("#tables tr[data-table='T4'] button.pick")
        (misread,) = service.apply(GoujiPlay(seat=0, cards="Tc Td", camera=True))
        service.apply(GoujiPass(seat=1, inferred=True))
        service.apply(GoujiPlay(seat=2, cards="Q", camera=False))  # refused: a wrong count
        item = page.locator(f"#recent li[data-event-id='{misread.event_id}']")
        item.wait_for()
        assert item.get_attribute("data-source") == "camera"
        assert item.locator(".source").text_content() == "camera read"
        passed = page.locator("#recent li[data-type='passed'][data-source='inferred']")
        passed.wait_for()
        assert "passed (inferred: not seen)" in (passed.text_content() or "")
        # seat 2's Q, sent by command, is refused (one card against two): its forfeit is a
        # pass nobody inferred, not marked
        forfeit = page.locator("#recent li[data-type='passed']").first
        forfeit.wait_for()
        assert "seat 2" in (forfeit.text_content() or "")
        assert forfeit.get_attribute("data-source") is None

        item.locator("button.correct").click()
        assert page.input_value("#corr-supersedes") == misread.event_id
        assert page.input_value("#corr-kind") == "gouji_play"
        assert page.input_value("#corr-seat") == "0"
        assert page.input_value("#corr-tile") == "Tc Td"
        before = service.engine.snapshot()
        page.fill("#corr-tile", "Td Td Td")  # not in the hand: refused
        page.click("#corr-send")
        ok, text = response(page, "correction")
        assert ok == "0" and "refused: correction not applied" in text, text
        assert service.engine.snapshot() == before

        page.fill("#corr-tile", "Td")
        page.fill("#corr-reason", "a lone Td")
        page.click("#corr-send")
        response(page, "correction", 1)  # two answered (the newest is listed first)
        ok, text = response(page, "correction")
        assert ok == "1", text
        plays = service.engine.snapshot()["trick"]["plays"]
        assert [(p["seat"], p["cards"]) for p in plays] == [(0, ["Td"]), (2, ["Q"])]
        fixed = item.locator(".corrected")
        fixed.wait_for()
        assert fixed.text_content() == "corrected: play Td"
        applied = page.locator("#recent li[data-type='correction_applied']")
        assert misread.event_id in (applied.text_content() or "")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "referee-gouji-correction.png").write_bytes(page.screenshot())
