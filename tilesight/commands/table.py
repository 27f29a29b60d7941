"""``tilesight table``: talk to a shuffling table (or its emulator) over a pyserial URL."""

from __future__ import annotations

import argparse
import time
from typing import Any

ACTIONS = ("info", "status", "shuffle", "raise", "dice", "events")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "table",
        help="query or drive the automatic shuffling table",
        description="Commands for a table-agent board (docs/table-protocol.md). --port takes any "
        "pyserial URL: /dev/ttyUSB0, socket://host:port, spy:///dev/ttyUSB0, or the path "
        "printed by `tilesight table-emulator --pty`.",
    )
    parser.add_argument("action", choices=ACTIONS, help="what to do")
    parser.add_argument("--port", required=True, metavar="URL", help="serial port or URL")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument("--baudrate", type=int, default=115200, help="serial speed (115200)")
    parser.add_argument("--timeout", type=float, default=None, metavar="S",
                        help="seconds the whole command may take, an action included (default: "
                        "5 to reach the table, then as long as the action needs)")  # fmt: skip
    parser.add_argument(
        "--tiles", type=int, choices=(136, 144), help="shuffle: tile count (default: configured)"
    )
    parser.add_argument("--dice", type=int, choices=(1, 2, 3), help="dice: how many to roll")
    parser.add_argument("--since", type=int, default=0, metavar="N",
                        help="events: after this counter (default: all buffered)")  # fmt: skip
    parser.add_argument("--follow", action="store_true", help="events: keep printing until ^C")
    parser.set_defaults(handler=_run)


def _left(args: argparse.Namespace, default: float | None = 5.0) -> float | None:
    """Seconds the next request may take: what is left of --timeout, else ``default``."""
    if args.deadline is None:
        return default
    return max(0.1, args.deadline - time.monotonic())


def _run(args: argparse.Namespace) -> int:
    from devices.driver import TableDriver, TableError
    from devices.transport import LinkDownError, SerialTransport
    from tilesight.cli import CliError

    if args.since < 0:
        raise CliError(f"--since must be a counter >= 0, got {args.since!r}")
    if args.timeout is not None and not 0 < args.timeout <= 3600:
        raise CliError(f"--timeout must be 0..3600 seconds, got {args.timeout!r}")
    started = time.monotonic()
    transport = SerialTransport(args.port, baudrate=args.baudrate)
    driver = TableDriver(args.port, transport=transport, on_event=_follower(args))
    try:
        driver.open(timeout=args.timeout or 5.0)
    except (TableError, LinkDownError) as exc:  # a noisy line: timeouts are errors, not crashes
        driver.close()
        raise CliError(str(exc)) from None
    args.deadline = started + args.timeout if args.timeout else None
    try:
        result = _ACTIONS[args.action](driver, args)
    except (TableError, LinkDownError) as exc:
        raise CliError(str(exc)) from None
    finally:
        driver.close()
    if result is not None:
        _print(result, args.json)
    return 0


def _follower(args: argparse.Namespace) -> Any:
    if args.action != "events" or not args.follow:
        return None

    def show(notice: object) -> None:
        from devices.device_events import EventRecord, record_to_dict

        if isinstance(notice, EventRecord):
            _print(record_to_dict(notice), args.json)
        else:
            _print({"notice": type(notice).__name__, **vars(notice)}, args.json)

    return show


def _print(data: dict[str, Any], as_json: bool) -> None:
    import json

    line = (
        json.dumps(data, sort_keys=True)
        if as_json
        else "  ".join(f"{key}={_text(value)}" for key, value in data.items())
    )
    try:
        print(line, flush=True)
    except BrokenPipeError:  # `| head`: the reader is gone, which is not an error of ours
        import os
        import sys

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(0) from None


def _text(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    if isinstance(value, dict):
        return "{" + " ".join(f"{k}={_text(v)}" for k, v in value.items()) + "}"
    return "-" if value is None else str(value)


def _info(driver: Any, args: argparse.Namespace) -> dict[str, Any]:
    from devices import codes

    info = driver.get_info(timeout=_left(args))
    caps = [name.removeprefix("CAP_").lower() for name in dir(codes)
            if name.startswith("CAP_") and info.capabilities & getattr(codes, name)]  # fmt: skip
    return {
        "model": info.model, "serial": info.serial_number,
        "firmware": ".".join(map(str, info.firmware)),
        "protocol": f"{info.protocol_major}.{info.protocol_minor}",
        "capabilities": sorted(caps), "max_payload": info.max_payload,
    }  # fmt: skip


def _status(driver: Any, args: argparse.Namespace) -> dict[str, Any]:
    from devices.codes import FAULTS, FaultCode

    st = driver.status(timeout=_left(args))
    fault = None
    if st.fault != FaultCode.NONE:
        info = FAULTS[st.fault]
        fault = {
            "code": st.fault.name.lower(),
            "side": st.fault_side,
            "severity": info.severity.name.lower(),
            "recovery": info.recovery.name.lower(),
        }
    return {
        "state": st.state.name.lower(), "tiles": st.active_tiles, "dice": st.active_dice,
        "pending_tiles": st.pending_tiles or None, "pending_dice": st.pending_dice or None,
        "progress": st.progress, "event_counter": st.event_counter, "boot_id": st.boot_id,
        "uptime_ms": st.uptime_ms, "fault": fault,
    }  # fmt: skip


def _shuffle(driver: Any, args: argparse.Namespace) -> dict[str, Any]:
    result = driver.shuffle(tile_count=args.tiles or 0, timeout=_left(args, None))
    return {"tile_count": result.tile_count, "side_counts": list(result.side_counts)}


def _raise(driver: Any, args: argparse.Namespace) -> dict[str, Any]:
    return {"tile_count": driver.raise_walls(timeout=_left(args, None))}


def _dice(driver: Any, args: argparse.Namespace) -> dict[str, Any]:
    result = driver.roll_dice(count=args.dice or 0, timeout=_left(args, None))
    return {"values": list(result.values), "total": result.total}


def _events(driver: Any, args: argparse.Namespace) -> None:
    import signal
    import threading

    stop = threading.Event()
    # following, Ctrl-C ends the follow between calls, never inside one: interrupted mid-call
    # (a busy machine, the signal early) the driver could be left holding its link and hang
    previous = signal.signal(signal.SIGINT, lambda *_: stop.set()) if args.follow else None
    try:
        _past_events(driver, args)
        if args.follow:
            stop.wait()  # the driver's poll thread prints new events
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def _past_events(driver: Any, args: argparse.Namespace) -> None:
    from devices.device_events import record_to_dict

    since = args.since
    while True:
        reply = driver.events_since(since, timeout=_left(args))
        if reply.gap and since:
            _print({"notice": "EventsMissed", "after": since, "oldest": reply.oldest}, args.json)
        for record in reply.records:
            _print(record_to_dict(record), args.json)
            since = record.counter
        if not reply.records or since == reply.latest:
            break


_ACTIONS = {
    "info": _info, "status": _status, "shuffle": _shuffle, "raise": _raise, "dice": _dice,
    "events": _events,
}  # fmt: skip
