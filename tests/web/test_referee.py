"""The referee console in a real headless Chromium against the real service and engine.

The referee logs in with the ``referee`` account of the example ACL, picks a table from the hall
list, corrects a discard (the engine rebuilds with the replacement), sees a false win within a
second of the event, acknowledges it and sends a shuffling-table command to an emulated table.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.actions import TableFault, Win
from engine.json_forms import tiles_from_json
from engine.notation import parse_hand
from engine.simulate.actions import demo_hands
from engine.table.events import TileDiscarded, ViolationRaised
from tests.engine.table_script import script
from tests.web.conftest import (
    ACCOUNTS,
    ARTIFACTS,
    TOURNAMENT,
    table_service,
    wait_js,
    wait_until,
    ws_url,
)
from tilesight.demo.broker import MosquittoBroker
from tilesight.table_bridge import TableBridge, emulated_table
from tilesight.web.server import page_url

pytestmark = pytest.mark.browser

EVIL = "<script>window.__xss=1</script><img src=x onerror=window.__xss=2>"


def log_in(page: Any, broker: MosquittoBroker) -> None:
    page.fill("#broker", ws_url(broker))
    page.fill("#tournament", TOURNAMENT)
    page.fill("#username", "referee")
    page.fill("#password", ACCOUNTS["referee"])
    page.click("#connect")
    # a loaded CI machine (a training run beside it) once took over the default 10 s
    page.wait_for_selector("body[data-connected='1']", timeout=30_000)


def response(page: Any, verb: str, index: int = 0) -> tuple[str, str]:
    """(ok flag, text) of the ``index``-th newest answered command ``verb``."""
    selector = f"#responses li.command[data-verb='{verb}']:not(.pending)"
    wait_js(page, f'document.querySelectorAll("{selector}").length > {index}')
    item = page.locator(selector).nth(index)
    return item.get_attribute("data-ok") or "", item.locator(".response").text_content() or ""


def test_referee_console(
    broker: MosquittoBroker, web: Any, page_factory: Any, tmp_path: Path
) -> None:
    actions = next(demo_hands("wsom", 2, 1)).actions
    sixth_discard = [i for i, a in enumerate(actions) if a.name == "discard"][5]
    page = page_factory(page_url(web.url, "referee.html", {"tournament": TOURNAMENT}))
    with (
        table_service(broker, "T1", tmp_path) as neighbour,
        table_service(broker, "T2", tmp_path) as service,
    ):
        bridge = TableBridge(service)
        service.table_control = bridge.control
        with emulated_table(bridge, seed=3):
            log_in(page, broker)
            neighbour.apply(replace(actions[0], at=None))  # the hall: another table mid-hand
            page.wait_for_selector("#tables tr[data-table='T1'] td:nth-child(3):text('1 (')")
            page.click("#tables tr[data-table='T2'] button.pick")
            rows = page.locator("#tables tbody tr").evaluate_all(
                "(rows) => rows.map((r) => r.dataset.table)"
            )
            assert rows == ["T1", "T2"]
            assert page.text_content("#tables tr[data-table='T2'] .status") == "online"

            discard = None
            for action in actions[: sixth_discard + 1]:
                for event in service.apply(replace(action, at=None)):
                    discard = event if isinstance(event, TileDiscarded) else discard
            assert discard is not None
            # "seat N discarded X, not Y": pick a tile the seat really holds
            held = tiles_from_json(
                service.engine.private_snapshot()["hands"][discard.seat]["concealed"]
            )
            other = next(t for t in held if t != discard.tile)
            page.click(f"#recent li[data-event-id='{discard.event_id}'] button.correct")
            assert page.input_value("#corr-supersedes") == discard.event_id
            page.fill("#corr-tile", str(other))
            page.fill("#corr-reason", f"seat {discard.seat} discarded {other}, not {discard.tile}")
            page.click("#corr-send")
            ok, text = response(page, "correction")
            assert ok == "1", text
            river = service.engine.snapshot()["hand"]["seats"][discard.seat]["river"]
            assert river[-1][-1] == str(other)  # the engine took the correction
            applied = page.wait_for_selector("#recent li[data-type='correction_applied']")
            assert discard.event_id in (applied.text_content() or "")
            fixed = page.text_content(f"#recent li[data-event-id='{discard.event_id}'] .corrected")
            assert fixed == f"corrected: discard {other}"

            # a false win: the seat to play declares a self-drawn win it does not have
            service.apply(replace(actions[sixth_discard + 1], at=None))  # next seat draws
            turn = service.engine.snapshot()["hand"]["turn"]
            events = service.apply(Win(seat=turn))
            false_win = next(e for e in events if isinstance(e, ViolationRaised))
            assert false_win.kind == "false_win"
            selector = f"#alerts li[data-event-id='{false_win.event_id}']"
            page.wait_for_selector(selector, timeout=2000)
            shown_at = float(page.get_attribute(selector, "data-shown-at") or "inf")
            assert shown_at - false_win.timestamp < 1.0
            assert page.text_content(f"{selector} .alert-detail") == false_win.detail
            assert "not a legal win" in false_win.detail  # the scorer's explanation
            page.click(f"{selector} button.ack")
            ok, text = response(page, "ack")
            assert ok == "1" and false_win.event_id in text
            page.wait_for_selector(f"{selector}.acked")
            # the table logged the ack as an event, with the account: the console shows it
            note = page.wait_for_selector(f"{selector} .acked-note:text('by referee')")
            assert note.text_content() == "acknowledged by referee"
            logged = [
                json.loads(r.payload)
                for r in service.outbox.between("T2", 1, 1, 10_000)
                if r.type == "command_handled"
            ]
            assert [(e["verb"], e["alert"], e["account"]) for e in logged] == [
                ("correction", None, "referee"),
                ("ack", false_win.event_id, "referee"),
            ], logged

            page.click("#table-commands button[data-verb='shuffle']")
            ok, text = response(page, "shuffle")
            assert ok == "1" and "tile_count" in text, text

            service.set_link("camera", "offline: no frames for 5 s")
            page.wait_for_selector("#alerts li[data-kind='camera_offline']")
            text = page.text_content("#alerts li[data-kind='camera_offline'] .alert-detail")
            assert text == "camera link is offline: no frames for 5 s"

            service.apply(TableFault(code="jam", detail=EVIL))
            page.wait_for_selector("#alerts li[data-kind='jam']")
            assert page.text_content("#alerts li[data-kind='jam'] .alert-detail") == EVIL
            assert page.evaluate("window.__xss === undefined")
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            (ARTIFACTS / "referee.png").write_bytes(page.screenshot(full_page=True))

            # a broker crash: the console reconnects and subscribes again by itself
            assert page.get_attribute("body", "data-connects") == "1"
            broker.restart()
            wait_js(page, "document.body.dataset.connects === '2'")
            service.apply(TableFault(code="short_side", detail="side 3 has 32 tiles"))
            page.wait_for_selector("#alerts li[data-kind='short_side']")
    # the service going away is an alert too (its retained status becomes "offline")
    page.wait_for_selector("#alerts li[data-kind='table_offline']", timeout=5000)
    wait_until(lambda: page.text_content("#tables tr[data-table='T2'] .status") == "offline", 5)


def test_a_win_beside_a_face_down_kong_reads_unscored_then_scored(
    broker: MosquittoBroker, web: Any, page_factory: Any, tmp_path: Path
) -> None:
    deal = "start\n" + "".join(f"deal {seat} ?13\n" for seat in range(4))
    play = "0 draw ?\n0 ckong ?\n0 draw ?\n0 discard 5m\n1 draw ?\n1 discard 5p\n"
    page = page_factory(page_url(web.url, "referee.html", {"tournament": TOURNAMENT}))
    with table_service(broker, "T3", tmp_path, procedure="log") as service:
        log_in(page, broker)
        service.apply(script(deal)[0])
        page.click("#tables tr[data-table='T3'] button.pick")
        for action in script(deal + play)[1:]:
            service.apply(action)
        win = service.apply(Win(seat=0, hand=parse_hand("123m 456s 5p 789p")))[0]
        kong = page.wait_for_selector("#recent li[data-type='kong_declared']")
        assert (kong.text_content() or "").endswith("seat 0 kong declared face down")
        line = page.wait_for_selector(f"#recent li[data-event-id='{win.event_id}']")
        assert (line.text_content() or "").endswith("win declared 5p unscored: a kong is face down")
        # the camera missed the kong turned up: the referee enters it from the console
        page.fill("#kong-tile", "E")
        page.click("#kong-send")
        ok, text = response(page, "action")
        assert ok == "1", text
        events = service.outbox.between("T3", 1, 1, 10_000)
        scored = next(json.loads(r.payload) for r in events if r.type == "win_scored")
        assert scored["win_event"] == win.event_id
        line = page.wait_for_selector("#recent li[data-type='win_scored']")
        total = scored["score"]["total"]
        assert (line.text_content() or "").endswith(f"seat 0 win scored {total} points")
        shown = page.text_content("#recent li[data-type='kong_shown']") or ""
        assert shown.endswith("kong shown {EEEE}")


def test_a_wrong_password_is_refused(broker: MosquittoBroker, web: Any, page_factory: Any) -> None:
    page = page_factory(page_url(web.url, "referee.html", {"tournament": TOURNAMENT}))
    page.fill("#broker", ws_url(broker))
    page.fill("#username", "referee")
    page.fill("#password", "wrong")
    page.click("#connect")
    wait_js(page, "document.getElementById('conn').textContent.includes('error')")
    assert page.get_attribute("body", "data-connected") == "0"
    assert page.is_hidden("#console")
