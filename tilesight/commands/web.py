"""``tilesight web``: serve the broadcast overlay and the referee console to browsers."""

from __future__ import annotations

import argparse


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
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    import signal
    import threading
    from urllib.parse import urlsplit

    from tilesight.cli import CliError
    from tilesight.topics import TopicError, check_id
    from tilesight.web.server import WebServer, page_url

    try:
        check_id("tournament", args.tournament)
        check_id("table", args.table)
    except TopicError as exc:
        raise CliError(str(exc)) from exc
    broker = args.broker or f"ws://{args.host}:9001"
    if urlsplit(broker).scheme not in ("ws", "wss"):
        raise CliError(f"--broker {broker!r}: pages need a ws:// or wss:// URL")
    defaults = {"broker": broker, "tournament": args.tournament, "table": args.table}
    try:
        server = WebServer(args.host, args.port, defaults)
    except OSError as exc:
        raise CliError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}") from exc
    done = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: done.set())
    with server:
        print(f"overlay:  {page_url(server.url, 'overlay.html', {'table': args.table})}")
        print(f"referee:  {page_url(server.url, 'referee.html', {})}")
        print(f"broker (WebSockets): {broker}   stop with Ctrl-C", flush=True)
        try:
            done.wait(args.duration)
        except KeyboardInterrupt:
            pass
        finally:
            signal.signal(signal.SIGTERM, previous)
    return 0
