"""The six-seat Gouji overlay and the referee console's Gouji alerts, in a real headless
Chromium fed by the real service (TableService on a GoujiTable) through Mosquitto with the
example ACL. A whole seeded game is applied action by action; the overlays (one open from the
start, one opened mid-game from the retained state alone) must show exactly the engine's cards
left, 报牌 markers, current trick, finishing order and scores."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.gouji.match_table import GoujiTable
from engine.gouji.simulate import simulate_match, table_actions
from engine.gouji.table_events import GoujiPlay, GoujiStart
from tests.web.conftest import (
    ACCOUNTS,
    ARTIFACTS,
    TOURNAMENT,
    table_url,
    wait_js,
    wait_until,
    ws_url,
)
from tests.web.test_referee import log_in
from tilesight.demo.broker import MosquittoBroker
from tilesight.web.server import page_url

pytestmark = pytest.mark.browser

VIEW_JS = """() => {
  const seat = (i) => {
    const box = document.getElementById(`seat-${i}`);
    return {left: box.dataset.cardsLeft, report: !!box.querySelector(".report svg.word path"),
            place: box.dataset.place, turn: box.classList.contains("turn")};
  };
  const plays = [...document.querySelectorAll("#trick .play")].map((p) => ({
    seat: Number(p.dataset.seat), role: p.dataset.role,
    cards: [...p.querySelectorAll(".card")].map((c) => c.dataset.card)}));
  return {
    seq: Number(document.body.dataset.seq),
    seats: [0, 1, 2, 3, 4, 5].map(seat),
    leader: document.getElementById("trick").dataset.leader,
    plays,
    finish: [...document.querySelectorAll("#finish li")].map((li) => [
      Number(li.dataset.seat), li.querySelector("svg.word").dataset.word]),
    alliances: [0, 1].map((s) => document.getElementById(`alliance-${s}`).dataset.points),
    match: document.getElementById("match").dataset.points || "",
  };
}"""

#: Every card face and word is drawn from outlines: no SVG text, every character has a path.
FONTLESS_JS = """() => {
  const words = [...document.querySelectorAll("svg.word")];
  const cards = [...document.querySelectorAll(".card:not(.back) svg")];
  return {
    text: document.querySelectorAll("#stage svg text").length,
    words: words.length,
    wordsDrawn: words.every((w) => w.querySelectorAll("path").length === [...w.dataset.word].length
    ),
    cards: cards.length,
    cardsDrawn: cards.every((c) => c.querySelectorAll("path").length >= 2),
  };
}"""


def expected_view(snap: dict[str, Any], seq: int) -> dict[str, Any]:
    playing = snap["phase"] == "playing"
    trick = snap["trick"]
    return {
        "seq": seq,
        "seats": [
            {
                "left": str(s["cards_left"]),
                "report": s["report"],
                "place": str(s["place"]) if s["place"] else "",
                "turn": playing and snap["turn"] == s["seat"],
            }
            for s in snap["seats"]
        ],
        "leader": "" if trick["leader"] is None else str(trick["leader"]),
        "plays": [
            {"seat": p["seat"], "role": p["role"], "cards": p["cards"]} for p in trick["plays"][-6:]
        ],
        "finish": [[f["seat"], f["place_name"]] for f in snap["finish_order"]],
        "alliances": [str(v) for v in snap["alliances"]],
        "match": ":".join(map(str, snap["match"]["points"])),
    }


@contextlib.contextmanager
def gouji_service(broker: MosquittoBroker, table: str, workdir: Path) -> Iterator[Any]:
    from tilesight.config import parse_mqtt_url
    from tilesight.outbox import Outbox
    from tilesight.service import TableService
    from tilesight.topics import TableTopics

    outbox = Outbox(workdir / f"outbox-{table}.sqlite")
    service = TableService(
        topics=TableTopics(TOURNAMENT, table),
        engine=GoujiTable(table_id=table, seed=1),
        outbox=outbox,
        endpoint=parse_mqtt_url(table_url(broker, table)),
        client_id=f"web-test-{table}",
        will_delay_s=1,
    )
    service.start()
    try:
        wait_until(service.link.connected.is_set, 10, f"table {table} connected")
        yield service
    finally:
        service.stop(2.0)
        outbox.close()


def gouji_url(web: Any, broker: MosquittoBroker, table: str) -> str:
    params = {
        "broker": ws_url(broker),
        "username": "overlay",
        "password": ACCOUNTS["overlay"],
        "tournament": TOURNAMENT,
        "table": table,
        "names": "Ann,Bo,Cy,Di,Ed,Flo",
    }
    return page_url(web.url, "gouji.html", params)


def test_gouji_overlay_follows_a_whole_game(
    broker: MosquittoBroker, web: Any, page_factory: Any, tmp_path: Path
) -> None:
    game = simulate_match(2, max_games=1).games[0]
    actions = table_actions(game)
    burn_action = 1 + _first_burn(game)  # actions[0] starts the game
    checks = set(range(0, len(actions), 9)) | {burn_action, len(actions) - 1}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with gouji_service(broker, "T3", tmp_path) as service:
        pages = [page_factory(gouji_url(web, broker, "T3"))]
        wait_js(pages[0], "document.body.dataset.connected === '1'")
        for i, action in enumerate(actions):
            service.apply(replace(action, at=None))
            if i == len(actions) // 2:
                pages.append(page_factory(gouji_url(web, broker, "T3")))  # mid-game: state only
            if i not in checks:
                continue
            seq = service.engine.position[1]
            expected = expected_view(service.engine.snapshot(), seq)
            for page in pages:
                wait_js(page, f"Number(document.body.dataset.seq) >= {seq}", 15)
                assert page.evaluate(VIEW_JS) == expected, f"after action {i}: {action}"
            if i == burn_action:
                burn = pages[0].locator("#trick .play.burn").last
                assert burn.locator("svg.word.burn").get_attribute("data-word") == "烧"
                shot = pages[0].screenshot(omit_background=True)
                (ARTIFACTS / "gouji-mid-game.png").write_bytes(shot)
    final = pages[0].evaluate(VIEW_JS)
    assert [seat for seat, _ in final["finish"]] == list(game.result.finish_order)
    assert [name for _, name in final["finish"]] == ["头科", "二科", "三科", "四科", "二落", "大落"]
    assert final["alliances"] == [str(v) for v in game.result.alliances]
    drawn = pages[0].evaluate(FONTLESS_JS)
    assert drawn["text"] == 0 and drawn["words"] >= 6 and drawn["wordsDrawn"], drawn
    assert drawn["cards"] >= 1 and drawn["cardsDrawn"], drawn
    (ARTIFACTS / "gouji-final.png").write_bytes(pages[0].screenshot(omit_background=True))


def _first_burn(game: Any) -> int:
    """Index in ``game.actions`` of the first burn: the n-th play made the n-th CardsPlayed."""
    roles = [e.role for e in game.events if hasattr(e, "role")]
    plays = [i for i, a in enumerate(game.actions) if hasattr(a, "cards")]
    return plays[roles.index("burn")]


def test_report_marker_at_ten_or_fewer(
    broker: MosquittoBroker, web: Any, page_factory: Any, tmp_path: Path
) -> None:
    with gouji_service(broker, "T4", tmp_path) as service:
        page = page_factory(gouji_url(web, broker, "T4"))
        hands = ("3 4 5 6 7 8 9 T J Q K", "3 4 5 6 7 8 9 T J Q", *(["5 5"] * 4))
        service.apply(GoujiStart(hands=hands, leader=0))
        seq = service.engine.position[1]
        wait_js(page, f"Number(document.body.dataset.seq) >= {seq}")
        view = page.evaluate(VIEW_JS)
        assert [s["left"] for s in view["seats"]] == ["11", "10", "2", "2", "2", "2"]
        assert [s["report"] for s in view["seats"]] == [False, True, True, True, True, True]
        service.apply(GoujiPlay(seat=0, cards="3"))
        wait_js(page, f"Number(document.body.dataset.seq) > {seq}")
        view = page.evaluate(VIEW_JS)
        assert view["seats"][0] == {"left": "10", "report": True, "place": "", "turn": False}
        assert view["plays"] == [{"seat": 0, "role": "lead", "cards": ["3"]}]
        assert view["leader"] == "0" and view["seats"][1]["turn"]
        (ARTIFACTS / "gouji-report.png").write_bytes(page.screenshot(omit_background=True))


def test_referee_console_shows_gouji_violations_and_burns(
    broker: MosquittoBroker, web: Any, page_factory: Any, tmp_path: Path
) -> None:
    game = simulate_match(2, max_games=1).games[0]
    actions = table_actions(game)
    page = page_factory(page_url(web.url, "referee.html", {"tournament": TOURNAMENT}))
    with gouji_service(broker, "T3", tmp_path) as service:
        log_in(page, broker)
        service.apply(replace(actions[0], at=None))
        page.wait_for_selector("#tables tr[data-table='T3'] td:nth-child(3):text('1 (playing)')")
        page.click("#tables tr[data-table='T3'] button.pick")
        service.apply(GoujiPlay(seat=(actions[1].seat + 1) % 6, cards="3"))  # type: ignore[attr-defined]
        alert = page.locator("#alerts li[data-kind='out_of_turn']")
        alert.wait_for()
        assert alert.locator(".alert-kind").text_content() == "Out of turn"
        for action in actions[1:]:
            service.apply(replace(action, at=None))
        burn = page.locator("#alerts li[data-kind='burn']").first
        burn.wait_for()
        assert burn.locator(".alert-kind").text_content() == "Burn (烧)"
        assert "burns with" in (burn.locator(".alert-detail").text_content() or "")
        recent = page.locator("#recent li[data-type='game_over']")
        recent.wait_for()
        assert "game 1 over" in (recent.text_content() or "")
        out = page.locator("#recent li[data-type='player_out']").first
        assert "out in place 5 (二落)" in (out.text_content() or "")
        (ARTIFACTS / "referee-gouji.png").write_bytes(page.screenshot())
