"""``tilesight web``: serve the broadcast overlay and the referee console to browsers.

With ``--demo`` it also starts a private Mosquitto with a WebSockets listener and plays the demo
into it, so the overlay can be watched live on one machine with nothing else set up.
"""

from __future__ import annotations

import argparse
import contextlib
from typing import Any


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "web",
        help="serve the broadcast overlay and referee console pages",
        description="Serves the static pages over HTTP. The pages connect to the broker "
        "themselves with MQTT over WebSockets (a 'protocol websockets' listener in "
        "mosquitto.conf); --broker, --tournament and --table become the pages' defaults. "
        "Prints the URLs to paste into OBS (browser source, 1920x1080) and the referees' tablets.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8080, help="HTTP port (0: any free port)")
    parser.add_argument(
        "--broker", metavar="URL", help="WebSockets broker URL (default ws://<host>:9001)"
    )
    parser.add_argument("--tournament", default="demo", help="tournament id")
    parser.add_argument("--table", default="T01", help="table id the overlay shows by default")
    parser.add_argument("--duration", type=float, help="stop after this many seconds")
    demo = parser.add_argument_group("live demo (private broker, simulated hands)")
    demo.add_argument("--demo", action="store_true", help="play the demo into a private broker")
    demo.add_argument("--hands", type=int, default=2, help="demo hands (default: 2)")
    demo.add_argument("--seed", type=int, default=1, help="demo seed (default: 1)")
    demo.add_argument("--pace", type=float, default=0.6, help="seconds between actions (0.6)")
    demo.add_argument(
        "--wait", type=float, default=5.0, help="seconds to open the overlay before play (5)"
    )
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    import signal
    import sys
    import threading
    from urllib.parse import urlsplit

    from tilesight.cli import CliError
    from tilesight.config import redact_url, without_credentials
    from tilesight.topics import TopicError, check_id
    from tilesight.web.server import WebServer, page_url

    try:
        check_id("tournament", args.tournament)
        check_id("table", args.table)
    except TopicError as exc:
        raise CliError(str(exc)) from exc
    if args.demo and (args.broker or not 1 <= args.hands <= 64 or args.pace < 0):
        raise CliError("--demo starts its own broker (no --broker); --hands 1..64, --pace >= 0")
    done = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: done.set())
    with contextlib.ExitStack() as stack:
        stack.callback(signal.signal, signal.SIGTERM, previous)
        broker_url = args.broker or f"ws://{args.host}:9001"
        mqtt_url = None
        if args.demo:
            mqtt_url, broker_url = _private_broker(stack)
        if urlsplit(broker_url).scheme not in ("ws", "wss"):
            raise CliError(f"--broker {redact_url(broker_url)!r}: pages need a ws:// or wss:// URL")
        # credentials are never served (defaults.json is readable by anyone who can load the
        # page) nor printed: a page takes its account as username/password URL parameters
        served = without_credentials(broker_url)
        defaults = {"broker": served, "tournament": args.tournament, "table": args.table}
        try:
            server = stack.enter_context(WebServer(args.host, args.port, defaults))
        except OSError as exc:
            raise CliError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}") from exc
        print(f"overlay:  {page_url(server.url, 'overlay.html', {'table': args.table})}")
        print(f"referee:  {page_url(server.url, 'referee.html', {})}")
        print(f"broker (WebSockets): {redact_url(broker_url)}   stop with Ctrl-C")
        # after the broker line: tools read the first three lines (overlay, referee, broker)
        print(f"gouji:    {page_url(server.url, 'gouji.html', {'table': args.table})}", flush=True)
        try:
            if mqtt_url is not None:
                if done.wait(args.wait):
                    return 0
                _play(args, mqtt_url, sys.stdout)
            done.wait(args.duration)
        except KeyboardInterrupt:
            pass
    return 0


def _private_broker(stack: contextlib.ExitStack) -> tuple[str, str]:
    """A private Mosquitto with a WebSockets listener: (MQTT URL, WebSockets URL)."""
    from tilesight.cli import CliError
    from tilesight.demo.broker import BrokerError, MosquittoBroker, free_port, wait_for_port

    try:
        broker = stack.enter_context(MosquittoBroker(ws_port=free_port()))
    except BrokerError as exc:
        raise CliError(str(exc)) from exc
    assert broker.ws_port is not None
    if not wait_for_port("127.0.0.1", broker.ws_port, 5):
        raise CliError(f"mosquitto did not open its WebSockets port: {broker.log_tail()}")
    return broker.url, f"ws://127.0.0.1:{broker.ws_port}"


def _play(args: argparse.Namespace, mqtt_url: str, out: Any) -> None:
    from tilesight.demo.play import DemoOptions, run_demo

    options = DemoOptions(
        mqtt=mqtt_url,
        tournament=args.tournament,
        table=args.table,
        hands=args.hands,
        seed=args.seed,
        pace_s=args.pace,
        quiet=True,
    )
    run_demo(options, out)
