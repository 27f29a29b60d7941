"""Overlay latency: from ``service.apply`` to the overlay's DOM showing that state, in Chromium.

    .venv/bin/python bench/bench_overlay.py --hands 4 --pace 0.05

A private Mosquitto with a WebSockets listener, the page server, the real service on the real
engine (simulated WSOM hands), and one headless Chromium overlay. A MutationObserver in the page
stamps ``Date.now()`` each time ``body[data-seq]`` changes (the last step of a redraw); the
service stamps ``time.time()`` before each ``apply``. Same machine, same clock.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from playwright.sync_api import sync_playwright  # noqa: E402

from engine.simulate.actions import demo_hands  # noqa: E402
from tilesight.config import parse_mqtt_url  # noqa: E402
from tilesight.demo.broker import MosquittoBroker, free_port, wait_for_port  # noqa: E402
from tilesight.outbox import Outbox  # noqa: E402
from tilesight.service import TableService  # noqa: E402
from tilesight.table_engine import TableEngine, discard_limit  # noqa: E402
from tilesight.topics import TableTopics  # noqa: E402
from tilesight.web.server import WebServer, page_url  # noqa: E402

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]
OBSERVE = """() => {
  window.__renders = [];
  new MutationObserver(() => window.__renders.push([Number(document.body.dataset.seq), Date.now()]))
    .observe(document.body, {attributes: true, attributeFilter: ["data-seq"]});
}"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--pace", type=float, default=0.05, help="seconds between actions")
    args = parser.parse_args()
    applied: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as tmp, MosquittoBroker(ws_port=free_port()) as broker:
        assert broker.ws_port and wait_for_port("127.0.0.1", broker.ws_port, 5)
        outbox = Outbox(Path(tmp) / "outbox.sqlite")
        service = TableService(
            topics=TableTopics("bench", "T1"),
            engine=TableEngine(table_id="T1", procedure="wsom", rules="mcr", seed=args.seed),
            outbox=outbox,
            endpoint=parse_mqtt_url(broker.url),
            discard_limit_s=discard_limit("wsom"),
        )
        service.start()
        with WebServer() as web, sync_playwright() as pw:
            chromium = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            page = chromium.new_page(viewport={"width": 1920, "height": 1080})
            page.goto(
                page_url(
                    web.url,
                    "overlay.html",
                    {
                        "broker": f"ws://127.0.0.1:{broker.ws_port}",
                        "tournament": "bench",
                        "table": "T1",
                    },
                )
            )
            page.evaluate(OBSERVE)
            service.link.connected.wait(10)
            time.sleep(1.0)  # let the page connect before the first action
            for hand in demo_hands("wsom", args.seed, args.hands):
                for action in hand.actions:
                    before = time.time()
                    service.apply(replace(action, at=None))
                    applied[service.engine.position[1]] = before  # the state's seq
                    time.sleep(args.pace)
            time.sleep(1.0)
            renders = page.evaluate("window.__renders")
            chromium.close()
        service.stop()
        outbox.close()
    shown = {seq: at / 1000 for seq, at in renders}
    latencies = [(shown[s] - t) * 1000 for s, t in applied.items() if s in shown]
    print(
        f"overlay: {len(applied)} actions, {len(latencies)} redraws matched; apply -> DOM ms: "
        f"p50 {statistics.median(latencies):.1f}, p99 {percentile(latencies, 0.99):.1f}, "
        f"max {max(latencies):.1f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
