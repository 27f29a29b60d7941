"""The broadcast overlay in a real headless Chromium, fed by the real service through Mosquitto.

A full simulated hand is applied to the engine action by action; after every discard each open
overlay's DOM must show exactly the engine's rivers, melds, flowers, scores and wall counts. One
overlay is open from the start, a second is opened mid-hand (retained state only), and the win
card must list the scorer's fans and total. Another test kills and restarts the broker mid-hand.
The win cards of camera-only tables: test_overlay_win_cards.py; reading the page: overlay_view.py.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from engine.notation import parse_hand, parse_tiles
from engine.simulate.actions import demo_hands
from engine.table.events import WinDeclared
from tests.web.conftest import (
    ACCOUNTS,
    ARTIFACTS,
    TOURNAMENT,
    table_service,
    wait_js,
)
from tests.web.overlay_view import VIEW_JS, expected_view, overlay_url, wait_for_seq
from tilesight.demo.broker import MosquittoBroker

pytestmark = pytest.mark.browser

EVIL_NAME = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>'


def test_overlay_follows_a_full_hand(
    broker: MosquittoBroker, web: Any, page_factory: Any, tmp_path: Path
) -> None:
    hand = next(demo_hands("wsom", 2, 1))
    discards = [i for i, a in enumerate(hand.actions) if a.name == "discard"]
    late_at = discards[len(discards) // 2]
    url = overlay_url(web, broker, "T1", names=f"Ann,Bo,{EVIL_NAME.replace(',', ' ')},Di")
    with table_service(broker, "T1", tmp_path) as service:
        first = page_factory(url)
        pages = [first]
        win: WinDeclared | None = None
        checked = 0
        for i, action in enumerate(hand.actions):
            events = service.apply(replace(action, at=None))
            win = next((e for e in events if isinstance(e, WinDeclared)), win)
            if i == late_at:
                pages.append(page_factory(url))  # opened mid-hand: retained state only
            if action.name != "discard":
                continue
            seq = service.engine.position[1]
            expected = expected_view(service.engine.snapshot(), seq)
            for page in pages:
                wait_for_seq(page, seq)
                assert page.evaluate(VIEW_JS) == expected, f"after action {i}: {action}"
            turn = expected["seats"].index(next(s for s in expected["seats"] if s["turn"]))
            clock = first.text_content(f"#seat-{turn} .timer") or ""
            assert re.fullmatch(r"\+?\d+s", clock), clock  # the discard clock runs locally
            checked += 1
            if i == late_at:
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                shot = first.screenshot(omit_background=True)
                (ARTIFACTS / "overlay-mid-hand.png").write_bytes(shot)
        assert checked == len(discards) and len(pages) == 2
        assert win is not None and win.score is not None
        for page in pages:
            wait_for_seq(page, service.engine.position[1])
        first.wait_for_selector(".win-card .fan", timeout=10_000)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        # bytes, not path=: Playwright writes files from an executor thread that outlives the test
        (ARTIFACTS / "overlay-win.png").write_bytes(first.screenshot(omit_background=True))
        late_view = pages[1].evaluate(VIEW_JS)
        assert late_view == first.evaluate(VIEW_JS)
    fans = first.evaluate(
        """() => [...document.querySelectorAll('.win-card .fan')].map((f) => [
             f.querySelector('.fan-name').textContent, f.querySelector('.fan-points').textContent,
             [...f.querySelectorAll('.fan-set')].map((s) => s.dataset.set)])"""
    )
    want = [
        [
            fan["name"],
            f"{fan['points']}" + (f" ×{fan['count']}" if fan["count"] > 1 else ""),
            fan.get("sets", []),
        ]
        for fan in win.score["fans"]
    ]
    assert fans == want and want
    shown = first.evaluate(
        "[...document.querySelectorAll('.win-card .win-hand .tile')].map((t) => t.dataset.tile)"
    )
    assert win.hand is not None and win.win_tile is not None
    assert shown == [str(t) for t in parse_hand(win.hand).all_tiles()] + [str(win.win_tile)]
    assert first.get_attribute(".win-card .win-tile", "data-tile") == str(win.win_tile)
    # the active fan's sets light up in the winning hand (the card steps through the fans)
    active, lit = first.evaluate(
        """() => [Number(document.querySelector('.win-card .fan.active').dataset.index),
                  document.querySelectorAll('.win-card .win-hand .tile.hl').length]"""
    )
    active_sets = "".join(win.score["fans"][active].get("sets", []))
    assert lit == (len(parse_tiles(active_sets)) if active_sets else 0)
    assert first.text_content(".win-card .win-total") == str(win.score["total"])
    payments = first.text_content(".win-card .payments") or ""
    assert f"each other seat pays {win.score['payments']['each_other']}" in payments
    assert first.text_content("#seat-2 .name") == EVIL_NAME.replace(",", " ")
    assert first.evaluate("document.querySelectorAll('#seat-2 .name *').length") == 0
    assert first.evaluate("window.__xss === undefined")
    assert first.evaluate("document.body.dataset.connected") == "1"


def test_wire_strings_are_text_and_violations_stay_off_air(
    broker: MosquittoBroker, web: Any, page_factory: Any
) -> None:
    """A hostile retained state (written with a table's own account) is drawn as text."""
    evil_tile = "<script>window.__xss=3</script>"
    state = {
        "schema": "tilesight.state/1",
        "epoch": 1,
        "seq": 7,
        "updated": 0,
        "timer": {},
        "game": {
            "scores": [1, 2, 3, "<b>4</b>"],
            "hand": {
                "number": 1,
                "dealer": 0,
                "prevalent_wind": "<i>E</i>",
                "phase": "discard",
                "turn": 0,
                "live_discard": {"seat": 0, "tile": evil_tile},
                "river_bottom": False,
                "seats": [
                    {
                        "seat": i,
                        "wind": "ESWN"[i],
                        "river": [[evil_tile]] if i == 0 else [],
                        "melds": [{"meld": "[<em>x</em>]"}] if i == 1 else [],
                        "flowers": ["1f", "<b>f</b>"] if i == 2 else [],
                        "face_down_kongs": [1, "<b>2</b>", 0, 1e9][i],
                    }
                    for i in range(4)
                ],
                "wall": {"live_left": "<u>9</u>", "reserved": 14},
            },
        },
    }
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="evil-T2")
    client.username_pw_set("T2", ACCOUNTS["T2"])
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        root = f"tilesight/v1/{TOURNAMENT}/T2"
        client.publish(f"{root}/state", json.dumps(state), qos=1, retain=True).wait_for_publish(5)
        page = page_factory(overlay_url(web, broker, "T2", theme="light", scale="0.5"))
        wait_for_seq(page, 7)
        assert page.evaluate("document.body.classList.contains('theme-light')")
        assert (
            page.evaluate("document.getElementById('stage').getBoundingClientRect().width") == 960
        )
        violation = {"type": "violation", "event_id": "v1", "kind": "false_win", "detail": "x"}
        client.publish(f"{root}/events/violation", json.dumps(violation), qos=1).wait_for_publish(5)
        washout = {"type": "washout", "event_id": "w1", "live_left": 0}
        client.publish(f"{root}/events/washout", json.dumps(washout), qos=1).wait_for_publish(5)
        page.wait_for_selector("#notice:not([hidden])", timeout=5000)
    finally:
        client.publish(f"tilesight/v1/{TOURNAMENT}/T2/state", b"", qos=1, retain=True)
        client.loop_stop()
        client.disconnect()
    assert page.text_content("#seat-0 .river .tile-text") == evil_tile
    assert page.get_attribute("#seat-0 .river .tile", "data-tile") == evil_tile
    assert page.text_content("#seat-3 .score") == "<b>4</b>"
    assert page.text_content("#wall-live .count") == "<u>9</u>"
    assert page.text_content("#seat-1 .melds .tile-text") == "[<em>x</em>]"
    flowers = page.locator("#seat-2 .flowers .tile")
    assert flowers.nth(0).locator("use").get_attribute("href") == "tiles.svg#t-1f"
    assert flowers.nth(1).text_content() == "<b>f</b>"
    kongs = "[...document.querySelectorAll('#seat-%d .face-down-kong')].length"
    assert [page.evaluate(kongs % i) for i in range(4)] == [1, 0, 0, 4]  # a huge count is capped
    backs = page.locator("#seat-0 .face-down-kong .tile use")
    assert [backs.nth(k).get_attribute("href") for k in range(4)] == ["tiles.svg#t-back"] * 4
    assert page.evaluate("document.querySelectorAll('script').length") == 3  # the page's own
    assert page.evaluate("window.__xss === undefined")
    assert "false_win" not in (page.text_content("body") or "")
    assert "Washout" in (page.text_content("#notice") or "")


def test_a_delayed_overlay_lags_the_table(
    broker: MosquittoBroker, web: Any, page_factory: Any, tmp_path: Path
) -> None:
    """source=delayed reads the service's delayed/ copies (overlay-delayed account); delay=N
    holds messages back in the page itself."""
    delay = 1.5
    actions = next(demo_hands("wsom", 2, 1)).actions
    with table_service(broker, "T3", tmp_path, delay_s=delay) as service:
        broker_delayed = page_factory(
            overlay_url(web, broker, "T3", "overlay-delayed", source="delayed")
        )
        page_delayed = page_factory(overlay_url(web, broker, "T3", delay=str(delay)))
        for action in actions[:12]:
            service.apply(replace(action, at=None))
        applied = time.monotonic()
        seq = service.engine.position[1]
        for page in (broker_delayed, page_delayed):
            assert int(page.get_attribute("body", "data-seq") or "-1") < seq
        for page in (broker_delayed, page_delayed):
            wait_for_seq(page, seq)
            assert time.monotonic() - applied > delay * 0.8
            assert page.evaluate(VIEW_JS) == expected_view(service.engine.snapshot(), seq)


def test_overlay_survives_a_broker_restart(
    broker: MosquittoBroker, web: Any, page_factory: Any, tmp_path: Path
) -> None:
    """SIGKILL the broker mid-hand, play on while it is down, start it again (no retained state
    survives): the overlay reconnects by itself and shows the engine's state again."""
    actions = next(demo_hands("wsom", 2, 1)).actions
    discards = [i for i, a in enumerate(actions) if a.name == "discard"]
    with table_service(broker, "T4", tmp_path) as service:
        page = page_factory(overlay_url(web, broker, "T4"))
        for action in actions[: discards[4]]:
            service.apply(replace(action, at=None))
        wait_for_seq(page, service.engine.position[1])
        service.apply(replace(actions[discards[4]], at=None))
        broker.kill()  # a crash right after a publish, as likely as any other moment
        for action in actions[discards[4] + 1 : discards[5] + 1]:  # played during the outage
            service.apply(replace(action, at=None))
        outage = service.engine.position[1]
        broker.restart()
        wait_js(page, "document.body.dataset.connects === '2'", 15)
        wait_for_seq(page, outage, 5)  # the newest state, not a snapshot from before the crash
        for action in actions[discards[5] + 1 : discards[6] + 1]:
            service.apply(replace(action, at=None))
        seq = service.engine.position[1]
        wait_for_seq(page, seq)
        assert page.evaluate(VIEW_JS) == expected_view(service.engine.snapshot(), seq)
