"""Reading the broadcast overlay in a browser page: what its DOM shows (``VIEW_JS``), what it
must show for an engine snapshot (:func:`expected_view`), its address, and waiting for a seq."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import ACCOUNTS, TOURNAMENT, wait_js, ws_url
from tilesight.demo.broker import MosquittoBroker
from tilesight.web.server import page_url

VIEW_JS = """() => {
  const seats = [0, 1, 2, 3].map((i) => {
    const box = document.getElementById(`seat-${i}`);
    const tiles = (sel) => [...box.querySelectorAll(sel)].map((t) => t.dataset.tile);
    return {
      river: tiles(".river .tile"),
      melds: [...box.querySelectorAll(".melds .meld")].map((m) => m.dataset.meld),
      flowers: tiles(".flowers .tile"),
      score: box.querySelector(".score").textContent,
      turn: box.classList.contains("turn"),
      last: tiles(".last-discard"),
    };
  });
  const live = document.querySelector("#wall-live .count");
  return {
    seq: Number(document.body.dataset.seq),
    seats,
    live: live ? live.textContent : null,
    reserved: document.getElementById("wall-reserved").dataset.count,
  };
}"""


def expected_view(snapshot: dict[str, Any], seq: int) -> dict[str, Any]:
    """What the overlay must show, straight from the engine's public snapshot."""
    hand = snapshot["hand"]
    live = hand["live_discard"]
    seats = []
    for i, seat in enumerate(hand["seats"]):
        river = [tile for row in seat["river"] for tile in row]
        seats.append(
            {
                "river": river,
                "melds": [m["meld"] for m in seat["melds"]]
                + ["face-down"] * seat["face_down_kongs"],
                "flowers": seat["flowers"],
                "score": str(snapshot["scores"][i]),
                "turn": hand["turn"] == i and hand["phase"] in ("draw", "discard"),
                "last": [live["tile"]]
                if live and live["seat"] == i and river and river[-1] == live["tile"]
                else [],
            }
        )
    wall = hand["wall"]
    return {
        "seq": seq,
        "seats": seats,
        "live": str(wall["live_left"]),
        "reserved": str(min(wall["reserved"], 32)),
    }


def overlay_url(
    web: Any, broker: MosquittoBroker, table: str, account: str = "overlay", **extra: str
) -> str:
    params = {
        "broker": ws_url(broker),
        "username": account,
        "password": ACCOUNTS[account],
        "tournament": TOURNAMENT,
        "table": table,
        **extra,
    }
    return page_url(web.url, "overlay.html", params)


def wait_for_seq(page: Any, seq: int, timeout_s: float = 15.0) -> None:
    try:
        wait_js(page, f"Number(document.body.dataset.seq) >= {seq}", timeout_s)
    except AssertionError as exc:
        seen = page.evaluate("JSON.stringify(document.body.dataset)")
        raise AssertionError(f"overlay never reached seq {seq}; page state {seen}") from exc
